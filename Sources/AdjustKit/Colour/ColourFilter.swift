/// A filter that changes colour: how the colour program runs it. Geometry steps are not colour
/// filters; the planner and the sampler handle them.
protocol ColourFilter: EditFilter {
    /// The kernel for these values under `options`, and what the user should be told about it.
    func colourStage(options: ColourOptions) throws(RenderError) -> ColourStage
    /// The same for a photo whose own `inputs` the step reads (a portrait's depth image); by
    /// default the step reads none.
    func colourStage(options: ColourOptions, inputs: PhotoInputs) throws(RenderError) -> ColourStage
}

extension ColourFilter {
    func colourStage(options: ColourOptions, inputs: PhotoInputs) throws(RenderError) -> ColourStage {
        try colourStage(options: options)
    }
}

/// A colour filter whose kernel reads each pixel's neighbourhood (a `NeighbourhoodKernel`).
/// The planner grows the decoded region by `neighbourhoodRadius` before any kernel is made, so the
/// kernel `colourStage` makes must read no farther (its `radius` equal to this).
protocol NeighbourhoodFilter: ColourFilter {
    /// The rows and columns each side its kernel reads, in the chain's frame (decoded pixels once
    /// the rescaler has run); 0 when it changes nothing.
    var neighbourhoodRadius: Int { get }
}

extension EditChain {
    /// The neighbourhood filters' radii added up: how far the chain's stored-frame result at a
    /// pixel reaches (`RenderPlan.decodeRegion`).
    var neighbourhoodRadius: Int {
        filters.reduce(0) { $0 + (($1 as? any NeighbourhoodFilter)?.neighbourhoodRadius ?? 0) }
    }
}

/// One colour step made ready to run.
struct ColourStage {
    /// What the step reads, which is where it runs (`ColourKernel`: the kinds, one vocabulary).
    /// Whether a per-colour kernel runs before the geometry (on the stored frame) or after it (on
    /// the output) is its filter's place in the application order (`FilterRole`,
    /// `FilterRegistry.role(of:)`). nil for a step that changes nothing (an identity value) or is
    /// skipped.
    var kernel: (any ColourKernel)?
    /// One line when the step is a documented approximation, for the render's stderr note.
    var approximation: String?
    /// One line when the step is left out on request (an unknown filter under `--skip-unsupported`).
    var skipped: String?

    /// The step changes nothing.
    static let identity = ColourStage()

    /// A per-pixel kernel, or the identity when `kernel` is nil.
    static func pixel(_ kernel: (any PixelKernel)?, approximation: String? = nil) -> ColourStage {
        ColourStage(kernel: kernel, approximation: approximation)
    }
}
