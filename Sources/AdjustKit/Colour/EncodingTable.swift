/// Working value → sRGB-encoded value for the `--max-size` shrink, which averages encoded floats
/// before quantizing: `powf` three times a sampled pixel would cost more than the rest of the
/// shrink.
///
/// Below the curve's kink (0.0031308) the encoding is the straight line 12.92·x, computed as
/// such. From the kink to 1 the power law is tabulated in 1024 equal steps per octave, [2⁻⁹, 2⁻⁸)
/// … [2⁻¹, 1), and interpolated linearly: within 1.8·10⁻⁷ of the curve (three Float steps near
/// 1; the interpolation's own error is a fifth of that). Steps per octave because the curve
/// bends hardest near 0: the uniform table of 16 384 steps this replaces was off by 5·10⁻⁶ there,
/// took 64 KB where this takes 36 KB, and cost ~5 % more CPU on an Enhance preview (measured
/// side by side). The octave and the step come straight from the Float's exponent and top
/// mantissa bits. Values outside [0, 1) take the exact curve.
///
/// Unchecked Sendable (shared by every render thread through `linear` and `srgb`): the table is
/// written only in `init`, before either static is published, and only read after; Swift cannot
/// see that through the raw pointer, which this per-sample loop needs (see `table`).
struct EncodingTable: @unchecked Sendable {
    let space: WorkingSpace
    /// The curve at the start of every step from 2⁻⁹ to 1 (the last entry is 1 itself); built
    /// once per process and never freed (a raw pointer: an array's checks show in this loop).
    private let table: UnsafeMutablePointer<Float>
    private static let stepsPerOctave = 1024, octaves = 9
    /// A Float's bit pattern shifted right by this is its exponent and step (the top 10 mantissa
    /// bits: 1024 steps); the bits shifted out place it within the step.
    private static let fractionBits: UInt32 = 13
    /// The (exponent, step) of 2⁻⁹: the table's first index.
    private static let firstIndex = Int(Float(1.0 / 512).bitPattern >> fractionBits)
    /// Where the linear foot ends (filters.md §0).
    private static let kink: Float = 0.0031308

    static let linear = EncodingTable(space: .linear), srgb = EncodingTable(space: .srgb)
    static func shared(for space: WorkingSpace) -> EncodingTable { space == .linear ? linear : srgb }

    private init(space: WorkingSpace) {
        self.space = space
        let count = Self.stepsPerOctave * Self.octaves + 1
        table = .allocate(capacity: count)
        for i in 0..<count {
            // Step s of octave o starts at 2^(o − 9) · (1 + s/1024): the Float whose top bits are
            // firstIndex + i, lower bits zero.
            let start = Float(bitPattern: UInt32(Self.firstIndex + i) << Self.fractionBits)
            table[i] = SRGBTransfer.encode(start)
        }
    }

    @inline(__always)
    func callAsFunction(_ working: Float) -> Float {
        guard space == .linear else { return working }
        guard working > Self.kink, working < 1 else { return SRGBTransfer.encode(working) }
        let bits = working.bitPattern
        let i = Int(bits >> Self.fractionBits) - Self.firstIndex
        let fraction = Float(bits & (1 << Self.fractionBits - 1)) * (1 / Float(1 << Self.fractionBits))
        return table[i] + (table[i + 1] - table[i]) * fraction
    }
}
