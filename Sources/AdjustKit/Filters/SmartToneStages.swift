import Foundation

/// SmartTone's stages (docs/spec/modern-adjustments.md §2.2, from modern-colour.md §7), in Float
/// on linear sRGB, in the order local light → smart shadows → high-key → levels → highlights →
/// contrast. Every stage works on x clamped to [0, 1] and adds the out-of-range remainder back
/// afterwards (so a value the levels push past 1 passes the later stages unchanged in its excess);
/// a stage whose parameter is 0 is skipped. m = mean(R, G, B), LUMA = (0.299, 0.587, 0.114).
///
/// The guard: whatever the law and the offsets ask for, each stage's parameter is held inside
/// the range where its curve on greys is monotone (`monotoneRange`), and the local curve's
/// k inside [−1, 1], so that no replay makes a tone curve that turns back.
struct SmartToneModel: Sendable {
    /// The ranges in which each stage's curve on greys never decreases (measured on a 4001-step
    /// grey ramp with scripts/research/forms7.py; the analytic bound of the contrast is γ ≤ 2,
    /// where the derivative at black reaches 0: c ≤ 2/3.4 ≈ 0.588). Outside them the forms turn
    /// back (highlights above 0.32 pull white below the greys under it; high-key below −0.91
    /// and contrast below −1.17 fold the mid-tones).
    static let monotoneRange = (brightness: -0.9...1.0, highlights: -1.8...0.3, contrast: -1.15...0.58)
    let localLight: Float, smartShadows: Float, brightness: Float
    /// Levels: whether they run, K/20 and 1/(2^(−2E) − K/20), E and K clamped to [−2, 2].
    let levels: Bool, blackOffset: Float, exposureScale: Float
    /// Highlights h (clamped to [−2, 2]): whether they run, the power 3 − 2·amt, the slopes
    /// 4 − 3·amt and 4 − 3·amt⁴, and the blend σ.
    let highlights: Bool, highlightPower: Float, highlightSlope: Float, highlightMeanSlope: Float, highlightBlend: Float
    /// γ = 3.4·contrast.
    let contrast: Float

    init(_ p: SmartToneParameters) {
        func clamp(_ x: Double, _ range: ClosedRange<Double>) -> Double { min(range.upperBound, max(range.lowerBound, x)) }
        let bounds = Self.monotoneRange
        (localLight, smartShadows) = (Float(p.localLight), Float(p.smartShadows))
        brightness = Float(clamp(p.brightness, bounds.brightness))
        let exposure = min(2, max(-2, p.exposure)), black = min(2, max(-2, p.black))
        levels = exposure != 0 || black != 0
        blackOffset = Float(black / 20)
        exposureScale = Float(1 / (pow(2, -2 * exposure) - black / 20))
        let h = clamp(p.highlights, bounds.highlights), e = exp(-h * h / 0.75)
        let amount = h > 0 ? 1.45 - 0.45 * e : 0.55 + 0.45 * e
        highlights = h != 0
        highlightPower = Float(3 - 2 * amount)
        highlightSlope = Float(4 - 3 * amount)
        highlightMeanSlope = Float(4 - 3 * pow(amount, 4))
        highlightBlend = Float(abs(h) < 0.6 ? 0.2 : 0.2 + 2 * (abs(h) - 0.6))
        contrast = Float(3.4 * clamp(p.contrast, bounds.contrast))
    }

    @inline(__always)
    private static func clamp01(_ x: Float) -> Float { min(1, max(0, x)) }

    /// Runs `stage` on x clamped to [0, 1] and adds back what the clamp took off.
    @inline(__always)
    private static func clamped(_ r: inout Float, _ g: inout Float, _ b: inout Float,
                                _ stage: (inout Float, inout Float, inout Float) -> Void) {
        var (cr, cg, cb) = (clamp01(r), clamp01(g), clamp01(b))
        let rest = (r - cr, g - cg, b - cb)
        stage(&cr, &cg, &cb)
        (r, g, b) = (cr + rest.0, cg + rest.1, cb + rest.2)
    }

    /// Local light and smart shadows, with the map's planes (b0, b1) at the pixel.
    @inline(__always)
    func local(_ r: inout Float, _ g: inout Float, _ b: inout Float, b0: Float, b1: Float) {
        let v = 3.4 * b0 - 1.2
        if localLight != 0 {
            // §7.5: y from the stage's input; the map's curve, then a local contrast about
            // P = max(b1, ½) in the square-root domain, its luma part mixed in at 0.8.
            Self.clamped(&r, &g, &b) { r, g, b in
                let y = ((r + g + b) * (1 / 3)).squareRoot()
                // x − k·x(1 − x) is monotone on [0, 1] exactly when |k| ≤ 1: the guard.
                let s = localLight * v
                let k = min(1, max(-1, s > 0 ? 1.5 * s : 1.75 * s)), kb = min(1, max(-1, s > 0 ? 1.5 * s : 1.55 * s))
                let qr = Self.clamp01(r - k * r * (1 - r)).squareRoot()
                let qg = Self.clamp01(g - k * g * (1 - g)).squareRoot()
                let qb = Self.clamp01(b - kb * b * (1 - b)).squareRoot()
                let a = min(localLight, 0.5) * y * (1 - y), pivot = max(b1, 0.5)
                let shared = 0.8 * a * (0.299 * qr + 0.587 * qg + 0.114 * qb - pivot) - 0.2 * a * pivot
                let own = 1 + 0.2 * a
                @inline(__always) func out(_ q: Float) -> Float { let n = max(q * own + shared, 0); return Self.clamp01(n * n) }
                (r, g, b) = (out(qr), out(qg), out(qb))
            }
        }
        // §7.1: only a positive shadows total reaches the map-guided lift; a negative one is a
        // plain shadow adjustment that is not modelled.
        if smartShadows > 0 {
            Self.clamped(&r, &g, &b) { r, g, b in
                let d = v < 0 ? v * v : 0
                let gainRG = smartShadows * (2.75 * d + 0.1), gainB = smartShadows * (2.5 * d + 0.1)
                @inline(__always) func lift(_ x: Float, _ gain: Float) -> Float {
                    let q = x.squareRoot()
                    let w = Self.clamp01(1 - q * 2.5)
                    let n = Self.clamp01(q + gain * w * w * q)
                    return n * n
                }
                (r, g, b) = (lift(r, gainRG), lift(g, gainRG), lift(b, gainB))
            }
        }
    }

    /// High-key, levels, highlights and contrast.
    @inline(__always)
    func global(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        if brightness != 0 { Self.clamped(&r, &g, &b, highKey) }
        if levels {
            Self.clamped(&r, &g, &b) { r, g, b in
                r = (r - blackOffset) * exposureScale; g = (g - blackOffset) * exposureScale; b = (b - blackOffset) * exposureScale
            }
        }
        if highlights { Self.clamped(&r, &g, &b, highlight) }
        if contrast != 0 { Self.clamped(&r, &g, &b, contrastStage) }
    }

    /// §7.2: toward the circle √(1 − (x − 1)²), each channel scaled with the pixel's mean, by √m
    /// (near-black pixels stay where they are).
    @inline(__always)
    private func highKey(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let m = (r + g + b) * (1 / 3)
        guard m > 0 else { return }
        let u = max(0, 1 - (m - 1) * (m - 1)).squareRoot()
        let lifted = 0.5 * u + 0.5 * u * u * (3 - 2 * u)
        let scale = lifted / m, pull = 0.7 * lifted.squareRoot(), weight = brightness * m.squareRoot()
        @inline(__always) func key(_ x: Float) -> Float {
            let a = max(0, 1 - (x - 1) * (x - 1)).squareRoot()
            let s = x * scale
            return x + weight * (s + pull * (a - s) - x)
        }
        (r, g, b) = (key(r), key(g), key(b))
    }

    /// §7.3: a per-channel power and a mean-driven part, pivoting at 0.8, weighted by m².
    @inline(__always)
    private func highlight(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let m = (r + g + b) * (1 / 3), w = m * m
        let meanPart = -m + 0.8 + highlightMeanSlope * (m - 0.8)
        @inline(__always) func lift(_ x: Float) -> Float {
            let p = powf(x, highlightPower)
            let h1 = 0.8 + highlightSlope * (p - 0.8), h2 = p + meanPart
            return x + w * (h2 + highlightBlend * (h1 - h2) - x)
        }
        (r, g, b) = (lift(r), lift(g), lift(b))
    }

    /// §7.4: an S-curve in the square-root domain about ½, driven per channel (A) and by the luma
    /// (P), the two mixed by 0.8 + σ (σ the pixel's spread about y).
    @inline(__always)
    private func contrastStage(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let y = ((r + g + b) * (1 / 3)).squareRoot(), w = contrast * y * (1 - y)
        let (qr, qg, qb) = (r.squareRoot(), g.squareRoot(), b.squareRoot())
        let spread = (r - y) * (r - y) + (g - y) * (g - y) + (b - y) * (b - y)
        let lumaPush = w * (qr * 0.299 + qg * 0.587 + qb * 0.114 - 0.5)
        let mix = 0.8 + spread
        @inline(__always) func out(_ q: Float) -> Float {
            let a = q + w * (q - 0.5), p = q + lumaPush
            let n = max(a + mix * (p - a), 0)
            return n * n
        }
        (r, g, b) = (out(qr), out(qg), out(qb))
    }
}
