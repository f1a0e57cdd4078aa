/// `CIToneCurve`: five control points (inputPoint0…4, `aas:Curve0x` … `aas:Curve4y`), each in [0, 1].
package struct ToneCurve: Equatable, Sendable {
    /// `inputPoint0…4` as (input, output) pairs on sRGB-encoded values in [0, 1], as written;
    /// the renderer sorts them by x and drops a repeated x.
    package var points: [Point]
    /// Stores `points` as given, unsorted.
    package init(points: [Point]) { self.points = points }
}

extension ToneCurve: SingleAdjustmentXMPFilter, ColourFilter {
    package static let filterName = "CIToneCurve"
    static let xmpPropertyNames = ["Curve0x", "Curve0y", "Curve1x", "Curve1y", "Curve2x", "Curve2y",
                                   "Curve3x", "Curve3y", "Curve4x", "Curve4y"]

    package var parameterValues: [(String, ParameterValue)] {
        points.enumerated().map { ("Point\($0.offset)", .numbers([$0.element.x, $0.element.y])) }
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .exact }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> ToneCurve { self }

    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> ToneCurve? {
        guard xmp.hasAll(xmpPropertyNames, of: filterName) else { return nil }
        let v = try xmp.numbers(xmpPropertyNames)
        return ToneCurve(points: (0..<5).map { Point(x: v[2 * $0], y: v[2 * $0 + 1]) })
    }

    func write(to xmp: inout AdjustmentXMPWriter) {
        xmp.numbers(Self.xmpPropertyNames, points.flatMap { [$0.x, $0.y] })
    }

    func colourStage(options: ColourOptions) -> ColourStage { .pixel(ToneCurveKernel(self)) }
}

/// CIToneCurve, filters.md §2 [exact for the analytic form]: per channel, u = E(v), a natural
/// cubic spline through the five points (flat outside [x0, x4]), clamped, then D — in both working
/// spaces (in `srgb` the curve therefore sees doubly-encoded values, as the seed's context did).
struct ToneCurveKernel: PixelKernel {
    /// f(v) = D(clamp(curve(E(v)))) sampled on [0, 1]. Exact to clamp v to [0, 1] first: E is
    /// monotone and the curve is flat beyond its end points, which lie in [0, 1].
    private let table: [Float]
    private static let intervals = 16_384

    /// nil for the identity (every |x_i − y_i| < 0.001).
    init?(_ curve: ToneCurve) {
        guard curve.points.contains(where: { abs($0.x - $0.y) >= 0.001 }) else { return nil }
        let spline = NaturalCubicSpline(points: curve.points)
        table = (0...Self.intervals).map { i in
            let u = SRGBTransfer.encode(Float(i) / Float(Self.intervals))
            return SRGBTransfer.decode(Float(min(1, max(0, spline.value(at: Double(u))))))
        }
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        r = lookup(r); g = lookup(g); b = lookup(b)
    }

    @inline(__always)
    private func lookup(_ v: Float) -> Float {
        let x = min(1, max(0, v)) * Float(Self.intervals)
        let i = min(Int(x), Self.intervals - 1)
        let f = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}

extension EditChain {
    /// `CIToneCurve`, applied to the stored image.
    package var toneCurve: ToneCurve? {
        get { self[ToneCurve.self] }
        set { self[ToneCurve.self] = newValue }
    }
}
