/// CIToneCurve, filters.md §2 [exact for the analytic form]: per channel, u = E(v), a natural
/// cubic spline through the five points (flat outside [x0, x4]), clamped, then D — in both working
/// spaces (in `srgb` the curve therefore sees doubly-encoded values, as the seed's context did).
struct ToneCurveKernel: PixelKernel {
    /// f(v) = D(clamp(curve(E(v)))) sampled on [0, 1]. Exact to clamp v to [0, 1] first: E is
    /// monotone and the curve is flat beyond its end points, which lie in [0, 1].
    private let table: [Float]
    private static let intervals = 16_384

    /// nil for the identity (every |x_i − y_i| < 0.001).
    init?(_ curve: ToneCurve) {
        guard curve.points.contains(where: { abs($0.x - $0.y) >= 0.001 }) else { return nil }
        let spline = NaturalCubicSpline(points: curve.points)
        table = (0...Self.intervals).map { i in
            let u = SRGBTransfer.encode(Float(i) / Float(Self.intervals))
            return SRGBTransfer.decode(Float(min(1, max(0, spline.value(at: Double(u))))))
        }
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        r = lookup(r); g = lookup(g); b = lookup(b)
    }

    @inline(__always)
    private func lookup(_ v: Float) -> Float {
        let x = min(1, max(0, v)) * Float(Self.intervals)
        let i = min(Int(x), Self.intervals - 1)
        let f = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}

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
