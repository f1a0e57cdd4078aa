import Foundation

/// x^p for one fixed p, on `Lanes`, read from a table: SmartBlackAndWhite's three IPT powers
/// (x^0.43) were a fifth of a Tone + Color + B&W render's CPU through `LaneMath.pow`, whose
/// division and two polynomials cost about 50 cycles for four lanes; the table reads the same
/// powers in under half the time (measured side by side, 3.65 M groups of three powers: 168 ms
/// through `LaneMath.pow`, 79 ms through the table).
///
/// The buckets are the Floats sharing their top 16 bits (exponent and 7 bits of mantissa), as in
/// `ByteQuantizer`: over a bucket x runs linearly with its low 16 bits, so the power is read as
/// the bucket's value at its lowest Float plus a slope times those bits. A bucket spans under
/// 0.8 % of its value, where x^p bends by p(1 − p)/8 · 0.0078² relative: within 2·10⁻⁶ of the
/// exact power for the p in (0, 1) this is built for (`LaneMathTests`), the accuracy of
/// `LaneMath.pow` (4·10⁻⁶). The table covers [2⁻²⁰, 2): 21 octaves of 128 buckets, 21 KB, which
/// stays in the first-level cache beside a chunk's planes.
///
/// Below the table: x ≤ 0 gives 0 (as `LaneMath.pow`), and 0 < x < 2⁻²⁰ reads as 2⁻²⁰ (a colour
/// whose every LMS value is under 10⁻⁶ is black to a 16-bit code); x ≥ 2 reads as just below 2.
struct LanePowerTable: Sendable {
    /// For each bucket: x^p at its lowest Float, and the slope of x^p per unit of its low 16 bits
    /// (the chord to the next bucket's lowest Float, so the reading is continuous).
    private let values: [Float], slopes: [Float]

    /// The bucket of 2⁻²⁰ (bit pattern >> 16), and how many buckets up to 2.
    /// (Computed constants, not `static let`s, which are made lazily: each read in the loop was a
    /// call to `swift_once`, as `LaneMath`'s constant was.)
    private static var firstBucket: Int32 { Int32(Float(1).bitPattern >> 16) - 20 * 128 }
    private static var buckets: Int { 21 * 128 }
    private static var lowest: Float { Float(bitPattern: UInt32(firstBucket) << 16) }
    /// 2's predecessor, `Float(2).nextDown`.
    private static var highest: Float { Float(bitPattern: 0x3FFF_FFFF) }

    /// The table of x^`power`.
    init(power: Double) {
        let lowestFloat = { (i: Int) in Double(Float(bitPattern: UInt32(Int(Self.firstBucket) + i) << 16)) }
        let exact = (0...Self.buckets).map { Foundation.pow(lowestFloat($0), power) }
        values = (0..<Self.buckets).map { Float(exact[$0]) }
        slopes = (0..<Self.buckets).map { Float((exact[$0 + 1] - exact[$0]) / 65_536) }
    }

    @inline(__always)
    func callAsFunction(_ x: Lanes) -> Lanes {
        let bits = unsafeBitCast(x.clamped(Self.lowest, Self.highest), to: LaneBits.self)
        let bucket = (bits &>> 16) &- Self.firstBucket
        let within = LaneMath.float(bits & 0xFFFF)
        // No gather below AVX2: four scalar reads of each table.
        let (i0, i1, i2, i3) = (Int(bucket[0]), Int(bucket[1]), Int(bucket[2]), Int(bucket[3]))
        let read = values.withUnsafeBufferPointer { v in
            slopes.withUnsafeBufferPointer { s in
                Lanes(v[i0], v[i1], v[i2], v[i3]) + within * Lanes(s[i0], s[i1], s[i2], s[i3])
            }
        }
        return read.replacing(with: 0, where: x .<= 0)
    }
}
