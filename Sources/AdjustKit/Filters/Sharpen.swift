/// A modern Photos `RKProSharpenOperation` adjustment, the Sharpen slider (docs/spec/aae-format.md
/// §3, docs/spec/modern-adjustments.md §9). Support **approximate**: Apple's sharpening is not
/// published; this is an unsharp mask on lightness.
///
/// Settings, in either spelling (real files, then Photos' schema), also under `inputKeys`:
/// `inputSharpness` / `intensity` (0…2, default 0), `inputEdgeScale` / `edges` (0…1, default 1),
/// `inputFalloff` / `falloff` (0…1, default 1). With L the pixel's lightness and m the mean
/// lightness of its (2ρ + 1)² box, ρ = 1 + 2·falloff stored pixels (rescaled with the decode, at
/// least 1): L′ = L + 1.5·intensity·w·(L − m), w = min(1, |L − m| / (0.05·edges)) (1 when edges is 0)
/// — a larger Edges value leaves low-contrast texture (noise) alone and sharpens the edges.
package struct Sharpen: Equatable, Sendable {
    package var intensity: Double, edges: Double, falloff: Double
    /// ρ, the box's radius in the chain's frame (stored pixels, or decoded ones once rescaled).
    package var radius: Double

    package init(intensity: Double, edges: Double = 1, falloff: Double = 1, radius: Double? = nil) {
        (self.intensity, self.edges, self.falloff) = (intensity, edges, falloff)
        self.radius = radius ?? 1 + 2 * min(1, max(0, falloff))
    }

    fileprivate var isIdentity: Bool { intensity < 0.001 }
}

extension Sharpen: NeighbourhoodFilter, AAEAdjustmentFilter {
    package static let filterName = "RKProSharpenOperation"
    static let aaeIdentifier = "RKProSharpenOperation"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Sharpness", .number(intensity)), ("EdgeScale", .number(edges)), ("Falloff", .number(falloff)),
         ("Radius", .number(radius))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// The box's radius is in pixels: it scales with the decode.
    package func rescaled(by factors: RescaleFactors) -> Sharpen {
        var value = self
        value.radius = radius * factors.sx
        return value
    }
    var neighbourhoodRadius: Int { isIdentity ? 0 : NeighbourhoodRadius.pixels(radius) }

    /// nil when the intensity is below 0.001.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Sharpen? {
        let a = try adjustment.flattening("inputKeys")
        let value = Sharpen(
            intensity: try a.rangedNumber(a.key("inputSharpness", "intensity"), range: 0...2, accepted: -1...4),
            edges: try a.rangedNumber(a.key("inputEdgeScale", "edges"), default: 1, range: 0...1, accepted: -1...2),
            falloff: try a.rangedNumber(a.key("inputFalloff", "falloff"), default: 1, range: 0...1, accepted: -1...2))
        return value.isIdentity ? nil : value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        let kernel = SharpenKernel(radius: neighbourhoodRadius, amount: Float(1.5 * min(2, intensity)),
                                   threshold: Float(0.05 * min(1, max(0, edges))), space: options.workingSpace)
        return ColourStage(kernel: kernel,
                           approximation: "RKProSharpenOperation (approximation: an unsharp mask on lightness)")
    }
}

/// How a filter's radius in pixels becomes a kernel's: rounded, at least 1, at most 60 (the
/// fixed-point box sums stay within 32 bits).
enum NeighbourhoodRadius {
    static func pixels(_ radius: Double) -> Int { Int(min(60, max(1, radius.rounded()))) }
}

private struct SharpenKernel: LumaNeighbourhoodKernel {
    let radius: Int
    let amount: Float, threshold: Float
    let space: WorkingSpace
    var needsVariance: Bool { false }

    func newLightness(_ l: Float, mean: Float, variance: Float) -> Float {
        let d = l - mean
        let w = threshold > 0 ? min(1, abs(d) / threshold) : 1
        return l + amount * w * d
    }
}
