/// A modern Photos `SmartColor` adjustment, the Color slider (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §3). Support **approximate**. Runs on linear sRGB, after
/// SmartTone and before SmartBlackAndWhite (modern-adjustments.md §0).
///
/// Per pixel, in this order (c = `inputColor`, oX the offsets, all clamped to −1…1):
/// 1. c < 0 [V through the IMG_1994 chain, 44.7 dB with SmartTone and B&W]: a mix toward the mean
///    of linear RGB, x ← m + (1 + c)(x − m), m = (R + G + B)/3 (c = −1 gives grey).
///    c > 0 [I: the amounts from the statistics by the research law, the pixel form unfitted; no
///    render]: with p75, p98, pG98 = `statistics.satPercentile75`, `satPercentile98`,
///    `satPercentileG98`: vibrancy = clamp(c / (3·max(p75, 0.5)), −1, 1) (c/3 when p75 ≤ 0 or
///    absent); contrast = clamp(0.375·(2c − (1 − p98)), −1, 1) where 2c > 1 − p98, else 0, its sign
///    flipped when pG98 > 0.75, p98 > 0.9 and 0.5 < p75 < 0.65; nothing at all when p98 < 0.01
///    (p98 absent: no contrast). Pixel form: x ← m + (1 + vibrancy·(1 − sat))(x − m), sat =
///    (max − min)/max, then the contrast as SmartTone's stage 3c.3 with that amount;
/// 2. saturation and colour contrast, in linear light: P ← Y + k·(P − Y) with
///    k = (1 + oSaturation)·(1 + oContrast·(S − 0.5)), S = (max − min)/max of P — colour contrast
///    saturates the saturated colours and mutes the muted ones [I];
/// 3. cast: the Warmth gains of `WhiteBalance` (`warmTint`) at warmth 0.5·oCast — positive warmer [I].
package struct SmartColor: Equatable, Sendable {
    /// `inputColor`, −1…1.
    package var color: Double
    package var offsetSaturation: Double, offsetContrast: Double, offsetCast: Double
    /// `statistics.satPercentile75`, `satPercentile98` and `satPercentileG98`, nil when absent.
    package var saturationPercentile75: Double?, saturationPercentile98: Double?, saturationPercentileG98: Double?

    package init(color: Double, offsetSaturation: Double = 0, offsetContrast: Double = 0, offsetCast: Double = 0,
                saturationPercentile75: Double? = nil, saturationPercentile98: Double? = nil,
                saturationPercentileG98: Double? = nil) {
        (self.color, self.offsetSaturation, self.offsetContrast, self.offsetCast) =
            (color, offsetSaturation, offsetContrast, offsetCast)
        (self.saturationPercentile75, self.saturationPercentile98, self.saturationPercentileG98) =
            (saturationPercentile75, saturationPercentile98, saturationPercentileG98)
    }

    fileprivate var isIdentity: Bool {
        ![color, offsetSaturation, offsetContrast, offsetCast].contains(where: { abs($0) >= 0.001 })
    }

    /// Step 1 for c > 0: the vibrancy and the contrast (0 below the threshold); both 0 for c ≤ 0.
    var positiveAmounts: (vibrancy: Double, contrast: Double) {
        let c = min(1, max(-1, color))
        guard c > 0 else { return (0, 0) }
        if let p98 = saturationPercentile98, p98 < 0.01 { return (0, 0) }
        func clamp(_ x: Double) -> Double { min(1, max(-1, x)) }
        let p75 = saturationPercentile75 ?? 0
        let vibrancy = clamp(p75 > 0 ? c / (3 * max(p75, 0.5)) : c / 3)
        var contrast = 0.0
        if let p98 = saturationPercentile98, 2 * c > 1 - p98 {
            contrast = clamp(0.5 * 0.75 * (2 * c - (1 - p98)))
            if let g98 = saturationPercentileG98, g98 > 0.75, p98 > 0.9, p75 > 0.5, p75 < 0.65 { contrast = -contrast }
        }
        return (vibrancy, contrast)
    }
}

extension SmartColor: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "SmartColor"
    package static let role = FilterRole.storedColour
    static let aaeIdentifier = "SmartColor"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Color", .number(color)), ("OffsetSaturation", .number(offsetSaturation)),
         ("OffsetContrast", .number(offsetContrast)), ("OffsetCast", .number(offsetCast))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> SmartColor { self }

    /// Each value −1…1 (clamped; refused beyond ±3); nil when all are within 0.001 of 0.
    static func read(aae a: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> SmartColor? {
        let statistics = a.settings["statistics"]?.objectValue
        let value = SmartColor(color: try a.slider("inputColor"), offsetSaturation: try a.slider("offsetSaturation"),
                               offsetContrast: try a.slider("offsetContrast"), offsetCast: try a.slider("offsetCast"),
                               saturationPercentile75: statistics?["satPercentile75"]?.numberValue,
                               saturationPercentile98: statistics?["satPercentile98"]?.numberValue,
                               saturationPercentileG98: statistics?["satPercentileG98"]?.numberValue)
        return value.isIdentity ? nil : value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        func clamp(_ x: Double) -> Float { Float(min(1, max(-1, x))) }
        let cast = abs(offsetCast) >= 0.001 ? WhiteBalance.gains(warmth: 0.5 * Double(clamp(offsetCast)), tint: 0) : nil
        let positive = positiveAmounts
        let kernel = SmartColorKernel(
            vibrancy: Float(positive.vibrancy), contrast: Float(3.4 * positive.contrast),
            desaturation: color < 0 ? clamp(color) : 0,
            saturation: clamp(offsetSaturation), colourContrast: clamp(offsetContrast),
            cast: cast.map { (Float($0.0), Float($0.1), Float($0.2)) }, space: options.workingSpace)
        return .pointwise(kernel, approximation: color > 0
            ? "SmartColor (approximation: vibrancy and contrast from the Color slider and the photo's saturation "
                + "percentiles by an unchecked law, then saturation, colour contrast and cast)"
            : "SmartColor (approximation: desaturation toward the mean, then saturation, colour contrast and cast)")
    }
}

private struct SmartColorKernel: PixelKernel {
    /// c > 0: the vibrancy, and 3.4 × the contrast of SmartTone's stage 3c.3.
    let vibrancy: Float, contrast: Float
    /// c ≤ 0: the share of chroma (about the mean of R, G, B) removed is −c.
    let desaturation: Float
    let saturation: Float, colourContrast: Float
    let cast: (Float, Float, Float)?
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        var (lr, lg, lb) = (space.linear(r), space.linear(g), space.linear(b))
        if desaturation != 0 {
            let m = (lr + lg + lb) / 3, k = 1 + desaturation
            lr = m + k * (lr - m); lg = m + k * (lg - m); lb = m + k * (lb - m)
        }
        if vibrancy != 0 {
            let high = max(lr, lg, lb), low = min(lr, lg, lb)
            let s = high > 0 ? min(1, max(0, (high - low) / high)) : 0
            let m = (lr + lg + lb) / 3, k = 1 + vibrancy * (1 - s)
            lr = m + k * (lr - m); lg = m + k * (lg - m); lb = m + k * (lb - m)
        }
        if contrast != 0 {
            (lr, lg, lb) = (min(1, max(0, lr)), min(1, max(0, lg)), min(1, max(0, lb)))
            let lum = min(1, max(1e-8, 0.299 * lr + 0.587 * lg + 0.114 * lb))
            let y = lum.squareRoot()
            let n = min(1, max(1e-8, y + contrast * y * (1 - y) * (y - 0.5)))
            let f = n * n / lum
            (lr, lg, lb) = (min(1, max(0, lr * f)), min(1, max(0, lg * f)), min(1, max(0, lb * f)))
        }
        if saturation != 0 || colourContrast != 0 {
            let y = linearLuminance(lr, lg, lb)
            let high = max(lr, lg, lb), low = min(lr, lg, lb)
            let s = high > 0 ? min(1, max(0, (high - low) / high)) : 0
            let k = (1 + saturation) * (1 + colourContrast * (s - 0.5))
            lr = y + k * (lr - y); lg = y + k * (lg - y); lb = y + k * (lb - y)
        }
        if let cast { lr *= cast.0; lg *= cast.1; lb *= cast.2 }
        (r, g, b) = (space.working(fromLinear: lr), space.working(fromLinear: lg), space.working(fromLinear: lb))
    }
}
