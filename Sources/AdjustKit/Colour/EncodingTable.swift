/// Working value → sRGB-encoded value by a table with linear interpolation, for the `--max-size`
/// shrink, which averages encoded floats before quantizing: `powf` three times a sampled pixel
/// would cost more than the rest of the shrink. 16 384 intervals over [0, 1] keep the error
/// below 5·10⁻⁶ (a thousandth of a code; the worst is at the kink between the linear foot and the
/// power law); values outside [0, 1] take the exact curve.
struct EncodingTable: Sendable {
    let space: WorkingSpace
    private let table: [Float]
    private static let intervals = 16_384

    init(space: WorkingSpace) {
        self.space = space
        table = space == .linear ? (0...Self.intervals).map { SRGBTransfer.encode(Float($0) / Float(Self.intervals)) } : []
    }

    @inline(__always)
    func callAsFunction(_ working: Float) -> Float {
        guard space == .linear else { return working }
        guard working >= 0, working < 1 else { return SRGBTransfer.encode(working) }
        let x = working * Float(Self.intervals)
        let i = Int(x)
        let f = x - Float(i)
        return table.withUnsafeBufferPointer { t in t[i] + (t[i + 1] - t[i]) * f }
    }
}
