import CLaneStages
import Foundation

/// SmartTone's stages (docs/spec/modern-adjustments.md §2.2, from modern-colour.md §7), in Float
/// on linear sRGB, in the order local light → smart shadows → high-key → levels → highlights →
/// contrast. Every stage works on x clamped to [0, 1] and adds the out-of-range remainder back
/// afterwards (so a value the levels push past 1 passes the later stages unchanged in its excess);
/// a stage whose parameter is 0 is skipped. m = mean(R, G, B), LUMA = (0.299, 0.587, 0.114).
///
/// Local light, smart shadows, high-key and contrast, the stages whose square roots bind them, are
/// written in C (`Sources/CLaneStages`): eight pixels at a time with AVX2 where the processor has
/// it, four otherwise, the same bits either way (lane_stages.c says why); levels and highlights
/// are here.
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
        let (r, g, b, count) = Self.floats(chunk)
        let (m0, m1) = (UnsafeRawPointer(b0).assumingMemoryBound(to: Float.self),
                        UnsafeRawPointer(b1).assumingMemoryBound(to: Float.self))
        if localLight != 0 { adjust_local_light(r, g, b, m0, m1, count, localLight) }
        // §7.1: only a positive shadows total reaches the map-guided lift; a negative one is a
        // plain shadow adjustment that is not modelled.
        if smartShadows > 0 { adjust_shadow_lift(r, g, b, m0, count, smartShadows) }
    }

    /// High-key, levels, highlights and contrast on a chunk.
    func global(_ chunk: RGBPlanes) {
        let (r, g, b, count) = Self.floats(chunk)
        if brightness != 0 { adjust_high_key(r, g, b, count, brightness) }
        if levels { Self.run(Levels(model: self), on: chunk) }
        if highlights { Self.run(Highlights(model: self), on: chunk) }
        if contrast != 0 { adjust_contrast(r, g, b, count, contrast) }
    }

    /// A chunk's planes as the C stages take them: each group's four values in a row.
    @inline(__always)
    private static func floats(_ chunk: RGBPlanes) -> (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                                                        UnsafeMutablePointer<Float>, Int) {
        func plane(_ p: UnsafeMutablePointer<Lanes>) -> UnsafeMutablePointer<Float> {
            UnsafeMutableRawPointer(p).assumingMemoryBound(to: Float.self)
        }
        return (plane(chunk.r), plane(chunk.g), plane(chunk.b), chunk.groups * Lanes.scalarCount)
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

    // The per-channel part of the highlights. (A static method, not a local function: the
    // compiler keeps a local function out of line, and lane values then go through memory.)

    @inline(__always)
    private func highlightLift(_ x: Lanes, _ meanPart: Lanes, _ w: Lanes) -> Lanes {
        let p = LaneMath.pow(x, highlightPower)
        let h1 = 0.8 + highlightSlope * (p - 0.8), h2 = p + meanPart
        return x + w * (h2 + highlightBlend * (h1 - h2) - x)
    }
}
