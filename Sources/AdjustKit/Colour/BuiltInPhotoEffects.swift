/// Built-in stand-ins for the iOS 7 photo effects (filters.md §6).
///
/// Apple's lookup tables are not public, so these are documented approximations, not Apple's data:
/// each effect is a small pure function of sRGB-encoded (r, g, b) in [0, 1] that matches the
/// effect's published character (B&W, faded, warm, …). The builder samples it on a 33³ grid once
/// per effect (cached in a `static let`), and the renderer applies the cube like a user's `.cube`.
/// Every function keeps its output in [0, 1] and is non-decreasing along the grey axis, so tones
/// never invert; the B&W ones give r == g == b. A user-supplied `.cube` replaces any of them.
package enum BuiltInPhotoEffects {
    /// Grid points per axis of the built-in tables (N − 1 = 32, so grid coordinates are exact).
    static let gridSize = 33

    /// A documented approximation of `effect` as a 33³ cube, built procedurally once and cached.
    package static func cube(for effect: PhotoEffect) -> ColourCube {
        switch effect {
        case .chrome: return chromeCube
        case .fade: return fadeCube
        case .instant: return instantCube
        case .mono: return monoCube
        case .noir: return noirCube
        case .process: return processCube
        case .tonal: return tonalCube
        case .transfer: return transferCube
        }
    }

    /// One line, for `adjust inspect` and the README: what the approximation does.
    package static func summary(of effect: PhotoEffect) -> String {
        switch effect {
        case .chrome:
            return "approximation: saturation raised up to ×1.3 (most for dull colours) and an S-curve for more contrast"
        case .fade:
            return "approximation: saturation ×0.75, blacks lifted to 0.10 and whites lowered to 0.96"
        case .instant:
            return "approximation: saturation ×0.9, blacks lifted to 0.06, highlights warmed (more red, less blue)"
        case .mono:
            return "approximation: neutral B&W from Rec. 601 luminance with a gentle S-curve"
        case .noir:
            return "approximation: high-contrast B&W from Rec. 601 luminance, shadows below 0.10 crushed to black, strong S-curve"
        case .process:
            return "approximation: contrast ×0.88, greens and blues lifted, shadows cooled (more blue, less red)"
        case .tonal:
            return "approximation: flat B&W from Rec. 601 luminance, contrast ×0.82 (black 0.09, white 0.91)"
        case .transfer:
            return "approximation: saturation ×0.8, faded and warm (black 0.10/0.07/0.04, white 0.96/0.91/0.82)"
        }
    }

    // MARK: - Cached tables

    private static let chromeCube = build(chrome)
    private static let fadeCube = build(fade)
    private static let instantCube = build(instant)
    private static let monoCube = build(mono)
    private static let noirCube = build(noir)
    private static let processCube = build(process)
    private static let tonalCube = build(tonal)
    private static let transferCube = build(transfer)

    typealias Effect = (Float, Float, Float) -> (Float, Float, Float)

    /// Samples `effect` on the grid (see `ColourCube.sampling`).
    static func build(_ effect: Effect, size: Int = gridSize) -> ColourCube {
        ColourCube.sampling(size: size, effect)
    }

    // MARK: - The approximations (sRGB-encoded values in and out)

    /// Mono: neutral black and white. Luminance with Rec. 601 weights (the weights of the era's
    /// video/JPEG luma, no colour cast), then a gentle S-curve (k = 0.2) for a little snap.
    static func mono(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let y = sCurve(luma601(r, g, b), 0.2)
        return (y, y, y)
    }

    /// Tonal: flat, low-contrast black and white. Rec. 601 luminance pressed into 0.09…0.91
    /// (contrast ×0.82 about mid-grey): greys without deep blacks or bright whites.
    static func tonal(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let y = 0.09 + 0.82 * luma601(r, g, b)
        return (y, y, y)
    }

    /// Noir: dramatic black and white. Rec. 601 luminance with everything below 0.10 crushed to
    /// black and above 0.95 clipped to white, the rest stretched and given a strong S-curve (k = 0.8).
    static func noir(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let t = clamp01((luma601(r, g, b) - 0.10) / 0.85)
        let y = sCurve(t, 0.8)
        return (y, y, y)
    }

    /// Fade: a washed-out print. Saturation ×0.75 towards luminance, then each channel mapped to
    /// 0.10 + 0.86·c, which lifts the blacks and dims the whites slightly. Neutrals stay neutral.
    static func fade(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let (r, g, b) = saturate(r, g, b, by: 0.75)
        return (0.10 + 0.86 * r, 0.10 + 0.86 * g, 0.10 + 0.86 * b)
    }

    /// Chrome: punchier colour. Saturation raised by 1 + 0.3·(1 − s), where s = max − min of the
    /// input: dull colours gain up to 30 %, already vivid ones little (a vibrance-style boost that
    /// rarely clips and stays smooth), clamped to [0, 1]; then an S-curve (k = 0.35) per channel
    /// for contrast.
    static func chrome(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let spread = max(r, g, b) - min(r, g, b)
        let (r, g, b) = saturate(r, g, b, by: 1 + 0.3 * (1 - clamp01(spread)))
        return (sCurve(r, 0.35), sCurve(g, 0.35), sCurve(b, 0.35))
    }

    /// Process: a cool, cross-processed look. Contrast ×0.88 (channels into 0.05…0.93), greens
    /// and blues lifted in the midtones (c + a·c·(1−c), a = 0.15 / 0.25), and the shadows cooled by
    /// up to +0.05 blue and −0.03 red, weighted by (1 − luminance)².
    static func process(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let darkness = 1 - luma601(r, g, b)
        let shadow = darkness * darkness
        let rr = 0.05 + 0.88 * r - 0.03 * shadow
        let gg = 0.05 + 0.88 * lift(g, 0.15)
        let bb = 0.05 + 0.88 * lift(b, 0.25) + 0.05 * shadow
        return (clamp01(rr), clamp01(gg), clamp01(bb))
    }

    /// Transfer: a warm, faded transfer print. Saturation ×0.8, then per-channel ranges that lift
    /// the blacks and cast everything warm: red 0.10…0.96, green 0.07…0.91, blue 0.04…0.82.
    static func transfer(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let (r, g, b) = saturate(r, g, b, by: 0.8)
        return (0.10 + 0.86 * r, 0.07 + 0.84 * g, 0.04 + 0.78 * b)
    }

    /// Instant: an instant-film print. Saturation ×0.9, blacks lifted to 0.06 (0.06 + 0.94·c), and
    /// warm highlights: weighted by luminance², red pulled up to 4 % of the way to 1 and blue
    /// lowered by up to 8 %.
    static func instant(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let y = luma601(r, g, b)
        let highlight = y * y
        let (r, g, b) = saturate(r, g, b, by: 0.9)
        let rr = 0.06 + 0.94 * r, gg = 0.06 + 0.94 * g, bb = 0.06 + 0.94 * b
        return (clamp01(rr + 0.04 * highlight * (1 - rr)), clamp01(gg), clamp01(bb * (1 - 0.08 * highlight)))
    }

    // MARK: - Helpers

    /// Rec. 601 luma of encoded values.
    static func luma601(_ r: Float, _ g: Float, _ b: Float) -> Float {
        0.299 * r + 0.587 * g + 0.114 * b
    }

    /// [0, 1], NaN → 0.
    static func clamp01(_ x: Float) -> Float {
        x > 0 ? (x < 1 ? x : 1) : 0
    }

    /// Blends x towards smoothstep(x) = x²(3 − 2x) by k ∈ [0, 1]: an S-curve fixed at 0, ½ and 1,
    /// with slope 1 − k + 6k·x(1 − x) ≥ 0 (monotone).
    static func sCurve(_ x: Float, _ k: Float) -> Float {
        let x = clamp01(x)
        return x + k * (x * x * (3 - 2 * x) - x)
    }

    /// x + a·x(1 − x): raises the midtones, fixed at 0 and 1, monotone for a ≤ 1.
    static func lift(_ x: Float, _ a: Float) -> Float {
        x + a * x * (1 - x)
    }

    /// Scales each channel's distance from Rec. 601 luminance by `factor`, clamped to [0, 1].
    static func saturate(_ r: Float, _ g: Float, _ b: Float, by factor: Float) -> (Float, Float, Float) {
        let y = luma601(r, g, b)
        return (clamp01(y + factor * (r - y)), clamp01(y + factor * (g - y)), clamp01(y + factor * (b - y)))
    }
}
