/// Working value → 8-bit output code, exactly `WorkingSpace.byte` but without its `powf`: in the
/// linear space the code is the number of thresholds t₁ < … < t₂₅₅ at or below the value, where
/// tₖ is the smallest Float whose `byte` is k (found once by bisection over the Float bit
/// patterns, so the table agrees with `byte` on every Float, not just in theory). A 65 536-bucket
/// index over [0, 1] gives the code at each bucket's lower end; one comparison (rarely two)
/// finishes.
struct ByteQuantizer: Sendable {
    let space: WorkingSpace
    /// thresholds[k] for k in 1…255; thresholds[0] = -infinity; thresholds[256] = +infinity.
    private let thresholds: [Float]
    /// For each bucket [i/N, (i+1)/N): the code of its lower end.
    private let bucketStart: [UInt8]
    private static let buckets = 1 << 16

    /// Built once per process for each space, on first use (the thresholds take ~8 000 `powf`).
    static let linear = ByteQuantizer(space: .linear), srgb = ByteQuantizer(space: .srgb)
    static func shared(for space: WorkingSpace) -> ByteQuantizer { space == .linear ? linear : srgb }

    init(space: WorkingSpace) {
        self.space = space
        guard space == .linear else { (thresholds, bucketStart) = ([], []); return }
        var thresholds = [Float](repeating: -.infinity, count: 257)
        thresholds[256] = .infinity
        for k in 1...255 {
            // byte is non-decreasing on [0, 2]: bisect the bit patterns of positive floats.
            var lo = Float(0).bitPattern, hi = Float(2).bitPattern
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if Int(space.byte(Float(bitPattern: mid))) >= k { hi = mid } else { lo = mid + 1 }
            }
            thresholds[k] = Float(bitPattern: lo)
        }
        self.thresholds = thresholds
        // byte(i/N) is the number of thresholds at or below i/N (byte is non-decreasing): one
        // walk along both, where calling `byte` for each bucket took 65 536 `powf` at start-up.
        var code = 0
        bucketStart = (0..<Self.buckets).map { i in
            let value = Float(i) / Float(Self.buckets)
            while thresholds[code + 1] <= value { code += 1 }
            return UInt8(code)
        }
    }

    @inline(__always)
    func byte(_ value: Float) -> UInt8 {
        guard space == .linear else { return space.byte(value) }
        guard value > 0 else { return space.byte(value) }
        guard value < 1 else { return 255 }
        return bucketStart.withUnsafeBufferPointer { start in
            thresholds.withUnsafeBufferPointer { t in
                var code = Int(start[Int(value * Float(Self.buckets))])
                while value >= t[code + 1] { code += 1 }   // t[256] = ∞ stops it
                return UInt8(code)
            }
        }
    }
}
