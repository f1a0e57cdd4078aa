/// A modern Photos `RKNoiseReductionOperation` adjustment, the Noise Reduction slider
/// (docs/spec/aae-format.md §3, docs/spec/modern-adjustments.md §9). Support **approximate**:
/// edge-preserving smoothing of lightness, a local-statistics (Lee) filter.
///
/// Settings, in either spelling, also under `inputKeys`: `inputRadius` / `radius` (0…10; the
/// schema's default is 1, but an adjustment without a radius is taken to be at its defaults and
/// changes nothing, as does 0), `inputEdgeDetail` / `edgeDetail` (0…6, default 1.5). With L the pixel's
/// lightness and m, v the mean and variance of lightness over its (2ρ + 1)² box, ρ = radius
/// stored pixels (rescaled with the decode, at least 1): L′ = m + v/(v + ε)·(L − m),
/// ε = (0.05/(1 + edgeDetail))² — flat, noisy areas (v ≪ ε) go to their mean, edges (v ≫ ε) keep
/// their pixels; more Edge Detail keeps more.
package struct NoiseReduction: Equatable, Sendable {
    /// `inputRadius`, in the chain's frame (stored pixels, decoded ones once rescaled).
    package var radius: Double
    package var edgeDetail: Double

    package init(radius: Double = 1, edgeDetail: Double = 1.5) {
        (self.radius, self.edgeDetail) = (radius, edgeDetail)
    }

    fileprivate var isIdentity: Bool { radius < 0.001 }
}

extension NoiseReduction: NeighbourhoodFilter, AAEAdjustmentFilter {
    package static let filterName = "RKNoiseReductionOperation"
    static let aaeIdentifier = "RKNoiseReductionOperation"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] { [("Radius", .number(radius)), ("EdgeDetail", .number(edgeDetail))] }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// The radius is in pixels (Apple scales it with the render, aae-format.md §5.5).
    package func rescaled(by factors: RescaleFactors) -> NoiseReduction {
        NoiseReduction(radius: radius * factors.sx, edgeDetail: edgeDetail)
    }
    var neighbourhoodRadius: Int { isIdentity ? 0 : NeighbourhoodRadius.pixels(radius) }

    /// nil when the radius is 0 or absent.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> NoiseReduction? {
        let a = try adjustment.flattening("inputKeys")
        guard a.settings[a.key("inputRadius", "radius")] != nil else { return nil }
        let value = NoiseReduction(
            radius: try a.rangedNumber(a.key("inputRadius", "radius"), default: 1, range: 0...10, accepted: -1...20),
            edgeDetail: try a.rangedNumber(a.key("inputEdgeDetail", "edgeDetail"), default: 1.5, range: 0...6,
                                           accepted: -1...12))
        return value.isIdentity ? nil : value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        let noise = 0.05 / (1 + min(6, max(0, edgeDetail)))
        let kernel = NoiseReductionKernel(radius: neighbourhoodRadius, epsilon: Float(noise * noise),
                                          space: options.workingSpace)
        return ColourStage(kernel: kernel,
                           approximation: "RKNoiseReductionOperation (approximation: edge-preserving smoothing of "
                               + "lightness, a local-statistics filter)")
    }
}

private struct NoiseReductionKernel: LumaNeighbourhoodKernel {
    let radius: Int
    let epsilon: Float
    let space: WorkingSpace
    var needsVariance: Bool { true }

    func newLightness(_ l: Float, mean: Float, variance: Float) -> Float {
        mean + variance / (variance + epsilon) * (l - mean)
    }
}
