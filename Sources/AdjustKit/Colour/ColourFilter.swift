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

/// A colour filter whose kernel reads each pixel's neighbourhood (`ColourStage.Kernel.neighbourhood`).
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
    /// What the step's kernel reads — the one vocabulary for how a colour step runs. Whether it
    /// runs before the geometry (on the stored frame) or after it (on the output) is its filter's
    /// place in the application order (`FilterRole`, `FilterRegistry.role(of:)`), not the kernel's.
    enum Kernel {
        /// One pixel's colour: run once per distinct colour (`ColourMemo`) where the steps around
        /// it allow, per pixel otherwise.
        case pixel(any PixelKernel)
        /// A pixel's colour and its place in the stored image (SmartTone's local light, grain):
        /// runs in chain order with the stored-frame per-pixel kernels; it and every stored-frame
        /// kernel after it run per pixel, not through the colour memo.
        case pixelAndPlace(any StoredPositionalKernel)
        /// A pixel's colour and its place in the output (vignette): runs in the row sampler,
        /// after the output's per-pixel kernels.
        case pixelAndOutputPlace(any PositionalKernel)
        /// Each pixel's neighbourhood of the stored image, `radius` rows and columns each side
        /// (Sharpen, Definition, Noise Reduction, DepthEffect): runs in chain order on the working
        /// rows; the stored-frame kernels after it run per pixel after it (`ColourProgram.neighbourhood`).
        case neighbourhood(any NeighbourhoodKernel)
        /// Areas of the stored image, each confined to its own (red-eye repair): pieces run once
        /// the conversion holds all of an area's rows.
        case storedRegion(any RegionKernel)
    }

    /// nil for a step that changes nothing (an identity value) or is skipped.
    var kernel: Kernel?
    /// One line when the step is a documented approximation, for the render's stderr note.
    var approximation: String?
    /// One line when the step is left out on request (an unknown filter under `--skip-unsupported`).
    var skipped: String?

    /// The step changes nothing.
    static let identity = ColourStage()

    /// A per-pixel kernel, or the identity when `kernel` is nil.
    static func pixel(_ kernel: (any PixelKernel)?, approximation: String? = nil) -> ColourStage {
        ColourStage(kernel: kernel.map { .pixel($0) }, approximation: approximation)
    }
}
