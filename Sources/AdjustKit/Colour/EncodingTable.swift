/// Working value → sRGB-encoded value by a table with linear interpolation, for the `--max-size`
/// shrink, which averages encoded floats before quantizing: `powf` three times a sampled pixel
/// would cost more than the rest of the shrink. 16 384 intervals over [0, 1] keep the error
/// below 5·10⁻⁶ (a thousandth of a code; the worst is at the kink between the linear foot and the
/// power law); values outside [0, 1] take the exact curve.
struct EncodingTable: @unchecked Sendable {
    let space: WorkingSpace
    /// intervals + 1 samples of the curve; built once per process and never freed (a raw
    /// pointer: this runs three times a sampled pixel, where an array's checks show).
    private let table: UnsafeMutablePointer<Float>
    private static let intervals = 16_384

    static let linear = EncodingTable(space: .linear), srgb = EncodingTable(space: .srgb)
    static func shared(for space: WorkingSpace) -> EncodingTable { space == .linear ? linear : srgb }

    private init(space: WorkingSpace) {
        self.space = space
        table = .allocate(capacity: Self.intervals + 1)
        for i in 0...Self.intervals { table[i] = SRGBTransfer.encode(Float(i) / Float(Self.intervals)) }
    }

    @inline(__always)
    func callAsFunction(_ working: Float) -> Float {
        guard space == .linear else { return working }
        guard working >= 0, working < 1 else { return SRGBTransfer.encode(working) }
        let x = working * Float(Self.intervals)
        let i = Int(x)
        let f = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}
