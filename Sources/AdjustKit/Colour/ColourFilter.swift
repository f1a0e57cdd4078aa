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

/// Work on the stored image (working-space RGB) that reads and writes neighbourhoods (red-eye
/// repair), in pieces confined to areas of the image: the whole-image reference runs every piece
/// on the whole image; the streaming renderer runs those that can reach its output on a window
/// of rows holding their areas (`StoredRegionPass`).
protocol RegionKernel: Sendable {
    /// The work on a stored image of `imageSize` (a reduced decode's, for a reduced render).
    func work(imageSize: PixelSize) -> RegionWork
}

/// A region kernel's work on one stored image, in order.
struct RegionWork {
    /// One piece: it reads and writes only pixels inside `area` (raster rectangle, top-left, in
    /// the image), so pieces whose areas do not overlap are independent.
    struct Piece {
        let area: PixelRect
        /// Runs the piece on `pixels`, which hold at least `area`.
        let apply: (StoredPixels, WorkingSpace) -> Void
    }

    var pieces: [Piece]
    /// Remarks about the parts that cannot be applied, one line each.
    var warnings: [String]
}

/// A per-pixel colour operation that depends on the pixel's place in the output (before
/// orientation): unpremultiplied working-space RGB, with the pixel's centre (x, y) from the
/// top-left in units where the whole output is width × height — pixels of whatever raster is
/// being made (full size, or the sampling grid of a reduced render), so that a kernel defined
/// relative to the output's size gives the same picture at every size.
protocol PositionalKernel: Sendable {
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float, x: Float, y: Float, width: Float, height: Float)
}

/// A per-pixel colour operation on the stored image (before the geometry) that depends on where
/// the pixel is: unpremultiplied working-space RGB, with the pixel's centre in normalized
/// stored-image coordinates u = (x + 0.5)/width, v = (y + 0.5)/height ∈ (0, 1), x and y counted
/// in the decoded image (the whole stored image at the decode's scale) — so that the kernel gives
/// the same picture at every decode scale and for every decoded region.
///
/// The renderers call `apply(row:…)` on runs of a row; a run may start at any column (a region
/// decode's column offset, a worker's share), so a pixel's result must depend only on its colour
/// and its own (u, v), never on the run: that is what keeps the streaming renderer bit-identical
/// to the reference pipeline.
protocol StoredPositionalKernel: Sendable {
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float, u: Float, v: Float)
    /// `count` RGB pixels of decoded row `y` from image column `x0`, in an image of `imageSize`.
    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize)
}

extension StoredPositionalKernel {
    /// The pixel's centre in normalized coordinates, the one definition both renderers use.
    @inline(__always)
    static func centre(_ i: Int, of n: Int) -> Float { (Float(i) + 0.5) / Float(n) }

    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        let v = Self.centre(y, of: imageSize.height)
        var p = row
        for x in x0..<(x0 + count) {
            apply(&p[0], &p[1], &p[2], u: Self.centre(x, of: imageSize.width), v: v)
            p += 3
        }
    }
}
