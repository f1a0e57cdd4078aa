/// A modern Photos `SmartColor` adjustment, the Color slider (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §3, after modern-colour.md §5). Support **approximate**.
///
/// Per pixel, in this order (c = `inputColor`, oX the offsets, all clamped to −1…1):
/// 1. c < 0 [V through the IMG_1994 chain]: vibrancy = c, no contrast; a mix toward the mean of
///    linear RGB, x ← m + (1 + c)(x − m), m = (R + G + B)/3 (c = −1 gives grey);
///    c > 0 [I: the spec's form, not checked against a render]: vibrancy = c / (3·max(p75, 0.5)),
///    p75 = `statistics.satPercentile75` (0.5 when absent), rendered as `CIVibrance` at that amount
///    (the XMP path's exact kernel); a colour contrast of amount 2c − (1 − p98) where that is
///    positive, p98 = `statistics.satPercentile98` (0 when absent), rendered as step 2's colour
///    contrast [I];
/// 2. saturation and colour contrast, in linear light: P ← Y + k·(P − Y) with
///    k = (1 + oSaturation)·(1 + contrast·(S − 0.5)), contrast = oContrast (+ step 1's),
///    S = (max − min)/max of P — colour contrast saturates the saturated colours and mutes the
///    muted ones [I];
/// 3. cast: the Warmth gains of `WhiteBalance` (`warmTint`) at warmth 0.5·oCast — positive warmer [I].
public struct SmartColor: Equatable, Sendable {
    /// `inputColor`, −1…1.
    public var color: Double
    public var offsetSaturation: Double, offsetContrast: Double, offsetCast: Double
    /// `statistics.satPercentile75` and `satPercentile98`, nil when absent.
    public var saturationPercentile75: Double?, saturationPercentile98: Double?

    public init(color: Double, offsetSaturation: Double = 0, offsetContrast: Double = 0, offsetCast: Double = 0,
                saturationPercentile75: Double? = nil, saturationPercentile98: Double? = nil) {
        (self.color, self.offsetSaturation, self.offsetContrast, self.offsetCast) =
            (color, offsetSaturation, offsetContrast, offsetCast)
        (self.saturationPercentile75, self.saturationPercentile98) = (saturationPercentile75, saturationPercentile98)
    }

    fileprivate var isIdentity: Bool {
        ![color, offsetSaturation, offsetContrast, offsetCast].contains(where: { abs($0) >= 0.001 })
    }

    /// Step 1 for c > 0: the vibrance amount and the colour contrast (0 below the threshold).
    var positiveAmounts: (vibrancy: Double, contrast: Double) {
        let c = min(1, max(0, color))
        let p75 = saturationPercentile75 ?? 0.5, p98 = saturationPercentile98 ?? 0
        return (c / (3 * max(p75, 0.5)), max(0, 2 * c - (1 - p98)))
    }
}

extension SmartColor: ColourFilter, AAEAdjustmentFilter {
    public static let filterName = "SmartColor"
    public static let role = FilterRole.storedColour
    static let aaeIdentifier = "SmartColor"

    public var parameterValues: [(String, ParameterValue)] {
        [("Color", .number(color)), ("OffsetSaturation", .number(offsetSaturation)),
         ("OffsetContrast", .number(offsetContrast)), ("OffsetCast", .number(offsetCast))]
    }
    public func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    public func rescaled(by factors: RescaleFactors) -> SmartColor { self }

    /// Each value −1…1 (clamped; refused beyond ±3); nil when all are within 0.001 of 0.
    static func read(aae a: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> SmartColor? {
        let statistics = a.settings["statistics"]?.objectValue
        let value = SmartColor(color: try a.slider("inputColor"), offsetSaturation: try a.slider("offsetSaturation"),
                               offsetContrast: try a.slider("offsetContrast"), offsetCast: try a.slider("offsetCast"),
                               saturationPercentile75: statistics?["satPercentile75"]?.numberValue,
                               saturationPercentile98: statistics?["satPercentile98"]?.numberValue)
        return value.isIdentity ? nil : value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        func clamp(_ x: Double) -> Float { Float(min(1, max(-1, x))) }
        let cast = abs(offsetCast) >= 0.001 ? WhiteBalance.gains(warmth: 0.5 * Double(clamp(offsetCast)), tint: 0) : nil
        let positive = color > 0 ? positiveAmounts : (vibrancy: 0, contrast: 0)
        let kernel = SmartColorKernel(
            vibrance: positive.vibrancy > 0 ? VibranceKernel(Vibrance(amount: positive.vibrancy)) : nil,
            desaturation: color < 0 ? clamp(color) : 0,
            saturation: clamp(offsetSaturation), contrast: clamp(offsetContrast) + Float(positive.contrast),
            cast: cast.map { (Float($0.0), Float($0.1), Float($0.2)) }, space: options.workingSpace)
        return .pointwise(kernel, approximation: color > 0
            ? "SmartColor (approximation: vibrance and contrast from the Color slider and the photo's saturation "
                + "percentiles by an unchecked law, then saturation, colour contrast and cast)"
            : "SmartColor (approximation: desaturation toward the mean, then saturation, colour contrast and cast)")
    }
}

private struct SmartColorKernel: PixelKernel {
    let vibrance: VibranceKernel?
    /// c ≤ 0: the share of chroma (about the mean of R, G, B) removed is −c.
    let desaturation: Float
    let saturation: Float, contrast: Float
    let cast: (Float, Float, Float)?
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        vibrance?.apply(&r, &g, &b)
        var (lr, lg, lb) = (space.linear(r), space.linear(g), space.linear(b))
        if desaturation != 0 {
            let m = (lr + lg + lb) / 3, k = 1 + desaturation
            lr = m + k * (lr - m); lg = m + k * (lg - m); lb = m + k * (lb - m)
        }
        let y = linearLuminance(lr, lg, lb)
        var k: Float = 1
        if saturation != 0 || contrast != 0 {
            let high = max(lr, lg, lb), low = min(lr, lg, lb)
            let s = high > 0 ? min(1, max(0, (high - low) / high)) : 0
            k *= (1 + saturation) * (1 + contrast * (s - 0.5))
        }
        if k != 1 { lr = y + k * (lr - y); lg = y + k * (lg - y); lb = y + k * (lb - y) }
        if let cast { lr *= cast.0; lg *= cast.1; lb *= cast.2 }
        (r, g, b) = (space.working(fromLinear: lr), space.working(fromLinear: lg), space.working(fromLinear: lb))
    }
}
