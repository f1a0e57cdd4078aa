/// A modern Photos `Effect` adjustment (docs/spec/aae-format.md §3, §6; modern-adjustments.md §8):
/// one of the iOS 7 photo effects or one of the modern filters (`3DVivid`, …, `ModernPhotoEffect`),
/// then a dissolve from the picture before the effect to the picture after it,
/// out = (1 − t)·before + t·after, t = the effect's intensity, in the working space. The dissolve
/// is exact; the effect is as exact as its table (the user's `.cube`, or the built-in
/// approximation).
package struct EffectIntensityDissolve: Equatable, Sendable {
    /// Which effect: an iOS 7 one or a modern filter.
    package enum Look: Equatable, Sendable {
        case classic(PhotoEffect)
        case modern(ModernPhotoEffect)

        /// The name as Photos writes it, either kind.
        package init?(name: String) {
            if let effect = PhotoEffect(name: name) { self = .classic(effect) }
            else if let effect = ModernPhotoEffect(name: name) { self = .modern(effect) }
            else { return nil }
        }

        /// `PhotoEffect.rawValue` (`CIPhotoEffectNoir`) or the modern name (`3DNoir`).
        package var name: String {
            switch self {
            case .classic(let effect): return effect.rawValue
            case .modern(let effect): return effect.rawValue
            }
        }

        func support(exactEffects: Set<PhotoEffect>) -> StepSupport {
            switch self {
            case .classic(let effect): return effect.support(exactEffects: exactEffects)
            case .modern: return .approximate
            }
        }

        func colourStage(options: ColourOptions) -> ColourStage {
            switch self {
            case .classic(let effect): return effect.colourStage(options: options)
            case .modern(let effect): return effect.colourStage(options: options)
            }
        }
    }

    /// The effect.
    package var look: Look
    /// `effectIntensity`, t: 0 leaves the picture alone, 1 is the whole effect. Rendered clamped to [0, 1].
    package var intensity: Double

    /// The effect at `intensity` (1, the whole effect, when the edit gives none).
    package init(effect: PhotoEffect, intensity: Double = 1) { (self.look, self.intensity) = (.classic(effect), intensity) }
    /// A modern filter at `intensity`.
    package init(modern effect: ModernPhotoEffect, intensity: Double = 1) {
        (self.look, self.intensity) = (.modern(effect), intensity)
    }
    package init(look: Look, intensity: Double = 1) { (self.look, self.intensity) = (look, intensity) }
}

extension EffectIntensityDissolve: AAEAdjustmentFilter, ColourFilter {
    package static let filterName = "Effect"
    static let aaeIdentifier = "Effect"

    /// Approximate for the eight iOS 7 names and the modern ones (3DVivid, …, 3DNoir), which have
    /// built-in approximations; unsupported for any other name unless the user gives a `.cube`.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel {
        let name = adjustment.settings["effectName"]?.stringValue ?? ""
        return Look(name: name) != nil || hasUserCube ? .approximate : .unsupported
    }

    /// The identifier with the effect's name, e.g. `Effect (3DFoo)`.
    static func notReplayedName(_ adjustment: AAEAdjustment) -> String {
        guard let name = adjustment.settings["effectName"]?.stringValue else { return adjustment.identifier }
        return "\(adjustment.identifier) (\(name.prefix(40)))"
    }
    /// Apple's pipeline applies the effect to the stored image, before the crop (aae-format.md §4).

    package var stepName: String { "Effect (\(look.name))" }

    package var parameterValues: [(String, ParameterValue)] {
        [("Effect", .text(look.name)), ("Intensity", .number(intensity))]
    }

    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { look.support(exactEffects: exactEffects) }

    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> EffectIntensityDissolve { self }

    /// `effectName` (one of the eight iOS 7 names: `Mono`, `Noir`, …, or a modern one: `3DVivid`,
    /// …, `3DNoir`) and `effectIntensity` (absent: 1).
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> EffectIntensityDissolve? {
        let name = try adjustment.string("effectName")
        guard let effect = Look(name: name) else {
            throw .wrongSettingType(adjustment: adjustment.identifier, key: "effectName",
                                    expected: "an iOS 7 or modern Photos effect name", found: "\"\(name.prefix(40))\"")
        }
        let intensity = try adjustment.optionalNumber("effectIntensity") ?? 1
        guard (0...1).contains(intensity) else {
            throw .wrongSettingType(adjustment: adjustment.identifier, key: "effectIntensity",
                                    expected: "a number in [0, 1]", found: String(intensity.description.prefix(20)))
        }
        return intensity == 0 ? nil : EffectIntensityDissolve(look: effect, intensity: intensity)
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        let t = Float(min(1, max(0, intensity.isFinite ? intensity : 1)))
        var stage = look.colourStage(options: options)
        guard t > 0, let effectKernel = stage.kernel as? any PixelKernel else { return .identity }
        if t < 1 { stage.kernel = DissolveKernel(effect: effectKernel, t: t) }
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

/// A modern Photos `Effect3D` adjustment: the same names and dissolve as `Effect`
/// (`EffectIntensityDissolve`), applied after it (aae-format.md §4).
package struct Effect3DDissolve: Equatable, Sendable {
    package var dissolve: EffectIntensityDissolve
    package init(_ dissolve: EffectIntensityDissolve) { self.dissolve = dissolve }
}

extension Effect3DDissolve: AAEAdjustmentFilter, ColourFilter {
    package static let filterName = "Effect3D"
    static let aaeIdentifier = "Effect3D"
    /// As `Effect`'s.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel {
        EffectIntensityDissolve.aaeSupport(of: adjustment, hasUserCube: hasUserCube)
    }
    /// As `Effect`'s.
    static func notReplayedName(_ adjustment: AAEAdjustment) -> String { EffectIntensityDissolve.notReplayedName(adjustment) }
    package var stepName: String { "Effect3D (\(dissolve.look.name))" }
    package var parameterValues: [(String, ParameterValue)] { dissolve.parameterValues }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { dissolve.support(exactEffects: exactEffects) }
    package func rescaled(by factors: RescaleFactors) -> Effect3DDissolve { self }
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Effect3DDissolve? {
        try EffectIntensityDissolve.read(aae: adjustment, assumptions: assumptions).map(Effect3DDissolve.init)
    }
    func colourStage(options: ColourOptions) -> ColourStage { dissolve.colourStage(options: options) }
}
