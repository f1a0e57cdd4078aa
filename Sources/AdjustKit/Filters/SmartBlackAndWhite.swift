import Foundation

/// A modern Photos `SmartBlackAndWhite` adjustment (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §4, after modern-colour.md §4). Support **approximate**. The
/// adjustment always makes the picture grey, so there is no identity value (a read never returns
/// nil).
///
/// Per pixel, in linear sRGB (H = `inputBlackAndWhite` + `offsetHue` [I: the offset adds to the
/// hue], S = 0.5 + `offsetStrength`, clamped to 0…1):
/// 1. weights [V, closed form]: for R, G, B with c = (0.60167, 0.8663, 0.22284) and base =
///    (0.3, 0.6, 0.1): v_k = S·cos(2π(c_k − H)) + 1; γ_k = 3 − 2v_k if v_k ≤ 1, else
///    1 − 0.55·(v_k − 1); w_k = base_k^γ_k, normalised to sum 1 (H = 0.6521 → (0.394, 0.594, 0.012));
/// 2. grey: bw = clamp(w · rgb, 0, 1);
/// 3. a hue-dependent power (the spec's step 3; its wording leaves the sign, the pivot and the
///    fades open, and the literal reading measured worse than leaving the step out: 18 dB against
///    28 dB on D1D4040D). This file's reading, chosen among a handful on that render (40.2 dB
///    there, every 1 of 1 pixels), so **partly fitted**: the hue angle h and chroma C of an IPT
///    space (linear sRGB → XYZ → LMS, signed ^0.43, then P and T; h = atan2(T, P)/2π in [0, 1));
///    g = clamp(1 − S′·cos(2π(h − H′)), 0.45, 3) with H′ = 0.5·H + 0.35 wrapped into [0, 1) and
///    S′ = 0.8·S; the power applied at half strength and faded in with chroma,
///    e = 1 + 0.5·min(1, max(0, C − 0.002)/0.1)·(g − 1) (0.002: float noise on greys),
///    about the pivot 0.85: bw ← 0.85·(bw/0.85)^e.
/// 4. offsets (identities at 0 [V]; their forms [I], kept from the earlier approximation): on the
///    encoded grey v, `offsetNeutralGamma` n: v ← v^(2^(−0.8·n·(1 − sat))), sat = (max − min)/max
///    of the pixel's colour; `offsetTone` t: v ← v − 0.9·t·v(1 − v)(1 − 2v).
/// `offsetGrain` is read but grain is not rendered (the note says so when it is not 0);
/// `statistics` and `auto` are ignored.
public struct SmartBlackAndWhite: Equatable, Sendable {
    /// `inputBlackAndWhite`, the filter hue, −1…1.
    public var hue: Double
    public var offsetStrength: Double, offsetTone: Double, offsetNeutralGamma: Double, offsetGrain: Double, offsetHue: Double

    public init(hue: Double, offsetStrength: Double = 0, offsetTone: Double = 0, offsetNeutralGamma: Double = 0,
                offsetGrain: Double = 0, offsetHue: Double = 0) {
        (self.hue, self.offsetStrength, self.offsetTone) = (hue, offsetStrength, offsetTone)
        (self.offsetNeutralGamma, self.offsetGrain, self.offsetHue) = (offsetNeutralGamma, offsetGrain, offsetHue)
    }

    /// S = 0.5 + offsetStrength, in 0…1.
    var strength: Double { min(1, max(0, 0.5 + offsetStrength)) }

    /// The normalised linear-light mixing weights of step 1.
    var weights: (Double, Double, Double) {
        let h = hue + offsetHue, s = strength
        func weight(_ c: Double, _ base: Double) -> Double {
            let v = s * cos(2 * .pi * (c - h)) + 1
            return pow(base, v <= 1 ? 3 - 2 * v : 1 - 0.55 * (v - 1))
        }
        let w = (weight(0.60167, 0.3), weight(0.8663, 0.6), weight(0.22284, 0.1))
        let sum = w.0 + w.1 + w.2
        return (w.0 / sum, w.1 / sum, w.2 / sum)
    }

    /// H′ of step 3, in [0, 1).
    var powerHue: Double {
        let h = 0.5 * (hue + offsetHue) + 0.35
        return h - h.rounded(.down)
    }
}

extension SmartBlackAndWhite: ColourFilter, AAEAdjustmentFilter {
    public static let filterName = "SmartBlackAndWhite"
    public static let role = FilterRole.storedColour
    static let aaeIdentifier = "SmartBlackAndWhite"

    public var parameterValues: [(String, ParameterValue)] {
        [("Hue", .number(hue)), ("OffsetStrength", .number(offsetStrength)), ("OffsetTone", .number(offsetTone)),
         ("OffsetNeutralGamma", .number(offsetNeutralGamma)), ("OffsetGrain", .number(offsetGrain)),
         ("OffsetHue", .number(offsetHue))]
    }
    public func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free (grain, which would scale, is not rendered).
    public func rescaled(by factors: RescaleFactors) -> SmartBlackAndWhite { self }

    /// `inputBlackAndWhite` and each offset −1…1 (clamped; refused beyond ±3). Never nil.
    static func read(aae a: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> SmartBlackAndWhite? {
        SmartBlackAndWhite(hue: try a.slider("inputBlackAndWhite"), offsetStrength: try a.slider("offsetStrength"),
                           offsetTone: try a.slider("offsetTone"), offsetNeutralGamma: try a.slider("offsetNeutralGamma"),
                           offsetGrain: try a.slider("offsetGrain"), offsetHue: try a.slider("offsetHue"))
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        let w = weights
        let kernel = SmartBlackAndWhiteKernel(
            weights: (Float(w.0), Float(w.1), Float(w.2)), powerHue: Float(powerHue), powerAmount: Float(0.8 * strength),
            neutralGamma: Float(min(1, max(-1, offsetNeutralGamma))), tone: Float(min(1, max(-1, offsetTone))),
            space: options.workingSpace)
        let grain = abs(offsetGrain) >= 0.001 ? "; grain not rendered" : ""
        return .pointwise(kernel, approximation: "SmartBlackAndWhite (approximation: Apple's hue weights, a hue-dependent "
                              + "power read from the spec and partly fitted\(grain))")
    }
}

private struct SmartBlackAndWhiteKernel: PixelKernel {
    let weights: (Float, Float, Float)
    /// H′ and S′ of step 3.
    let powerHue: Float, powerAmount: Float
    let neutralGamma: Float, tone: Float
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let (lr, lg, lb) = (space.linear(r), space.linear(g), space.linear(b))
        var y = min(1, max(0, weights.0 * lr + weights.1 * lg + weights.2 * lb))
        if y > 0, powerAmount > 0 {
            let (hue, chroma) = Self.iptHue(lr, lg, lb)
            let power = min(3, max(0.45, 1 - powerAmount * cosf(2 * .pi * (hue - powerHue))))
            let e = 1 + 0.5 * min(1, max(0, chroma - 0.002) / 0.1) * (power - 1)
            y = min(1, 0.85 * powf(y / 0.85, e))
        }
        var v = min(1, max(0, SRGBTransfer.encode(y)))
        if neutralGamma != 0 {
            let high = max(lr, lg, lb), low = min(lr, lg, lb)
            let s = high > 0 ? min(1, max(0, (high - low) / high)) : 0
            v = powf(v, powf(2, -0.8 * neutralGamma * (1 - s)))
        }
        if tone != 0 { v -= 0.9 * tone * v * (1 - v) * (1 - 2 * v) }
        let grey = space.working(fromEncoded: v)
        (r, g, b) = (grey, grey, grey)
    }

    /// Hue in [0, 1) and chroma of IPT (linear sRGB → XYZ D65 → LMS, signed ^0.43 → P, T).
    static func iptHue(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float) {
        let x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
        func compress(_ v: Float) -> Float { v < 0 ? -powf(-v, 0.43) : powf(v, 0.43) }
        // D65 white gives L = M = S = 1 (to 10⁻⁴), so a neutral has P = T ≈ 0: no power on greys.
        let l = compress(0.4002 * x + 0.7075 * y - 0.0807 * z)
        let m = compress(-0.2280 * x + 1.1500 * y + 0.0612 * z)
        let s = compress(0.9184 * z)
        let p = 4.4550 * l - 4.8510 * m + 0.3960 * s, t = 0.8056 * l + 0.3572 * m - 1.1628 * s
        var hue = atan2f(t, p) / (2 * .pi)
        if hue < 0 { hue += 1 }
        return (hue, (p * p + t * t).squareRoot())
    }
}
