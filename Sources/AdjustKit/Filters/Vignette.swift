import Foundation

/// A modern Photos `DGVignetteEffectOperation` adjustment (docs/spec/aae-format.md §3, §6;
/// docs/spec/modern-adjustments.md §7): `intensity`, `radius` and `falloff`, read from
/// `settings.inputKeys` (where the spec puts them) or the top level, each also as `inputIntensity`,
/// `inputRadius`, `inputFalloff`. It runs last, on the output frame (after crop and orientation).
///
/// Exact, from spec §6: with i = intensity and r = 1 − radius, i′ = −(−i)^0.6 and
/// r′ = 0.4(r − 0.5) + 0.7 when i < 0, else i′ = i^0.6 and r′ = 0.3(r − 0.5) + 0.5; the radius in
/// pixels is R = r′·max(width, height) of the output, centred on it.
///
/// Approximate (support **approximate**): the curve of Core Image's `CIVignetteEffect`, which is
/// not published. Here, at distance d from the centre, t = smoothstep((d − R(1 − f))/(R·f)) (f =
/// falloff; a hard edge at R when f = 0), and in linear light P ← P·(1 − i′·t) for i′ ≥ 0
/// (darkening toward black at full strength) or P ← P + (−i′)·t·(1 − P) for i′ < 0 (lightening
/// toward white). The kernel sees the output before its orientation; being centred and using
/// max(width, height), it is the same picture either way.
///
/// Ranges: intensity −1…1, radius and falloff 0…1 (clamped; refused beyond −3…3 and −1…2);
/// radius and falloff default to 0.5 when absent. Unit-free: the radius is relative to the
/// output, so a reduced render needs no rescale.
package struct Vignette: Equatable, Sendable {
    package var intensity: Double, radius: Double, falloff: Double

    package init(intensity: Double, radius: Double = 0.5, falloff: Double = 0.5) {
        (self.intensity, self.radius, self.falloff) = (intensity, radius, falloff)
    }

    /// i′ of spec §6.
    package var effectiveIntensity: Double {
        let i = min(1, max(-1, intensity))
        return i < 0 ? -pow(-i, 0.6) : pow(i, 0.6)
    }

    /// r′ of spec §6: the radius as a fraction of the output's longer side.
    package var effectiveRadius: Double {
        let r = 1 - min(1, max(0, radius))
        return intensity < 0 ? 0.4 * (r - 0.5) + 0.7 : 0.3 * (r - 0.5) + 0.5
    }
}



extension Vignette: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "DGVignetteEffectOperation"
    static let aaeIdentifier = "DGVignetteEffectOperation"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Intensity", .number(intensity)), ("Radius", .number(radius)), ("Falloff", .number(falloff))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free: the radius is a fraction of the output's size.
    package func rescaled(by factors: RescaleFactors) -> Vignette { self }

    /// nil when |i′| < 0.002 (no pixel changes by a code).
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Vignette? {
        let a = try adjustment.flattening("inputKeys")
        func key(_ name: String) -> String {
            let prefixed = "input" + name.prefix(1).uppercased() + name.dropFirst()
            return a.settings[name] == nil && a.settings[prefixed] != nil ? prefixed : name
        }
        let value = Vignette(intensity: try a.slider(key("intensity")),
                             radius: try a.fraction(key("radius"), default: 0.5),
                             falloff: try a.fraction(key("falloff"), default: 0.5))
        return abs(value.effectiveIntensity) < 0.002 ? nil : value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        let i = Float(effectiveIntensity)
        guard abs(i) >= 0.002 else { return .identity }
        let kernel = VignetteKernel(intensity: i, radius: Float(effectiveRadius), falloff: Float(min(1, max(0, falloff))),
                                    space: options.workingSpace)
        return ColourStage(kernel: kernel,
                           approximation: "DGVignetteEffectOperation (approximation: a smoothstep vignette standing "
                               + "for CIVignetteEffect's curve)")
    }
}

private struct VignetteKernel: PositionalKernel {
    /// i′, r′ (a fraction of the longer side), f.
    let intensity: Float, radius: Float, falloff: Float
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float, x: Float, y: Float, width: Float, height: Float) {
        let R = radius * max(width, height)
        let dx = x - width / 2, dy = y - height / 2
        let d = (dx * dx + dy * dy).squareRoot()
        let t: Float
        let inner = R * (1 - falloff)
        if d <= inner { return }
        if R - inner <= 0 { t = 1 } else {
            let u = min(1, (d - inner) / (R - inner))
            t = u * u * (3 - 2 * u)
        }
        func shade(_ c: Float) -> Float {
            let l = space.linear(c)
            return space.working(fromLinear: intensity >= 0 ? l * (1 - intensity * t) : l + (-intensity) * t * (1 - l))
        }
        r = shade(r); g = shade(g); b = shade(b)
    }
}
