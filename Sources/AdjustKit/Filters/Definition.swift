/// A modern Photos `DGDefinition2Operation` adjustment, the Definition slider
/// (docs/spec/aae-format.md §3, docs/spec/modern-adjustments.md §9). Support **approximate**:
/// local contrast, a large-radius unsharp mask on lightness, weighted toward the midtones.
///
/// Setting: `inputIntensity` / `intensity` (0…2, default 0), also under `inputKeys`. With L the
/// pixel's lightness and m the mean lightness of its (2ρ + 1)² box, ρ = 30 stored pixels
/// (rescaled with the decode): L′ = L + 0.6·intensity·4L(1 − L)·(L − m), L clamped to 0…1 in
/// the weight.
package struct Definition: Equatable, Sendable {
    package var intensity: Double
    /// ρ, the box's radius in the chain's frame.
    package var radius: Double

    package init(intensity: Double, radius: Double = 30) {
        (self.intensity, self.radius) = (intensity, radius)
    }

    fileprivate var isIdentity: Bool { intensity < 0.001 }
}

extension Definition: NeighbourhoodFilter, AAEAdjustmentFilter {
    package static let filterName = "DGDefinition2Operation"
    static let aaeIdentifier = "DGDefinition2Operation"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] { [("Intensity", .number(intensity)), ("Radius", .number(radius))] }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// The box's radius is in pixels: it scales with the decode.
    package func rescaled(by factors: RescaleFactors) -> Definition { Definition(intensity: intensity, radius: radius * factors.sx) }
    var neighbourhoodRadius: Int { isIdentity ? 0 : NeighbourhoodRadius.pixels(radius) }

    /// nil when the intensity is below 0.001.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Definition? {
        let a = try adjustment.flattening("inputKeys")
        let value = Definition(intensity: try a.rangedNumber(a.key("inputIntensity", "intensity"), range: 0...2,
                                                             accepted: -1...4))
        return value.isIdentity ? nil : value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        let kernel = DefinitionKernel(radius: neighbourhoodRadius, amount: Float(0.6 * min(2, intensity)),
                                      space: options.workingSpace)
        return ColourStage(kernel: kernel,
                           approximation: "DGDefinition2Operation (approximation: local contrast, a large-radius "
                               + "unsharp mask on lightness)")
    }
}

private struct DefinitionKernel: LumaNeighbourhoodKernel {
    let radius: Int
    let amount: Float
    let space: WorkingSpace
    var needsVariance: Bool { false }

    func newLightness(_ l: Float, mean: Float, variance: Float) -> Float {
        let c = min(1, max(0, l))
        return l + amount * 4 * c * (1 - c) * (l - mean)
    }
}
