/// A modern Photos `SmartColor` adjustment, the Color slider (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §3). Support **approximate**: Apple derives its amounts from
/// `inputColor` and the photo's `statistics` with private code and ends with a vibrance step;
/// `statistics` and `auto` are ignored here.
///
/// The approximation, per pixel, in this order (c = `inputColor`, oX the offsets, all clamped
/// to −1…1):
/// 1. c > 0: `CIVibrance` at amount c (the XMP path's exact kernel, `VibranceKernel`, in the
///    working space); c < 0: desaturation toward luminance in linear light,
///    P ← Y + (1 + c)·(P − Y), Y = 0.2126R + 0.7152G + 0.0722B (c = −1 gives grey);
/// 2. saturation and colour contrast, in linear light: P ← Y + k·(P − Y) with
///    k = (1 + oSaturation)·(1 + oContrast·(S − 0.5)), S = (max − min)/max of P — colour contrast
///    saturates the saturated colours and mutes the muted ones [I];
/// 3. cast: the Warmth gains of `WhiteBalance` (`warmTint`) at warmth 0.5·oCast — positive warmer [I].
public struct SmartColor: Equatable, Sendable {
    /// `inputColor`, −1…1.
    public var color: Double
    public var offsetSaturation: Double, offsetContrast: Double, offsetCast: Double

    public init(color: Double, offsetSaturation: Double = 0, offsetContrast: Double = 0, offsetCast: Double = 0) {
        (self.color, self.offsetSaturation, self.offsetContrast, self.offsetCast) =
            (color, offsetSaturation, offsetContrast, offsetCast)
    }

    fileprivate var isIdentity: Bool {
        ![color, offsetSaturation, offsetContrast, offsetCast].contains(where: { abs($0) >= 0.001 })
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
        let value = SmartColor(color: try a.slider("inputColor"), offsetSaturation: try a.slider("offsetSaturation"),
                               offsetContrast: try a.slider("offsetContrast"), offsetCast: try a.slider("offsetCast"))
        return value.isIdentity ? nil : value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        func clamp(_ x: Double) -> Float { Float(min(1, max(-1, x))) }
        let cast = abs(offsetCast) >= 0.001 ? WhiteBalance.gains(warmth: 0.5 * Double(clamp(offsetCast)), tint: 0) : nil
        let kernel = SmartColorKernel(
            vibrance: color > 0 ? VibranceKernel(Vibrance(amount: color)) : nil,
            desaturation: color < 0 ? clamp(color) : 0,
            saturation: clamp(offsetSaturation), contrast: clamp(offsetContrast),
            cast: cast.map { (Float($0.0), Float($0.1), Float($0.2)) }, space: options.workingSpace)
        return .pointwise(kernel, approximation: "SmartColor (approximation: vibrance or desaturation from the Color "
                              + "slider, then saturation, colour contrast and cast; the photo's statistics are not used)")
    }
}

private struct SmartColorKernel: PixelKernel {
    let vibrance: VibranceKernel?
    /// c ≤ 0: the share of chroma removed is −c.
    let desaturation: Float
    let saturation: Float, contrast: Float
    let cast: (Float, Float, Float)?
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        vibrance?.apply(&r, &g, &b)
        var (lr, lg, lb) = (space.linear(r), space.linear(g), space.linear(b))
        let y = linearLuminance(lr, lg, lb)
        var k = 1 + desaturation
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
