/// A modern Photos `Effect` adjustment (docs/spec/aae-format.md §3, §6): one of the iOS 7 photo
/// effects, then a dissolve from the picture before the effect to the picture after it,
/// out = (1 − t)·before + t·after, t = the effect's intensity, in the working space. The dissolve
/// is exact; the effect is as exact as its table (the user's `.cube`, or the built-in
/// approximation).
public struct EffectIntensityDissolve: Equatable, Sendable {
    /// The effect.
    public var effect: PhotoEffect
    /// `effectIntensity`, t: 0 leaves the picture alone, 1 is the whole effect. Rendered clamped to [0, 1].
    public var intensity: Double

    /// The effect at `intensity` (1, the whole effect, when the edit gives none).
    public init(effect: PhotoEffect, intensity: Double = 1) { (self.effect, self.intensity) = (effect, intensity) }
}

extension EffectIntensityDissolve: AAEAdjustmentFilter, ColourFilter {
    public static let filterName = "Effect"
    static let aaeIdentifier = "Effect"
    /// Apple's pipeline applies the effect to the stored image, before the crop (aae-format.md §4).
    public static let role = FilterRole.storedColour

    public var stepName: String { "Effect (\(effect.rawValue))" }

    public var parameterValues: [(String, ParameterValue)] {
        [("Effect", .text(effect.rawValue)), ("Intensity", .number(intensity))]
    }

    public func support(exactEffects: Set<PhotoEffect>) -> StepSupport { effect.support(exactEffects: exactEffects) }

    /// Unit-free.
    public func rescaled(by factors: RescaleFactors) -> EffectIntensityDissolve { self }

    /// `effectName` (one of the eight iOS 7 names: `Mono`, `Noir`, …; newer names are routed to
    /// `UnsupportedAdjustment` before this is asked) and `effectIntensity` (absent: 1).
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> EffectIntensityDissolve? {
        let name = try adjustment.string("effectName")
        guard let effect = PhotoEffect(name: name) else {
            throw .wrongSettingType(adjustment: adjustment.identifier, key: "effectName",
                                    expected: "an iOS 7 effect name", found: "\"\(name.prefix(40))\"")
        }
        let intensity = try adjustment.optionalNumber("effectIntensity") ?? 1
        guard (0...1).contains(intensity) else {
            throw .wrongSettingType(adjustment: adjustment.identifier, key: "effectIntensity",
                                    expected: "a number in [0, 1]", found: String(intensity.description.prefix(20)))
        }
        return intensity == 0 ? nil : EffectIntensityDissolve(effect: effect, intensity: intensity)
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        let t = Float(min(1, max(0, intensity.isFinite ? intensity : 1)))
        var stage = effect.colourStage(options: options)
        guard t > 0, case .pointwise(let effectKernel)? = stage.kernel else { return .identity }
        if t < 1 { stage.kernel = .pointwise(DissolveKernel(effect: effectKernel, t: t)) }
        return stage
    }
}

/// (1 − t)·before + t·effect(before), per channel, in the working space.
private struct DissolveKernel: PixelKernel {
    let effect: any PixelKernel
    let t: Float

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        var (er, eg, eb) = (r, g, b)
        effect.apply(&er, &eg, &eb)
        r += t * (er - r); g += t * (eg - g); b += t * (eb - b)
    }
}
