/// The normalized cross-correlation of two same-size images' grey levels (luma, Rec. 601
/// weights on the 8-bit values): Σ(a − ā)(b − b̄) / √(Σ(a − ā)² Σ(b − b̄)²), 1 when one is an
/// exact brightening and contrast change of the other, near 0 when they are unrelated.
/// Insensitive to colour, brightness and contrast: `adjust fidelity` uses it to tell a geometry
/// that matches (≥ 0.999 on a crop or flip replayed right) from one that does not, whatever the
/// colour approximations do.
package enum GreyCorrelation {
    /// nil when the sizes differ, or when either image is a single grey level throughout.
    package static func ncc(_ a: RGBA8Image, _ b: RGBA8Image) -> Double? {
        guard a.size == b.size, a.size.pixelCount > 0 else { return nil }
        var sumA = 0.0, sumB = 0.0, sumAA = 0.0, sumBB = 0.0, sumAB = 0.0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for i in 0..<a.size.pixelCount {
                    let p = i * 4
                    let ga = 0.299 * Double(pa[p]) + 0.587 * Double(pa[p + 1]) + 0.114 * Double(pa[p + 2])
                    let gb = 0.299 * Double(pb[p]) + 0.587 * Double(pb[p + 1]) + 0.114 * Double(pb[p + 2])
                    sumA += ga; sumB += gb
                    sumAA += ga * ga; sumBB += gb * gb; sumAB += ga * gb
                }
            }
        }
        let n = Double(a.size.pixelCount)
        let covariance = sumAB - sumA * sumB / n
        let varianceA = sumAA - sumA * sumA / n, varianceB = sumBB - sumB * sumB / n
        guard varianceA > 1e-9 * n, varianceB > 1e-9 * n else { return nil }
        return max(-1, min(1, covariance / (varianceA * varianceB).squareRoot()))
    }
}
