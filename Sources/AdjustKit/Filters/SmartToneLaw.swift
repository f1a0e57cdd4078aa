/// The seven parameters of SmartTone's three stages (docs/spec/modern-adjustments.md §2): the one
/// place where the edit's stored values become them. Nothing else computes them and no render
/// feeds back into them, so that replacing the law is an edit of `SmartToneLaw.parameters` alone.
struct SmartToneParameters: Equatable, Sendable {
    /// Local light, stage 1: strength of the light-map curve and of the local contrast.
    var localLight: Double
    /// Stage 1's shadow term (b0 only).
    var smartShadows: Double
    /// Stage 2, the high-key blend.
    var brightness: Double
    /// Stage 3.
    var exposure: Double, black: Double, highlights: Double, contrast: Double
}

enum SmartToneLaw {
    /// The provisional joint law: each parameter a constant times `inputLight` (black a constant),
    /// then the user's offset for it added. **Not Apple's law**, which is unknown: it depends on the
    /// photo's statistics as well (modern-colour.md §3), which this law does not use yet — the
    /// argument is there so that a law that does can replace this one here.
    ///
    /// The coefficients: modern-colour.md §3 fitted its joint law (localLight 0.891 L, smartShadows
    /// 0.282 L, brightness 0.622 L, exposure −0.059 L, highlights −0.653 L, contrast 0.313 L, black
    /// 0.0727) to its own reading of the stages; this file's reading of the stages (SmartTone.swift,
    /// whose text leaves the local-contrast mix, the shadow term and the high-key blend open) was
    /// fitted by the same method on the same two renders (the HEIC at inputLight 0.3073 and 0.2635),
    /// which gives the `coefficients` below: 36.8 and 39.7 dB on those renders (every 8th pixel),
    /// where the spec's coefficients give 23.3 and 24.5 dB through this reading of the stages (they
    /// belong to the spec's own). [fitted; two renders of one photo, so not a general law]
    ///
    /// Offsets [I]: each user offset (−1…1) is added to the parameter it names: offsetLocalLight to
    /// localLight, offsetShadows to smartShadows, offsetBrightness to brightness, offsetExposure to
    /// exposure, offsetHighlights to highlights, offsetContrast to contrast, and 0.1·offsetBlackPoint
    /// to black (black's own scale is ~0.07).
    static func parameters(light: Double, offsetExposure: Double, offsetContrast: Double, offsetBrightness: Double,
                           offsetShadows: Double, offsetHighlights: Double, offsetBlackPoint: Double,
                           offsetLocalLight: Double, statistics: SmartToneStatistics?) -> SmartToneParameters {
        let c = coefficients
        let l = light
        return SmartToneParameters(localLight: c.localLight * l + offsetLocalLight,
                                   smartShadows: c.smartShadows * l + offsetShadows,
                                   brightness: c.brightness * l + offsetBrightness,
                                   exposure: c.exposure * l + offsetExposure,
                                   black: (l == 0 ? 0 : c.black) + 0.1 * offsetBlackPoint,
                                   highlights: c.highlights * l + offsetHighlights,
                                   contrast: c.contrast * l + offsetContrast)
    }

    /// Per unit of `inputLight` (black: absolute, applied when `inputLight` is not 0).
    static let coefficients = SmartToneParameters(localLight: 1.1512, smartShadows: 0.2112, brightness: 0.0951,
                                                  exposure: 0.0046, black: 0.125, highlights: -0.1992, contrast: 0.1052)
}
