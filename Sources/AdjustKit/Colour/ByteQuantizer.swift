/// Working value → 8-bit output code, exactly `WorkingSpace.byte` but without its `powf`: in the
/// linear space the code is the number of thresholds t₁ < … < t₂₅₅ at or below the value, where
/// tₖ is the smallest Float whose `byte` is k (found once by a search over the Float bit patterns
/// that asks `byte` itself, so the table agrees with `byte` on every Float, not just in theory;
/// it starts from the curve's inverse at the code's lower edge, a few ULPs from tₖ). An index of
/// buckets over (0, 1) gives the code at each bucket's lower end; one comparison with the next
/// threshold finishes.
///
/// The buckets are the Floats sharing their top 16 bits (exponent and 7 bits of mantissa): each
/// spans under 0.8 % of its value, narrower than the gap between two thresholds anywhere in
/// (0, 1) (≥ 0.9 %, at the top; `init` checks it), so a bucket holds at most one threshold and
/// the comparison is one, without a branch to mispredict. The index is 16 KB, which stays in the
/// first-level cache beside the sampler's rows. (Equal-width buckets of 1/65 536 took 64 KB, and
/// a straighten's quantizing waited on them.)
struct ByteQuantizer: Sendable {
    let space: WorkingSpace
    /// thresholds[k] for k in 1…255; thresholds[0] = −∞; thresholds[256] = NaN, which no value
    /// reaches (`Bound.code`).
    private let thresholds: [Float]
    /// For each bucket (the Floats whose bit pattern >> 16 is i): the code of its lowest Float.
    private let bucketStart: [UInt8]
    private static let bucketShift: UInt32 = 16
    /// Buckets up to 1.0's, inclusive (the last is where `Bound.code` puts every value ≥ 1).
    private static let lastBucket = Int32(Float(1).bitPattern >> bucketShift)
    /// The index goes on to 2.0's bucket (each past 1.0's codes 255, like it), so that a value in
    /// [+0, 2) reaches its bucket unclamped (`Bound.code(unitBlend:)`). Only the first of those
    /// 16 KB is ever read, by blends a rounding above 1.
    private static let buckets = Int(Float(2).bitPattern >> bucketShift) + 1

    /// Built once per process for each space, on first use (the thresholds take ~8 000 `powf`).
    static let linear = ByteQuantizer(space: .linear), srgb = ByteQuantizer(space: .srgb)
    static func shared(for space: WorkingSpace) -> ByteQuantizer { space == .linear ? linear : srgb }

    init(space: WorkingSpace) {
        self.space = space
        guard space == .linear else { (thresholds, bucketStart) = ([], []); return }
        var thresholds = [Float](repeating: -.infinity, count: 257)
        thresholds[256] = .nan
        for k in 1...255 { thresholds[k] = Self.threshold(k, space: space) }
        self.thresholds = thresholds
        // The code of a bucket's lowest Float is the number of thresholds at or below it (byte
        // is non-decreasing): one walk along both, without a `powf` a bucket.
        var code = 0
        bucketStart = (0..<Self.buckets).map { i in
            let lowest = Float(bitPattern: UInt32(i) << Self.bucketShift)
            while thresholds[code + 1] <= lowest { code += 1 }
            // At most one more threshold inside the bucket: `code` then needs one comparison.
            let highest = Float(bitPattern: (UInt32(i) << Self.bucketShift) | ((1 << Self.bucketShift) - 1))
            precondition(code + 2 >= 256 || thresholds[code + 2] > highest, "two thresholds in one quantizer bucket")
            return UInt8(code)
        }
    }

    /// tₖ: the smallest Float in [0, 2] whose `byte` is at least `k` (1…255). `byte` is
    /// non-decreasing there, so the bit patterns of the Floats from +0 up are searched: from the
    /// inverse curve's value at (k − ½)/255, outward in doubling steps until the two sides of tₖ
    /// are bracketed, then by halves. About four `powf` a code where a bisection of all of
    /// [0, 2] took 31: the process's first render built the table on its one thread before
    /// decoding, and 8 000 `powf` were 0.2 ms of that (docs/benchmark.md, twenty-sixth part).
    static func threshold(_ k: Int, space: WorkingSpace) -> Float {
        let reaches = { (bits: UInt32) in Int(space.byte(Float(bitPattern: bits))) >= k }
        let (floor, ceiling) = (Float(0).bitPattern, Float(2).bitPattern)  // byte(0) = 0, byte(2) = 255
        let guess = min(max(space.working(fromEncoded: (Float(k) - 0.5) / 255), 0), 2).bitPattern
        // below < tₖ ≤ above, as bit patterns.
        var (below, above) = (guess, guess)
        var step: UInt32 = 1
        if reaches(guess) {
            repeat {
                above = below
                below = below > floor + step ? below - step : floor
                step *= 2
            } while below > floor && reaches(below)
        } else {
            repeat {
                below = above
                above = min(above + step, ceiling)
                step *= 2
            } while !reaches(above)
        }
        while above - below > 1 {
            let middle = below + (above - below) / 2
            if reaches(middle) { above = middle } else { below = middle }
        }
        return Float(bitPattern: above)
    }

    @inline(__always)
    func byte(_ value: Float) -> UInt8 { withBound { $0.code(value) } }

    /// Runs `body` with the tables bound: a renderer's loop codes every channel of a row through
    /// one `Bound`, where calling `byte` through a closure cost a call and two array accesses a
    /// channel (a quarter of a straighten's CPU).
    func withBound<R>(_ body: (Bound) -> R) -> R {
        bucketStart.withUnsafeBufferPointer { start in
            thresholds.withUnsafeBufferPointer { t in body(Bound(linear: space == .linear, start: start, thresholds: t)) }
        }
    }

    /// The quantizer with its tables bound (valid inside `withBound`).
    struct Bound {
        let linear: Bool
        let start: UnsafeBufferPointer<UInt8>, thresholds: UnsafeBufferPointer<Float>

        /// `WorkingSpace.byte` of `value`, for every Float, without a branch in the linear
        /// space. The bit pattern read as signed picks the bucket: a negative value (−0, −∞ and
        /// negative NaNs too) falls below bucket 0 and is clamped to it, where the code is 0 and
        /// no threshold is at or below the value; a value ≥ 1 (+∞ and positive NaNs too) is
        /// clamped to 1.0's bucket, whose code is 255 and whose next threshold, t₂₅₆, is NaN,
        /// which nothing reaches. A NaN's code is 0, as `byte`'s.
        @inline(__always)
        func code(_ value: Float) -> UInt8 {
            guard linear else { return WorkingSpace.srgb.byte(value) }
            return value.isNaN ? 0 : code(finite: value)
        }

        /// `code` of a finite value in the linear space, without its two selections (the space
        /// and NaN); the bucket index clamped, so that any finite value reads inside it.
        @inline(__always)
        func code(finite value: Float) -> UInt8 {
            code(value, bucket: Int(min(max(Int32(bitPattern: value.bitPattern) >> Int32(bucketShift), 0), lastBucket)))
        }

        /// `code` of a value in [+0, 2), which a bilinear blend of texels in [0, 1] is (weights
        /// ≥ 0 whose sum rounds to about 1): the bucket is the bit pattern's top bits as they
        /// are, without `code(finite:)`'s two clamps, which were a third of a straighten's
        /// quantizing instructions. Any other value reads outside the index.
        @inline(__always)
        func code(unitBlend value: Float) -> UInt8 { code(value, bucket: Int(value.bitPattern >> bucketShift)) }

        /// `code` of each of four values, the same code lane by lane: the bucket, the comparison
        /// and the NaN's 0 as vectors, the two table reads a lane each. A pixel copy through the
        /// Smart models coded its rows a channel at a time, with a branch each for the NaN, and that
        /// was 6–7 % of a render's samples (docs/benchmark.md, seventeenth part).
        @inline(__always)
        func codes(_ values: Lanes) -> LaneBits {
            guard linear else {
                // `WorkingSpace.byte(encoded:)`: ⌊v·255 + ½⌋, 0 below 1 (NaN too), 255 from 255 on.
                let x = values * 255 + 0.5
                return LaneMath.truncate(Lanes.minimum(x.replacing(with: 0, where: .!(x .>= 1)), Lanes(repeating: 255)))
            }
            let bits = unsafeBitCast(values, to: LaneBits.self) &>> Int32(bucketShift)
            let bucket = bits.clamped(lowerBound: LaneBits(repeating: 0), upperBound: LaneBits(repeating: lastBucket))
            var (lowest, threshold) = (LaneBits(), Lanes())
            for lane in 0..<Lanes.scalarCount {
                lowest[lane] = Int32(start[Int(bucket[lane])])
                threshold[lane] = thresholds[Int(lowest[lane]) &+ 1]
            }
            let reached = LaneBits(repeating: 0).replacing(with: 1, where: values .>= threshold)
            return (lowest &+ reached).replacing(with: 0, where: values .!= values)
        }

        /// Four pixels' channels as RGBA8 at `o` (16 bytes), each channel's `code`, black where
        /// the pixel's alpha is 0, as the pixel copy writes a pixel; a group of greys (a
        /// SmartBlackAndWhite chain's every pixel) coded once. The four bytes of a pixel are one
        /// `UInt32`, red the lowest: little-endian, as every platform adjust builds for is.
        @inline(__always)
        func store(_ r: Lanes, _ g: Lanes, _ b: Lanes, alphas: SIMD4<UInt8>, into o: UnsafeMutableRawPointer) {
            let red = SIMD4<UInt32>(truncatingIfNeeded: codes(r))
            let grey = all((r .== g) .& (g .== b))
            let green = grey ? red : SIMD4<UInt32>(truncatingIfNeeded: codes(g))
            let blue = grey ? red : SIMD4<UInt32>(truncatingIfNeeded: codes(b))
            let alpha = SIMD4<UInt32>(truncatingIfNeeded: alphas)
            let colour = (red | green &<< 8 | blue &<< 16).replacing(with: 0, where: alpha .== 0)
            o.storeBytes(of: colour | alpha &<< 24, as: SIMD4<UInt32>.self)
        }

        /// One pixel as RGBA8 at `o`, as `store` writes each of its four.
        @inline(__always)
        func store(_ r: Float, _ g: Float, _ b: Float, alpha: UInt8, into o: UnsafeMutablePointer<UInt8>) {
            if alpha == 0 { (o[0], o[1], o[2]) = (0, 0, 0) } else { (o[0], o[1], o[2]) = (code(r), code(g), code(b)) }
            o[3] = alpha
        }

        /// The code of `value` in its bucket: the bucket's lowest code, plus one where the value
        /// has reached the one threshold the bucket may hold.
        @inline(__always)
        private func code(_ value: Float, bucket: Int) -> UInt8 {
            var code = Int(start[bucket])
            code &+= Self.step(value, thresholds[code &+ 1])
            return UInt8(truncatingIfNeeded: code)
        }

        /// 1 where `value` has reached `threshold`, else 0, as a value rather than a branch: the
        /// branch went the other way on about one channel in ten, and its mispredictions were
        /// a tenth of a straighten's sampling time.
        @inline(__always)
        private static func step(_ value: Float, _ threshold: Float) -> Int {
            Int(unsafeBitCast(value >= threshold, to: UInt8.self))
        }

    }
}
