import Foundation

/// The seven parameters of SmartTone's stages (docs/spec/modern-adjustments.md §2): the one
/// place where the edit's stored values become them. Nothing else computes them and no render
/// feeds back into them, so that replacing the law is an edit of `SmartToneLaw.parameters` alone.
struct SmartToneParameters: Equatable, Sendable {
    /// Local light: strength of the light-map curve and of the local contrast.
    var localLight: Double
    /// The map-guided shadow lift (only a positive total runs).
    var smartShadows: Double
    /// The high-key stage.
    var brightness: Double
    /// Levels (exposure, black), highlights, contrast.
    var exposure: Double, black: Double, highlights: Double, contrast: Double
}

enum SmartToneLaw {
    /// Each stage parameter is its auto value plus the user's offset (modern-colour.md §7.1); the
    /// auto values come from `inputLight` v and the photo's stored `statistics` only — never from
    /// a render — and are all 0 at v = 0:
    ///
    ///     ratio        = min(1, v / autoValue)           (1 when autoValue ≤ 0 or absent)
    ///     localLight   = 1.10 · localAutoValue · ratio    (localAutoValue absent: v)
    ///     brightness   = 0.071 · v
    ///     contrast     = 0.086 · v
    ///     exposure     = max(0, −0.5 · log2(whitePoint))  (levels: a white point below 1 lifted to 1)
    ///     black        = 20 · blackPoint                  (levels: blackPoint to 0)
    ///     smartShadows = highlights = 0
    ///
    /// then + offsetLocalLight, offsetShadows, offsetBrightness, offsetExposure, offsetBlackPoint,
    /// offsetHighlights, offsetContrast.
    ///
    /// Why these and no more: the three constants 1.10, 0.071, 0.086 were fitted jointly on the
    /// five shared renders with a Light slider (three of the HEIC 7783E8E6, IMG_1994, 3A71DE26;
    /// scripts/research/law7.py, variant A) [fitted]. Left-one-photo-out, each photo's render
    /// stays 8.7 dB or more above the unedited photo (modern-adjustments.md §2.3); laws with a
    /// fourth or fifth constant (highlights or exposure per v) fitted the renders better and
    /// carried to a left-out photo worse, the constants trading off with each other. The levels
    /// are the stored black and white points themselves [V: a free fit lands on them]. The
    /// per-render fits put localLight at 0.82–0.93 · localAutoValue · ratio on every render, so
    /// it follows Photos' own local auto value. A fitted smart-shadows amount came out negative
    /// on every render, i.e. the plain shadow adjustment that is not modelled (§7.1): 0.
    ///
    /// Negative v [no render in any shared set; a law for it was not found (modern-colour.md
    /// §7.7)]: the auto values are 0 — only the offsets render — so a Light-only edit below 0 is
    /// never further from Apple's render than the unedited photo; the note says so.
    static func parameters(light: Double, offsetExposure: Double, offsetContrast: Double, offsetBrightness: Double,
                           offsetShadows: Double, offsetHighlights: Double, offsetBlackPoint: Double,
                           offsetLocalLight: Double, statistics: SmartToneStatistics?) -> SmartToneParameters {
        let auto = autoValues(light: light, statistics: statistics)
        return SmartToneParameters(localLight: auto.localLight + offsetLocalLight,
                                   smartShadows: auto.smartShadows + offsetShadows,
                                   brightness: auto.brightness + offsetBrightness,
                                   exposure: auto.exposure + offsetExposure,
                                   black: auto.black + offsetBlackPoint,
                                   highlights: auto.highlights + offsetHighlights,
                                   contrast: auto.contrast + offsetContrast)
    }

    /// The auto values alone (the law above without the offsets).
    static func autoValues(light v: Double, statistics: SmartToneStatistics?) -> SmartToneParameters {
        guard v > 0 else {
            return SmartToneParameters(localLight: 0, smartShadows: 0, brightness: 0, exposure: 0, black: 0, highlights: 0, contrast: 0)
        }
        let auto = statistics?.autoValue ?? 0
        let ratio = auto > 0 ? min(1, v / auto) : 1
        let localAuto = statistics?.localAutoValue ?? v
        let white = statistics?.whitePoint ?? 1
        return SmartToneParameters(localLight: localLight * localAuto * ratio, smartShadows: 0,
                                   brightness: brightness * v,
                                   exposure: white > 0 ? max(0, -0.5 * log2(white)) : 0,
                                   black: 20 * (statistics?.blackPoint ?? 0),
                                   highlights: 0,
                                   contrast: contrast * v)
    }

    /// The fitted constants: localLight per localAutoValue · ratio, brightness and contrast per
    /// inputLight.
    static let localLight = 1.10, brightness = 0.071, contrast = 0.086
}
