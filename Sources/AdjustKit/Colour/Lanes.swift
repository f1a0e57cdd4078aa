#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Four pixels' values of one channel: the width at which the Smart kernels compute
/// (`LaneKernel`). Four floats are one SSE register on the baseline x86-64 this package builds
/// for (and one NEON register on arm64), so a formula written once on `Lanes` does the work of
/// four scalar evaluations in about one, and a `Lanes` value passes between functions in a
/// register (eight lanes were measured slower: 32-byte values go through memory whenever the
/// compiler keeps a stage out of line).
typealias Lanes = SIMD4<Float>
/// `Lanes`' bits, for the exponent arithmetic of `LaneMath`.
typealias LaneBits = SIMD4<Int32>

/// The elementary functions the Smart kernels need, on `Lanes`, without a libm call per lane.
///
/// Why hand-written: Glibc's `powf` is exact to an ulp but scalar (about 7 ns a call, a dozen
/// calls a pixel made it a quarter of a Smart render), and neither Foundation nor the Swift
/// standard library has a vector `pow`, `log2` or `exp2`. These are the textbook forms — the
/// exponent split off the float's bits, an odd series in t = (m − 1)/(m + 1) for the mantissa's
/// logarithm, a Taylor polynomial for 2^f on |f| ≤ ½ — carried far enough that the series add
/// nothing to the float rounding of p·log₂ x: `pow` is within 4·10⁻⁶ relative of Foundation's
/// (measured 2.9·10⁻⁶ at x = 10⁻⁶, p = 2.4; `LaneMathTests`), the sRGB curves within a
/// thousandth of an 8-bit code of `SRGBTransfer`'s.
enum LaneMath {
    /// log₂ x for x > 0 (normal floats); 0 and subnormals give a large negative value, which
    /// `exp2` turns back into 0.
    @inline(__always)
    static func log2(_ x: Lanes) -> Lanes {
        let bits = unsafeBitCast(Lanes.maximum(x, Lanes(repeating: .leastNormalMagnitude)), to: LaneBits.self)
        // m in [√½, √2): the series below converges fastest about 1.
        let offset = LaneBits(repeating: 0x3F35_04F3)   // the bits of √½
        let shifted = bits &- offset
        let exponent = shifted &>> 23
        let mantissa = unsafeBitCast((shifted & 0x007F_FFFF) &+ offset, to: Lanes.self)
        let t: Lanes = (mantissa - 1) / (mantissa + 1), t2: Lanes = t * t
        // 2/ln 2 · (t + t³/3 + t⁵/5 + t⁷/7 + t⁹/9); |t| ≤ 0.1716, the next term is under 4·10⁻¹⁰.
        var series: Lanes = t2 * 0.320_598_90 + 0.412_198_59
        series = series * t2 + 0.577_078_02
        series = series * t2 + 0.961_796_69
        series = series * t2 + 2.885_390_08
        series *= t
        return float(exponent) + series
    }

    /// 2^y; below −126 it is 0, above 127 it is capped at 2^127.
    @inline(__always)
    static func exp2(_ y: Lanes) -> Lanes {
        let clamped = y.clamped(-126, 127)
        // Adding 1.5·2²³ leaves the nearest integer in the low mantissa bits: n and its bits
        // without a conversion instruction (which the standard library does lane by lane).
        let big = clamped + magic
        let n: Lanes = big - magic, f: Lanes = (clamped - n) * 0.693_147_18   // f·ln 2, |f| ≤ 0.347
        let nBits = unsafeBitCast(big, to: LaneBits.self) &- unsafeBitCast(magic, to: LaneBits.self)
        // e^f to the f⁷ term: the next is under 6·10⁻⁹.
        var p: Lanes = f * (1.0 / 5040) + (1.0 / 720)
        p = p * f + (1.0 / 120)
        p = p * f + (1.0 / 24)
        p = p * f + (1.0 / 6)
        p = p * f + 0.5
        p = p * f + 1
        p = p * f + 1
        let scaled = unsafeBitCast(unsafeBitCast(p, to: LaneBits.self) &+ (nBits &<< 23), to: Lanes.self)
        return scaled.replacing(with: 0, where: y .< -126)
    }

    /// x^p for x ≥ 0 and p > 0 (0^p = 0).
    @inline(__always)
    static func pow(_ x: Lanes, _ p: Lanes) -> Lanes {
        exp2(p * log2(x)).replacing(with: 0, where: x .<= 0)
    }

    /// x^p with one power for every lane.
    @inline(__always)
    static func pow(_ x: Lanes, _ p: Float) -> Lanes { pow(x, Lanes(repeating: p)) }

    /// The sRGB curve of `SRGBTransfer.encode`, linear → encoded, odd-symmetric.
    @inline(__always)
    static func srgbEncode(_ x: Lanes) -> Lanes {
        let a = abs(x)
        let curve = 1.055 * pow(a, 1 / 2.4) - 0.055
        let e = curve.replacing(with: 12.92 * a, where: a .<= 0.003_130_8)
        return e.replacing(with: -e, where: x .< 0)
    }

    /// The sRGB curve of `SRGBTransfer.decode`, encoded → linear, odd-symmetric.
    @inline(__always)
    static func srgbDecode(_ v: Lanes) -> Lanes {
        let a = abs(v)
        let curve = pow((a + 0.055) * (1 / 1.055), 2.4)
        let d = curve.replacing(with: a * (1 / 12.92), where: a .<= 0.040_45)
        return d.replacing(with: -d, where: v .< 0)
    }

    @inline(__always)
    static func abs(_ x: Lanes) -> Lanes { Lanes.maximum(x, -x) }

    /// 1.5·2²³: a float whose units are the last mantissa bit. A computed constant, not a
    /// `static let`: a global of a SIMD type is made lazily, and each read in a kernel's loop was
    /// a call to `swift_once`, across which every vector register is spilled (with
    /// `LanePowerTable`'s bounds, two such calls a group of four pixels in SmartBlackAndWhite's
    /// IPT powers; docs/benchmark.md, tenth part).
    @inline(__always)
    private static var magic: Lanes { Lanes(repeating: 12_582_912) }

    /// The integers |e| < 2²² as floats: on x86-64 SSE2's conversion (one instruction, exact in
    /// that range), elsewhere by the same trick (the standard library converts lane by lane).
    @inline(__always)
    static func float(_ e: LaneBits) -> Lanes {
        #if arch(x86_64)
        _mm_cvtepi32_ps(unsafeBitCast(e, to: __m128i.self))
        #else
        unsafeBitCast(e &+ unsafeBitCast(magic, to: LaneBits.self), to: Lanes.self) - magic
        #endif
    }

    /// ⌊x⌋ of 0 ≤ x < 2²², which is its truncation: on x86-64 SSE2's truncating conversion (one
    /// instruction; it was five, a twentieth of the table read's, `TabulatedColourRun`),
    /// elsewhere the nearest integer by the same trick, less one where that is above x.
    @inline(__always)
    static func truncate(_ x: Lanes) -> LaneBits {
        #if arch(x86_64)
        unsafeBitCast(_mm_cvttps_epi32(x), to: LaneBits.self)
        #else
        let big = x + magic
        let nearest = unsafeBitCast(big, to: LaneBits.self) &- unsafeBitCast(magic, to: LaneBits.self)
        return nearest.replacing(with: nearest &- 1, where: big - magic .> x)
        #endif
    }
}

// The standard library's generic `pointwiseMin`, `clamped` and `squareRoot` on SIMD types run
// lane by lane through out-of-line calls in these kernels (measured: a third of a Smart render);
// these forms compile to one instruction per four lanes.
extension SIMD4 where Scalar == Float {
    /// Lane-wise minimum and maximum, as a select the compiler turns into `minps` / `maxps`.
    @inline(__always)
    static func minimum(_ a: Self, _ b: Self) -> Self { a.replacing(with: b, where: b .< a) }
    @inline(__always)
    static func maximum(_ a: Self, _ b: Self) -> Self { a.replacing(with: b, where: b .> a) }
    /// Clamped to [low, high].
    @inline(__always)
    func clamped(_ low: Float, _ high: Float) -> Self {
        Self.minimum(Self.maximum(self, Self(repeating: low)), Self(repeating: high))
    }
    /// Clamped to [0, 1].
    @inline(__always)
    var clamped01: Self { clamped(0, 1) }

    /// The square root of each lane. Shadows the standard library's generic one (a libm call a
    /// lane) for every `Lanes` in the module: IEEE square roots, so the same values.
    @inline(__always)
    func squareRoot() -> Self {
        #if arch(x86_64)
        _mm_sqrt_ps(self)
        #else
        var root = self
        for i in indices { root[i] = self[i].squareRoot() }
        return root
        #endif
    }
}

// The test of the space inline, the sRGB curves out of line. With the curves inlined these were
// too large to inline: the compiler called them, one call a channel in SmartColor's and
// SmartBlackAndWhite's loops even in the linear space, where they return their input, and every
// vector value live across a call went to memory and back (Tone + Color + B&W 0.90–0.94 of the
// CPU without the calls, the same bytes; docs/benchmark.md, thirteenth part).
extension WorkingSpace {
    /// `linear(_:)` on `Lanes`.
    @inline(__always)
    func linear(_ working: Lanes) -> Lanes { self == .linear ? working : Self.srgbDecoded(working) }

    /// `working(fromLinear:)` on `Lanes`.
    @inline(__always)
    func working(fromLinear linear: Lanes) -> Lanes { self == .linear ? linear : Self.srgbEncoded(linear) }

    /// `working(fromEncoded:)` on `Lanes`.
    @inline(__always)
    func working(fromEncoded encoded: Lanes) -> Lanes { self == .linear ? Self.srgbDecoded(encoded) : encoded }

    @inline(never)
    private static func srgbDecoded(_ v: Lanes) -> Lanes { LaneMath.srgbDecode(v) }

    @inline(never)
    private static func srgbEncoded(_ v: Lanes) -> Lanes { LaneMath.srgbEncode(v) }
}

/// A per-pixel colour kernel written once, on `Lanes` (four pixels at a time): a row runs as
/// chunks of planes (`RGBPlanes`), four pixels a step (the last step padded), and in the stored
/// frame's per-pixel tail as a chunk step, sharing its pass over the row with the chunk steps
/// next to it (`ChunkStep`); a single colour (the memo's) runs in every lane.
protocol LaneKernel: PixelKernel, ChunkStep {
    func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes)
}

extension LaneKernel {
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        var (lr, lg, lb) = (Lanes(repeating: r), Lanes(repeating: g), Lanes(repeating: b))
        apply(&lr, &lg, &lb)
        (r, g, b) = (lr[0], lg[0], lb[0])
    }

    func apply(row: UnsafeMutablePointer<Float>, count: Int) {
        RGBPlanes.forEachChunk(row: row, count: count) { chunk, _ in apply(chunk) }
    }

    func apply(_ chunk: RGBPlanes, x: Int, y: Int, imageSize: PixelSize) { apply(chunk) }

    /// The kernel on every group of a chunk: a loop of its own, with the kernel inlined.
    private func apply(_ chunk: RGBPlanes) {
        for i in 0..<chunk.groups {
            var (r, g, b) = (chunk.r[i], chunk.g[i], chunk.b[i])
            apply(&r, &g, &b)
            (chunk.r[i], chunk.g[i], chunk.b[i]) = (r, g, b)
        }
    }
}
