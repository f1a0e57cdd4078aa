/// The weights of an area resample along one axis, shared by the streamed shrink
/// (`StreamingAreaShrink`) and the tests' whole-image reference: output pixel i is the mean of the
/// input span [i·r, (i + 1)·r), r = inCount / outCount, each input pixel weighted by its overlap.
enum AreaWeights {
    /// For each of `outCount` pixels, the input pixels it covers and their share (summing to 1).
    static func weights(from inCount: Int, to outCount: Int) -> [[(Int, Float)]] {
        let ratio = Double(inCount) / Double(outCount)
        return (0..<outCount).map { i in
            let lo = Double(i) * ratio, hi = Double(i + 1) * ratio
            let first = Int(lo.rounded(.down)), last = min(inCount - 1, Int(hi.rounded(.up)) - 1)
            return (first...max(first, last)).compactMap { k in
                let overlap = min(hi, Double(k + 1)) - max(lo, Double(k))
                return overlap > 0 ? (k, Float(overlap / ratio)) : nil
            }
        }
    }
}
