import Foundation

/// A modern Photos `SmartBlackAndWhite` adjustment (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §4, after the research of scripts/research). Support **approximate**. The
/// adjustment always makes the picture grey, so there is no identity value (a read never returns
/// nil).
///
/// Per pixel, in linear sRGB (H = `inputBlackAndWhite` + `offsetHue` [I: the offset adds to the
/// hue], S = 0.5 + `offsetStrength`, clamped to 0…1):
/// 1. weights [V, closed form]: for R, G, B with c = (0.60167, 0.8663, 0.22284) and base =
///    (0.3, 0.6, 0.1): v_k = S·cos(2π(c_k − H)) + 1; γ_k = 3 − 2v_k if v_k ≤ 1, else
///    1 − 0.55·(v_k − 1); w_k = base_k^γ_k, normalised to sum 1 (H = 0.6521 → (0.394, 0.594, 0.012));
/// 2. grey: bw = clamp(w · rgb, 0, 1);
/// 3. hue and chroma of an IPT-like space [from the spec's text]: from clamp(x, 0, 1), XYZ =
///    M_sRGB→XYZ(D65)·x, LMS = [[0.4002, 0.7076, −0.0807], [−0.2280, 1.1500, 0.0612], [0, 0, 0.9184]]·XYZ,
///    L′ = sign·|LMS|^0.43, P = 4.4550 L′ − 4.8510 M′ + 0.3960 S′, T = 0.8056 L′ + 0.3572 M′ − 1.1628 S′;
///    hue = atan2(T, P)/2π, chroma = √(P² + T²);
/// 4. a hue-selective cubic contrast about the pivot P₀ [fitted: A = 0.84, C0 = 0.0975, P₀ = 0.647,
///    jointly on D1D4040D, IMG_3582's sharp region and the IMG_1994 chain; 44.4 dB on D1D4040D at
///    research]: H′ = (0.5·H + 0.35) mod 1, f = clamp(chroma/C0, 0, 1),
///    s = −A·(S/0.5)·cos(2π(hue − H′))·f, bw ← clamp(bw − s·bw(1 − bw)(P₀ − bw), 0, 1). Colours
///    opposite H′ darken below P₀ and brighten above; neutrals (f → 0) pass. The phase is [V] on
///    two photos of different hues; the rest of the hue dependence is [I];
/// 5. offsets (identities at 0 [V]; their forms [I], kept from the earlier approximation): on the
///    encoded grey v, `offsetNeutralGamma` n: v ← v^(2^(−0.8·n·(1 − sat))), sat = (max − min)/max
///    of the pixel's colour; `offsetTone` t: v ← v − 0.9·t·v(1 − v)(1 − 2v).
/// `offsetGrain` is read but grain is not rendered (the note says so when it is not 0);
/// `statistics` and `auto` are ignored.
package struct SmartBlackAndWhite: Equatable, Sendable {
    /// `inputBlackAndWhite`, the filter hue, −1…1.
    package var hue: Double
    package var offsetStrength: Double, offsetTone: Double, offsetNeutralGamma: Double, offsetGrain: Double, offsetHue: Double

    package init(hue: Double, offsetStrength: Double = 0, offsetTone: Double = 0, offsetNeutralGamma: Double = 0,
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

    /// H′ of step 4, in [0, 1).
    var powerHue: Double {
        let h = 0.5 * (hue + offsetHue) + 0.35
        return h - h.rounded(.down)
    }
}

extension SmartBlackAndWhite: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "SmartBlackAndWhite"
    static let aaeIdentifier = "SmartBlackAndWhite"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Hue", .number(hue)), ("OffsetStrength", .number(offsetStrength)), ("OffsetTone", .number(offsetTone)),
         ("OffsetNeutralGamma", .number(offsetNeutralGamma)), ("OffsetGrain", .number(offsetGrain)),
         ("OffsetHue", .number(offsetHue))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free (grain, which would scale, is not rendered).
    package func rescaled(by factors: RescaleFactors) -> SmartBlackAndWhite { self }

    /// `inputBlackAndWhite` and each offset −1…1 (clamped; refused beyond ±3). Never nil.
    static func read(aae a: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> SmartBlackAndWhite? {
        SmartBlackAndWhite(hue: try a.slider("inputBlackAndWhite"), offsetStrength: try a.slider("offsetStrength"),
                           offsetTone: try a.slider("offsetTone"), offsetNeutralGamma: try a.slider("offsetNeutralGamma"),
                           offsetGrain: try a.slider("offsetGrain"), offsetHue: try a.slider("offsetHue"))
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        let w = weights
        let phase = 2 * Double.pi * powerHue
        let kernel = SmartBlackAndWhiteKernel(
            weights: (Float(w.0), Float(w.1), Float(w.2)), phase: (Float(cos(phase)), Float(sin(phase))),
            amount: Float(Self.contrastAmount * strength / 0.5),
            neutralGamma: Float(min(1, max(-1, offsetNeutralGamma))), tone: Float(min(1, max(-1, offsetTone))),
            space: options.workingSpace)
        let grain = abs(offsetGrain) >= 0.001 ? "; grain not rendered" : ""
        return .pixel(kernel, approximation: "SmartBlackAndWhite (approximation: Apple's hue weights, then a "
                              + "hue-selective contrast with three fitted constants\(grain))")
    }

    /// Step 4's fitted constants: A, C0 and the pivot P₀.
    static let contrastAmount = 0.84, chromaRamp: Float = 0.0975, pivot: Float = 0.647
}

/// Steps 2–5 on linear light, a group of pixels at a time (`Lanes`).
private struct SmartBlackAndWhiteKernel: LaneKernel {
    let weights: (Float, Float, Float)
    /// (cos, sin) of 2π·H′.
    let phase: (Float, Float)
    /// A·S/0.5.
    let amount: Float
    let neutralGamma: Float, tone: Float
    let space: WorkingSpace
    /// x^0.43 of step 3, read from a table (within 2·10⁻⁶ of the exact power, as `LaneMath.pow`
    /// is within 4·10⁻⁶): the grey moves by under 10⁻⁵, so a code changes only where it sat on a
    /// rounding edge, and by one.
    private let iptPower = Self.iptPowerTable

    /// Step 5 writes one grey to all three channels (`apply`).
    var greyEffect: GreyEffect { .makesGrey }

    @inline(__always)
    func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes) {
        let (lr, lg, lb) = (space.linear(r), space.linear(g), space.linear(b))
        var y = (weights.0 * lr + weights.1 * lg + weights.2 * lb).clamped01
        if amount != 0 {
            let (p, t) = iptChroma(lr.clamped01, lg.clamped01, lb.clamped01)
            let chroma = (p * p + t * t).squareRoot()
            // cos(2π(hue − H′)) = (P·cos 2πH′ + T·sin 2πH′)/chroma.
            let f = Lanes.minimum(.one, chroma / SmartBlackAndWhite.chromaRamp)
            let s = -amount * f * (p * phase.0 + t * phase.1) / chroma
            let contrasted = (y - s * y * (1 - y) * (SmartBlackAndWhite.pivot - y)).clamped01
            y = contrasted.replacing(with: y, where: (y .<= 0) .| (y .>= 1) .| (chroma .<= 0))
        }
        let grey: Lanes
        if neutralGamma == 0, tone == 0, space == .linear {
            // Step 5 is the identity: the grey stays linear (encoding and decoding it back
            // changes it by float rounding only).
            grey = y
        } else {
            var v = LaneMath.srgbEncode(y).clamped01
            if neutralGamma != 0 {
                let high = Lanes.maximum(lr, Lanes.maximum(lg, lb)), low = Lanes.minimum(lr, Lanes.minimum(lg, lb))
                let s = ((high - low) / high).clamped01.replacing(with: 0, where: high .<= 0)
                v = LaneMath.pow(v, LaneMath.exp2(-0.8 * neutralGamma * (1 - s)))
            }
            if tone != 0 { v -= 0.9 * tone * v * (1 - v) * (1 - 2 * v) }
            grey = space.working(fromEncoded: v)
        }
        (r, g, b) = (grey, grey, grey)
    }

    /// P and T of the IPT-like space of step 3, from linear sRGB in [0, 1] (the LMS matrix is
    /// XYZ→LMS times sRGB→XYZ, from the sRGB primaries and D65).
    @inline(__always)
    func iptChroma(_ r: Lanes, _ g: Lanes, _ b: Lanes) -> (Lanes, Lanes) {
        // The inputs are in [0, 1] and the matrix's rows are positive: no negative values to compress.
        let l = iptPower(0.3139421614 * r + 0.6395395910 * g + 0.0466037492 * b)
        let m = iptPower(0.1516928006 * r + 0.7482094717 * g + 0.1000441106 * b)
        let s = iptPower(0.0177534239 * r + 0.1094684858 * g + 0.8729687286 * b)
        return (4.4550 * l - 4.8510 * m + 0.3960 * s, 0.8056 * l + 0.3572 * m - 1.1628 * s)
    }

    /// Built once per process; each kernel holds it (a static read in the loop costs a
    /// once-check a call).
    private static let iptPowerTable = LanePowerTable(power: 0.43)
}
