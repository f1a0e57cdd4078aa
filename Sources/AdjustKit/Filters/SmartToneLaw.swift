import Foundation

/// The seven parameters of SmartTone's three stages (docs/spec/modern-adjustments.md §2): the one
/// place where the edit's stored values become them. Nothing else computes them and no render
/// feeds back into them, so that replacing the law is an edit of `SmartToneLaw.parameters` alone.
struct SmartToneParameters: Equatable, Sendable {
    /// Local light, stage 3a: strength of the light-map curve and of the local contrast.
    var localLight: Double
    /// Stage 3a.4, the shadow lift.
    var smartShadows: Double
    /// Stage 3b, the high-key blend.
    var brightness: Double
    /// Stage 3c: levels (exposure, black), highlights, contrast.
    var exposure: Double, black: Double, highlights: Double, contrast: Double
}

enum SmartToneLaw {
    /// The law (docs/spec/modern-adjustments.md §2.3), from `inputLight` v, the photo's stored
    /// `statistics` and the user's offsets only — never from a render:
    ///
    ///     ratio        = min(1, v / autoValue)           (1 when autoValue ≤ 0 or absent; v there when v < 0 [I])
    ///     localLight   = 0.97 · localAutoValue · ratio
    ///     smartShadows = −0.32 · localLight
    ///     brightness   = 0.075 · v
    ///     exposure     = max(0, −0.5 · log2(whitePoint))  (levels: a white point below 1 lifted to 1)
    ///     black        = 20 · blackPoint                  (levels: blackPoint to 0)
    ///     highlights   = −8.4 · exposure
    ///     contrast     = 0.08 · v
    ///
    /// then each parameter plus its offset (offsetLocalLight, offsetShadows, offsetBrightness,
    /// offsetExposure, offsetBlackPoint, offsetHighlights, offsetContrast).
    ///
    /// The five constants 0.97, −0.32, 0.075, −8.4, 0.08 were fitted jointly on the three SmartTone
    /// renders (7783E8E6, IMG_3092, IMG_1994) [fitted]; the levels are exactly those implied by the
    /// stored black and white points [V: a free fit landed on them]; the highlight coupling is
    /// learned from IMG_1994 alone [I]. Missing statistics [I, no render]: localAutoValue absent →
    /// v stands for it; whitePoint or blackPoint absent → that level is 0. The levels (exposure,
    /// black, and so the highlights) are applied only for v > 0 [I: every render has v > 0; a
    /// darkening slider is not assumed to auto-level].
    static func parameters(light: Double, offsetExposure: Double, offsetContrast: Double, offsetBrightness: Double,
                           offsetShadows: Double, offsetHighlights: Double, offsetBlackPoint: Double,
                           offsetLocalLight: Double, statistics: SmartToneStatistics?) -> SmartToneParameters {
        let v = light
        let auto = statistics?.autoValue ?? 0
        let ratio = auto > 0 ? min(1, v / auto) : (v > 0 ? 1 : v)
        let localAuto = statistics?.localAutoValue ?? v
        let localLight = v == 0 ? 0 : c.localLight * localAuto * ratio
        let levels = v > 0
        let white = statistics?.whitePoint ?? 1
        let exposure = levels && white > 0 ? max(0, -0.5 * log2(white)) : 0
        let black = levels ? c.black * (statistics?.blackPoint ?? 0) : 0
        return SmartToneParameters(localLight: localLight + offsetLocalLight,
                                   smartShadows: c.smartShadows * localLight + offsetShadows,
                                   brightness: c.brightness * v + offsetBrightness,
                                   exposure: exposure + offsetExposure,
                                   black: black + offsetBlackPoint,
                                   highlights: c.highlights * exposure + offsetHighlights,
                                   contrast: c.contrast * v + offsetContrast)
    }

    /// The law's constants: localLight per localAutoValue, smartShadows per localLight,
    /// brightness and contrast per inputLight, black per blackPoint, highlights per exposure
    /// (`exposure` unused: it is the white point's level).
    static let coefficients = SmartToneParameters(localLight: 0.97, smartShadows: -0.32, brightness: 0.075,
                                                  exposure: 0, black: 20, highlights: -8.4, contrast: 0.08)
    private static var c: SmartToneParameters { coefficients }
}
