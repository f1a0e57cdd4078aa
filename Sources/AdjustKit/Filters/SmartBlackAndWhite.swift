import Foundation

/// A modern Photos `SmartBlackAndWhite` adjustment (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §4). Support **approximate**: Apple's mix is private. The
/// adjustment always makes the picture grey, so there is no identity value (a read never
/// returns nil).
///
/// The approximation, per pixel (h = `inputBlackAndWhite` + `offsetHue`, s = 0.5 +
/// `offsetStrength` clamped to 0…1, t = `offsetTone`, n = `offsetNeutralGamma`, each offset
/// clamped to −1…1):
/// 1. a hue-weighted channel mix in linear light: θ = π·h, w_c = ℓ_c·(1 + s·cos(θ − θ_c)) with
///    ℓ = (0.2126, 0.7152, 0.0722) and θ_R = 0, θ_G = 2π/3, θ_B = 4π/3, normalised to sum 1,
///    so a neutral grey keeps its value and h picks the colour filter the photo is seen through
///    (h = 0 red, ±2/3 green/blue) [I]; Y = Σ w_c·P_c;
/// 2. on the encoded grey v = E(Y), the neutrals: v ← v^(2^(−0.8·n·(1 − S))), S = (max − min)/max
///    of the pixel's colour — `offsetNeutralGamma` lightens (n > 0) or darkens the greys of the
///    original, not its colours [I];
/// 3. tone, a contrast S-curve: v ← v − 0.9·t·v(1 − v)(1 − 2v);
/// 4. R = G = B = D(v).
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

    /// The normalised linear-light mixing weights of step 1.
    var weights: (Double, Double, Double) {
        let theta = Double.pi * (hue + offsetHue)
        let s = min(1, max(0, 0.5 + offsetStrength))
        let w = (0.2126 * (1 + s * cos(theta)), 0.7152 * (1 + s * cos(theta - 2 * .pi / 3)),
                 0.0722 * (1 + s * cos(theta - 4 * .pi / 3)))
        let sum = w.0 + w.1 + w.2
        return (w.0 / sum, w.1 / sum, w.2 / sum)
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
            weights: (Float(w.0), Float(w.1), Float(w.2)), neutralGamma: Float(min(1, max(-1, offsetNeutralGamma))),
            tone: Float(min(1, max(-1, offsetTone))), space: options.workingSpace)
        let grain = abs(offsetGrain) >= 0.001 ? "; grain not rendered" : ""
        return .pointwise(kernel, approximation: "SmartBlackAndWhite (approximation: a hue-weighted channel mix to grey, "
                              + "then neutrals and tone\(grain))")
    }
}

private struct SmartBlackAndWhiteKernel: PixelKernel {
    let weights: (Float, Float, Float)
    let neutralGamma: Float, tone: Float
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let (lr, lg, lb) = (space.linear(r), space.linear(g), space.linear(b))
        let y = weights.0 * lr + weights.1 * lg + weights.2 * lb
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
}
