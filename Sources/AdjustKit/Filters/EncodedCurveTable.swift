/// Per-channel curves defined on sRGB-encoded values in [0, 1] (as photo editors draw them),
/// tabulated over working values so that a kernel costs one lookup per channel. Inputs are
/// clamped to [0, 1] first: the curves are flat beyond their ends. In both working spaces the
/// curve sees encoded values (`WorkingSpace.encoded`).
struct EncodedCurveTable: Sendable {
    private let red: [Float], green: [Float], blue: [Float]
    private static let intervals = 16_384

    /// `curves` gives, for an encoded value, the encoded (red, green, blue) results.
    init(space: WorkingSpace, curves: (Double) -> (Double, Double, Double)) {
        var red = [Float](), green = [Float](), blue = [Float]()
        for i in 0...Self.intervals {
            let encoded = Double(space.encoded(Float(i) / Float(Self.intervals)))
            let (r, g, b) = curves(encoded)
            func back(_ v: Double) -> Float { space.working(fromEncoded: Float(min(1, max(0, v)))) }
            red.append(back(r)); green.append(back(g)); blue.append(back(b))
        }
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// One curve for all three channels.
    init(space: WorkingSpace, curve: (Double) -> Double) {
        self.init(space: space) { v in let y = curve(v); return (y, y, y) }
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        r = Self.lookup(red, r); g = Self.lookup(green, g); b = Self.lookup(blue, b)
    }

    /// The red table's value (all three for a single curve), for tests and for kernels that
    /// map a grey value.
    func grey(_ v: Float) -> Float { Self.lookup(red, v) }

    @inline(__always)
    private static func lookup(_ table: [Float], _ v: Float) -> Float {
        let x = min(1, max(0, v.isNaN ? 0 : v)) * Float(intervals)
        let i = min(Int(x), intervals - 1)
        let f = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}
