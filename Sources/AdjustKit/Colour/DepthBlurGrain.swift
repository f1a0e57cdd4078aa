/// The fine luma grain Photos adds where its depth blur blurred (docs/spec/depth-effect.md §3):
/// σ ≈ 1.2 grey levels in the darkest tones, 0.8 at 20–40, ≈ 0.5 above; correlated over about a
/// pixel. Deterministic: a hash of the pixel's place, so a render is the same every time and
/// wherever its rows are computed.
enum DepthBlurGrain {
    /// The grain at (x, y) is (sums[x] + sums[x + 1]) / 2, with sums[x] the white noise of (x, y)
    /// and (x, y + 1): unit variance, the 2 × 2 pixels from (x, y) — neighbours share half of it
    /// (correlation 0.5 at 1 px, 0 at 2 px; Photos' is 0.65 at 1 px, ≈ 0 at 3 px). Fills `sums`
    /// for columns x… x + count − 1 of row y, from the noise of rows y (`upper`) and y + 1 (`lower`),
    /// each from `noiseRow`: rows taken in order compute each row's noise once, for two sums.
    static func columnSums(upper: UnsafePointer<Float>, lower: UnsafePointer<Float>, count: Int,
                           into sums: UnsafeMutablePointer<Float>) {
        for i in 0..<count { sums[i] = upper[i] + lower[i] }
    }

    /// The white noise of row y at columns x… x + count − 1 (`columnSums`): `white`, four columns
    /// at a time (the hash is integer arithmetic, the same in every lane), the last few one by one.
    static func noiseRow(y: Int, x: Int, count: Int, into row: UnsafeMutablePointer<Float>) {
        var i = 0
        let hy = SIMD4<UInt32>(repeating: UInt32(truncatingIfNeeded: y) &* 0x85EB_CA77)
        while i + 4 <= count {
            let columns = SIMD4<UInt32>(repeating: UInt32(truncatingIfNeeded: x + i)) &+ SIMD4(0, 1, 2, 3)
            var h = columns &* 0x9E37_79B1 ^ hy
            h ^= h &>> 15; h &*= 0x2C1B_3C6D; h ^= h &>> 12; h &*= 0x297A_2D39; h ^= h &>> 15
            // Float(h >> 8), under 2²⁴, exactly: its two halves (each under 2²² for
            // `LaneMath.float`; the standard library converts lane by lane) and their exact sum.
            let high = LaneMath.float(unsafeBitCast(h &>> 20, to: LaneBits.self))
            let low = LaneMath.float(unsafeBitCast((h &>> 8) & 0xFFF, to: LaneBits.self))
            let noise = ((high * 4096 + low) / 16_777_216 - 0.5) * 3.464_101_6
            UnsafeMutableRawPointer(row + i).storeBytes(of: noise, as: SIMD4<Float>.self)
            i += 4
        }
        while i < count {
            row[i] = white(x + i, y)
            i += 1
        }
    }

    /// σ in encoded units (levels / 255) for a pixel of linear luminance `luminance`: 1.2 levels at
    /// black falling to 0.5 at level 40 (level ≈ 255·√Y, near enough to the sRGB curve for a
    /// grain's amplitude).
    @inline(__always)
    static func sigma(luminance: Float) -> Float { sigma(root: max(0, luminance).squareRoot()) }

    /// `sigma` from √Y (the square root taken with the slopes': `slope(roots:)`): `sigma(roots:)`'s
    /// arithmetic in one lane.
    @inline(__always)
    static func sigma(root: Float) -> Float { sigma(roots: SIMD4(repeating: root))[0] }

    /// `sigma` from four roots √Y: (0.5 + 0.7·max(0, 1 − √Y·255/40))/255, the clamp as a pick
    /// (t where t ≥ 0, else 0), the one formula for a pixel and for four.
    @inline(__always)
    static func sigma(roots: SIMD4<Float>) -> SIMD4<Float> {
        let t = 1 - roots * (255 / 40)
        return (0.5 + 0.7 * SIMD4<Float>().replacing(with: t, where: t .>= 0)) * (1 / 255)
    }

    /// d(linear)/d(encoded) at linear value v, for adding an encoded-level grain in linear light:
    /// 2.2·√v (the curve as a 2.2 power read at e ≈ √v), at least the sRGB curve's toe (1/12.92).
    /// Given √v (of non-negative v), four at a time.
    @inline(__always)
    static func slope(roots: SIMD4<Float>) -> SIMD4<Float> {
        // `.replacing(with:where:)` rather than the generic `pointwiseMax`, which was not inlined.
        let slope = 2.2 * roots
        return slope.replacing(with: 1 / 12.92, where: slope .< 1 / 12.92)
    }

    /// Uniform white noise of unit variance at (x, y) (an integer hash: the same on every machine).
    @inline(__always)
    static func white(_ x: Int, _ y: Int) -> Float {
        var h = UInt32(truncatingIfNeeded: x) &* 0x9E37_79B1 ^ UInt32(truncatingIfNeeded: y) &* 0x85EB_CA77
        h ^= h >> 15; h &*= 0x2C1B_3C6D; h ^= h >> 12; h &*= 0x297A_2D39; h ^= h >> 15
        return (Float(h >> 8) / 16_777_216 - 0.5) * 3.464_101_6
    }
}
