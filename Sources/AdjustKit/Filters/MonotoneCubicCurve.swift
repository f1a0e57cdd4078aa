/// The monotone cubic Hermite interpolant of Fritsch and Carlson (1980) through points sorted by
/// x: it passes through every point, is C¹, and never overshoots — monotone wherever the data
/// are, flat at a local extremum of the data — so a curve drawn through a few points cannot
/// ring the way a natural spline does. Constant beyond the first and last point. Points with
/// the same x as an earlier one (within 1e-9) are dropped. Used for the modern curves and levels
/// adjustments, whose interpolation Apple does not publish.
struct MonotoneCubicCurve: Sendable {
    private let xs: [Double], ys: [Double], slopes: [Double]

    init(points: [(x: Double, y: Double)]) {
        var sorted: [(x: Double, y: Double)] = []
        for p in points.sorted(by: { $0.x < $1.x }) where sorted.last.map({ p.x - $0.x > 1e-9 }) ?? true {
            sorted.append(p)
        }
        xs = sorted.map(\.x); ys = sorted.map(\.y)
        let n = xs.count
        guard n >= 2 else { slopes = [Double](repeating: 0, count: n); return }
        var secants = [Double](repeating: 0, count: n - 1)
        for i in 0..<(n - 1) { secants[i] = (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) }
        var m = [Double](repeating: 0, count: n)
        m[0] = secants[0]; m[n - 1] = secants[n - 2]
        for i in 1..<(n - 1) {
            m[i] = secants[i - 1] * secants[i] <= 0 ? 0 : (secants[i - 1] + secants[i]) / 2
        }
        // Fritsch–Carlson: limit the tangents so that each piece stays monotone.
        for i in 0..<(n - 1) {
            if secants[i] == 0 { m[i] = 0; m[i + 1] = 0; continue }
            let a: Double = m[i] / secants[i], b: Double = m[i + 1] / secants[i]
            let s: Double = a * a + b * b
            if s > 9 {
                let t: Double = 3 / s.squareRoot()
                m[i] = t * a * secants[i]
                m[i + 1] = t * b * secants[i]
            }
        }
        slopes = m
    }

    /// True when every point lies on y = x within `tolerance` (the curve is the identity on
    /// [x₀, xₙ]; with x₀ = 0 and xₙ = 1, everywhere that matters).
    func isIdentity(tolerance: Double = 0.001) -> Bool {
        zip(xs, ys).allSatisfy { abs($0 - $1) < tolerance } && (xs.first ?? 0) <= tolerance
            && (xs.last ?? 1) >= 1 - tolerance
    }

    func value(at x: Double) -> Double {
        guard let first = xs.first, let last = xs.last else { return x }
        if x <= first { return ys[0] }
        if x >= last { return ys[ys.count - 1] }
        var i = 0
        while i + 1 < xs.count - 1, x > xs[i + 1] { i += 1 }
        let h = xs[i + 1] - xs[i], t = (x - xs[i]) / h
        let t2 = t * t, t3 = t2 * t
        return (2 * t3 - 3 * t2 + 1) * ys[i] + (t3 - 2 * t2 + t) * h * slopes[i]
            + (-2 * t3 + 3 * t2) * ys[i + 1] + (t3 - t2) * h * slopes[i + 1]
    }
}
