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

    /// A pixel clamped to [0, 1] for a stage, and what the clamp took off, added back after it.
    /// (A struct, not a closure around the stage: the compiler keeps a closure out of line, and
    /// lane values then go through memory.)
    private struct Clamped {
        var r: Lanes, g: Lanes, b: Lanes
        let rest: (Lanes, Lanes, Lanes)

        @inline(__always)
        init(_ r: Lanes, _ g: Lanes, _ b: Lanes) {
            (self.r, self.g, self.b) = (r.clamped01, g.clamped01, b.clamped01)
            rest = (r - self.r, g - self.g, b - self.b)
        }

        @inline(__always)
        func restore(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes) {
            (r, g, b) = (self.r + rest.0, self.g + rest.1, self.b + rest.2)
        }
    }

    /// Whether `local` changes anything: a stage that reads the light map runs.
    var hasLocalStages: Bool { localLight != 0 || smartShadows > 0 }

    /// Local light and smart shadows on a chunk, with the map's planes (b0, b1) at each group.
    func local(_ chunk: RGBPlanes, b0: UnsafePointer<Lanes>, b1: UnsafePointer<Lanes>) {
        if localLight != 0 { Self.run(LocalLight(model: self, b0: b0, b1: b1), on: chunk) }
        // §7.1: only a positive shadows total reaches the map-guided lift; a negative one is a
        // plain shadow adjustment that is not modelled.
        if smartShadows > 0 { Self.run(ShadowLift(model: self, b0: b0), on: chunk) }
    }

    /// High-key, levels, highlights and contrast on a chunk.
    func global(_ chunk: RGBPlanes) {
        if brightness != 0 { Self.run(HighKey(model: self), on: chunk) }
        if levels { Self.run(Levels(model: self), on: chunk) }
        if highlights { Self.run(Highlights(model: self), on: chunk) }
        if contrast != 0 { Self.run(Contrast(model: self), on: chunk) }
    }

    /// One stage, on a group's values clamped to [0, 1] (`run` adds the rest back).
    private protocol Stage {
        func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes, group: Int)
    }

    /// `stage` on every group of `chunk`: a loop of its own for each stage (generic, so that each
    /// gets its own copy with the stage inlined; see `RGBPlanes`).
    @inline(never)
    private static func run<S: Stage>(_ stage: S, on chunk: RGBPlanes) {
        for i in 0..<chunk.groups {
            var c = Clamped(chunk.r[i], chunk.g[i], chunk.b[i])
            stage.apply(&c.r, &c.g, &c.b, group: i)
            var (r, g, b) = (Lanes(), Lanes(), Lanes())
            c.restore(&r, &g, &b)
            (chunk.r[i], chunk.g[i], chunk.b[i]) = (r, g, b)
        }
    }

    /// §7.5: y from the stage's input; the map's curve, then a local contrast about
    /// P = max(b1, ½) in the square-root domain, its luma part mixed in at 0.8.
    private struct LocalLight: Stage {
        let model: SmartToneModel, b0: UnsafePointer<Lanes>, b1: UnsafePointer<Lanes>
        @inline(__always)
        func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes, group: Int) {
            let localLight = model.localLight, v = 3.4 * b0[group] - 1.2
            let y = ((r + g + b) * (1 / 3)).squareRoot()
            // x − k·x(1 − x) is monotone on [0, 1] exactly when |k| ≤ 1: the guard.
            let s = localLight * v, positive = s .> 0
            let k = (s * Lanes(repeating: 1.75).replacing(with: 1.5, where: positive)).clamped(-1, 1)
            let kb = (s * Lanes(repeating: 1.55).replacing(with: 1.5, where: positive)).clamped(-1, 1)
            let qr = (r - k * r * (1 - r)).clamped01.squareRoot()
            let qg = (g - k * g * (1 - g)).clamped01.squareRoot()
            let qb = (b - kb * b * (1 - b)).clamped01.squareRoot()
            let a = min(localLight, 0.5) * y * (1 - y), pivot = Lanes.maximum(b1[group], Lanes(repeating: 0.5))
            let shared = 0.8 * a * (0.299 * qr + 0.587 * qg + 0.114 * qb - pivot) - 0.2 * a * pivot
            let own = 1 + 0.2 * a
            (r, g, b) = (SmartToneModel.localOut(qr, own, shared), SmartToneModel.localOut(qg, own, shared),
                         SmartToneModel.localOut(qb, own, shared))
        }
    }

    /// §7.1: the map-guided lift of the shadows.
    private struct ShadowLift: Stage {
        let model: SmartToneModel, b0: UnsafePointer<Lanes>
        @inline(__always)
        func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes, group: Int) {
            let smartShadows = model.smartShadows, v = 3.4 * b0[group] - 1.2
            let d = (v * v).replacing(with: 0, where: v .>= 0)
            let gainRG = smartShadows * (2.75 * d + 0.1), gainB = smartShadows * (2.5 * d + 0.1)
            (r, g, b) = (SmartToneModel.shadowLift(r, gainRG), SmartToneModel.shadowLift(g, gainRG),
                         SmartToneModel.shadowLift(b, gainB))
        }
    }

    /// §7.2: toward the circle √(1 − (x − 1)²), each channel scaled with the pixel's mean, by √m
    /// (near-black pixels stay where they are).
    private struct HighKey: Stage {
        let model: SmartToneModel
        @inline(__always)
        func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes, group: Int) {
            let m = (r + g + b) * (1 / 3), black = m .<= 0
            let u = Lanes.maximum(.zero, 1 - (m - 1) * (m - 1)).squareRoot()
            let lifted = 0.5 * u + 0.5 * u * u * (3 - 2 * u)
            let scale = lifted / m, pull = 0.7 * lifted.squareRoot(), weight = model.brightness * m.squareRoot()
            (r, g, b) = (SmartToneModel.key(r, scale, pull, weight, black), SmartToneModel.key(g, scale, pull, weight, black),
                         SmartToneModel.key(b, scale, pull, weight, black))
        }
    }

    private struct Levels: Stage {
        let model: SmartToneModel
        @inline(__always)
        func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes, group: Int) {
            let (black, scale) = (model.blackOffset, model.exposureScale)
            (r, g, b) = ((r - black) * scale, (g - black) * scale, (b - black) * scale)
        }
    }

    /// §7.3: a per-channel power and a mean-driven part, pivoting at 0.8, weighted by m².
    private struct Highlights: Stage {
        let model: SmartToneModel
        @inline(__always)
        func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes, group: Int) {
            let m = (r + g + b) * (1 / 3), w = m * m
            let meanPart = -m + 0.8 + model.highlightMeanSlope * (m - 0.8)
            (r, g, b) = (model.highlightLift(r, meanPart, w), model.highlightLift(g, meanPart, w),
                         model.highlightLift(b, meanPart, w))
        }
    }

    /// §7.4: an S-curve in the square-root domain about ½, driven per channel (A) and by the luma
    /// (P), the two mixed by 0.8 + σ (σ the pixel's spread about y).
    private struct Contrast: Stage {
        let model: SmartToneModel
        @inline(__always)
        func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes, group: Int) {
            let y = ((r + g + b) * (1 / 3)).squareRoot(), w = model.contrast * y * (1 - y)
            let (qr, qg, qb) = (r.squareRoot(), g.squareRoot(), b.squareRoot())
            let spread = (r - y) * (r - y) + (g - y) * (g - y) + (b - y) * (b - y)
            let lumaPush = w * (qr * 0.299 + qg * 0.587 + qb * 0.114 - 0.5)
            let mix = 0.8 + spread
            (r, g, b) = (SmartToneModel.contrastOut(qr, w, lumaPush, mix), SmartToneModel.contrastOut(qg, w, lumaPush, mix),
                         SmartToneModel.contrastOut(qb, w, lumaPush, mix))
        }
    }

    // The per-channel parts of the stages. (Static methods, not local functions: the compiler
    // keeps a local function out of line, and lane values then go through memory.)

    @inline(__always)
    private static func localOut(_ q: Lanes, _ own: Lanes, _ shared: Lanes) -> Lanes {
        let n = Lanes.maximum(q * own + shared, .zero)
        return (n * n).clamped01
    }

    @inline(__always)
    private static func shadowLift(_ x: Lanes, _ gain: Lanes) -> Lanes {
        let q = x.squareRoot()
        let w = (1 - q * 2.5).clamped01
        let n = (q + gain * w * w * q).clamped01
        return n * n
    }

    @inline(__always)
    private static func key(_ x: Lanes, _ scale: Lanes, _ pull: Lanes, _ weight: Lanes,
                            _ black: SIMDMask<LaneBits>) -> Lanes {
        let a = Lanes.maximum(.zero, 1 - (x - 1) * (x - 1)).squareRoot()
        let s = x * scale
        return (x + weight * (s + pull * (a - s) - x)).replacing(with: x, where: black)
    }

    @inline(__always)
    private func highlightLift(_ x: Lanes, _ meanPart: Lanes, _ w: Lanes) -> Lanes {
        let p = LaneMath.pow(x, highlightPower)
        let h1 = 0.8 + highlightSlope * (p - 0.8), h2 = p + meanPart
        return x + w * (h2 + highlightBlend * (h1 - h2) - x)
    }

    @inline(__always)
    private static func contrastOut(_ q: Lanes, _ w: Lanes, _ lumaPush: Lanes, _ mix: Lanes) -> Lanes {
        let a = q + w * (q - 0.5), p = q + lumaPush
        let n = Lanes.maximum(a + mix * (p - a), .zero)
        return n * n
    }
}
