import Foundation

/// A modern Photos `SmartTone` adjustment, the Light slider (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §2). Support **approximate**: Apple derives exposure,
/// contrast, brightness, shadows, highlights and black point from `inputLight` and the photo's
/// `statistics` with private code; only the slider and the user's offsets are rendered here,
/// `statistics`, `inputRawHighlights` and `auto` are ignored.
///
/// The approximation is one tone curve f on sRGB-encoded values v ∈ [0, 1], the same for the
/// three channels, composed of these steps in order (L = `inputLight`, the offsets oX, each
/// clamped to −1…1):
/// 1. black point: v ← (v − k)/(1 − k), k = 0.1·oBlackPoint (negative lifts black);
/// 2. exposure: linear light × 2^(oExposure) (clamped at 1);
/// 3. light and brightness: v ← v^γ, γ = 2^(−(0.8·L + 0.5·oBrightness)) — L > 0 lifts the
///    shadows and mid-tones and keeps white, L < 0 darkens them and keeps black;
/// 4. shadows: v ← v + 0.9·s·v(1 − v)⁴, s = oShadows + 0.5·oLocalLight (clamped to −1…1);
/// 5. highlights: v ← v + 0.9·h·v⁴(1 − v), h = oHighlights − 0.5·oLocalLight (clamped);
/// 6. contrast: v ← v − 0.9·c·v(1 − v)(1 − 2v), c = oContrast.
/// Each step is non-decreasing for these ranges, so f is monotone; f(0) = 0 and f(1) = 1 unless
/// the black point or exposure moves them. `oLocalLight` (Apple's local tone mapping, which needs
/// a neighbourhood) is approximated pointwise as shadows up and highlights down.
public struct SmartTone: Equatable, Sendable {
    /// `inputLight`, −1…1.
    public var light: Double
    public var offsetExposure: Double, offsetContrast: Double, offsetBrightness: Double
    public var offsetShadows: Double, offsetHighlights: Double, offsetBlackPoint: Double, offsetLocalLight: Double

    public init(light: Double, offsetExposure: Double = 0, offsetContrast: Double = 0, offsetBrightness: Double = 0,
                offsetShadows: Double = 0, offsetHighlights: Double = 0, offsetBlackPoint: Double = 0,
                offsetLocalLight: Double = 0) {
        (self.light, self.offsetExposure, self.offsetContrast, self.offsetBrightness) =
            (light, offsetExposure, offsetContrast, offsetBrightness)
        (self.offsetShadows, self.offsetHighlights, self.offsetBlackPoint, self.offsetLocalLight) =
            (offsetShadows, offsetHighlights, offsetBlackPoint, offsetLocalLight)
    }

    private var all: [Double] {
        [light, offsetExposure, offsetContrast, offsetBrightness, offsetShadows, offsetHighlights, offsetBlackPoint,
         offsetLocalLight]
    }

    /// The curve of the doc comment, on an encoded value.
    func curve(_ v0: Double) -> Double {
        func clamp(_ x: Double) -> Double { min(1, max(-1, x)) }
        var v = min(1, max(0, v0))
        let k = 0.1 * clamp(offsetBlackPoint)
        v = max(0, (v - k) / (1 - k))
        if offsetExposure != 0 {
            let gain = Float(pow(2, clamp(offsetExposure)))
            v = Double(SRGBTransfer.encode(min(1, SRGBTransfer.decode(Float(v)) * gain)))
        }
        v = pow(v, pow(2, -(0.8 * clamp(light) + 0.5 * clamp(offsetBrightness))))
        let s = clamp(offsetShadows + 0.5 * offsetLocalLight), h = clamp(offsetHighlights - 0.5 * offsetLocalLight)
        let u = 1 - v
        v += 0.9 * s * v * u * u * u * u
        v += 0.9 * h * v * v * v * v * (1 - v)
        v -= 0.9 * clamp(offsetContrast) * v * (1 - v) * (1 - 2 * v)
        return min(1, max(0, v))
    }
}

extension SmartTone: ColourFilter, AAEAdjustmentFilter {
    public static let filterName = "SmartTone"
    public static let role = FilterRole.storedColour
    static let aaeIdentifier = "SmartTone"

    public var parameterValues: [(String, ParameterValue)] {
        [("Light", .number(light)), ("OffsetExposure", .number(offsetExposure)), ("OffsetContrast", .number(offsetContrast)),
         ("OffsetBrightness", .number(offsetBrightness)), ("OffsetShadows", .number(offsetShadows)),
         ("OffsetHighlights", .number(offsetHighlights)), ("OffsetBlackPoint", .number(offsetBlackPoint)),
         ("OffsetLocalLight", .number(offsetLocalLight))]
    }
    public func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    public func rescaled(by factors: RescaleFactors) -> SmartTone { self }

    /// Each value −1…1 (clamped; refused beyond ±3); nil when all are within 0.001 of 0.
    static func read(aae a: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> SmartTone? {
        let tone = SmartTone(light: try a.slider("inputLight"), offsetExposure: try a.slider("offsetExposure"),
                             offsetContrast: try a.slider("offsetContrast"), offsetBrightness: try a.slider("offsetBrightness"),
                             offsetShadows: try a.slider("offsetShadows"), offsetHighlights: try a.slider("offsetHighlights"),
                             offsetBlackPoint: try a.slider("offsetBlackPoint"),
                             offsetLocalLight: try a.slider("offsetLocalLight"))
        return tone.all.contains(where: { abs($0) >= 0.001 }) ? tone : nil
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard all.contains(where: { abs($0) >= 0.001 }) else { return .identity }
        return .pointwise(SmartToneKernel(table: EncodedCurveTable(space: options.workingSpace, curve: curve)),
                          approximation: "SmartTone (approximation: a tone curve from the Light slider and its offsets; "
                              + "the photo's statistics are not used)")
    }
}

private struct SmartToneKernel: PixelKernel {
    let table: EncodedCurveTable
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) { table.apply(&r, &g, &b) }
}
