/// The natural cubic spline (second derivative 0 at both ends) through points sorted by x;
/// constant beyond the first and last point. Points with the same x as an earlier one are
/// dropped (a spline cannot pass through both).
struct NaturalCubicSpline {
    private let xs: [Double], ys: [Double], secondDerivatives: [Double]

    init(points: [Point]) {
        var sorted: [Point] = []
        for p in points.sorted(by: { $0.x < $1.x }) where sorted.last.map({ p.x - $0.x > 1e-9 }) ?? true {
            sorted.append(p)
        }
        xs = sorted.map(\.x); ys = sorted.map(\.y)
        let n = xs.count
        var m = [Double](repeating: 0, count: n)
        if n > 2 {
            // Tridiagonal system for the interior second derivatives (Thomas algorithm).
            var diagonal = [Double](repeating: 0, count: n), rhs = [Double](repeating: 0, count: n)
            var upper = [Double](repeating: 0, count: n)
            for i in 1..<(n - 1) {
                let h0 = xs[i] - xs[i - 1], h1 = xs[i + 1] - xs[i]
                diagonal[i] = 2 * (h0 + h1)
                upper[i] = h1
                rhs[i] = 6 * ((ys[i + 1] - ys[i]) / h1 - (ys[i] - ys[i - 1]) / h0)
                if i > 1 {
                    let factor = h0 / diagonal[i - 1]
                    diagonal[i] -= factor * upper[i - 1]
                    rhs[i] -= factor * rhs[i - 1]
                }
            }
            for i in stride(from: n - 2, through: 1, by: -1) {
                m[i] = (rhs[i] - upper[i] * m[i + 1]) / diagonal[i]
            }
        }
        secondDerivatives = m
    }

    func value(at x: Double) -> Double {
        guard let first = xs.first, let last = xs.last else { return x }
        if x <= first { return ys[0] }
        if x >= last { return ys[ys.count - 1] }
        var i = 0
        while i + 1 < xs.count - 1, x > xs[i + 1] { i += 1 }
        let h = xs[i + 1] - xs[i]
        let a = (xs[i + 1] - x) / h, b = (x - xs[i]) / h
        return a * ys[i] + b * ys[i + 1]
            + ((a * a * a - a) * secondDerivatives[i] + (b * b * b - b) * secondDerivatives[i + 1]) * h * h / 6
    }
}
