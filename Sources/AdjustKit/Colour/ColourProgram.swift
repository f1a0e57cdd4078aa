/// The chain's colour steps turned into kernels, in the runs where they run: before the geometry
/// (the stored frame: red-eye, the property filters, the modern adjustments) or after it (the
/// output frame: the `aas:Filters` items and position-dependent steps such as a vignette). Each
/// step makes its own kernel (`ColourFilter.colourStage`), and each kind of kernel adds itself to
/// the run that what it reads calls for (`ColourKernel.join`), through the adders below, which
/// hold the order rules; this type never lists the kinds.
struct ColourProgram: Sendable {
    let space: WorkingSpace
    /// Work on neighbourhoods of the stored image, first (red-eye repair).
    private(set) var storedRegion: [any RegionKernel] = []
    /// The stored-frame per-colour kernels before the first stored-frame step that reads more than
    /// a colour: these run through the colour memo.
    private(set) var storedFrame: [any PixelKernel] = []
    /// From the first stored-frame step run per pixel on (one that reads the pixel's place:
    /// SmartTone's local light, grain), the stored-frame steps in chain order, run per pixel after
    /// `storedFrame`; empty for most chains.
    private(set) var storedTail: [any StoredRowStep] = []
    /// From the first neighbourhood kernel on, each neighbourhood kernel with the stored-frame
    /// steps after it (up to the next), in chain order, after `storedTail`; empty for most
    /// chains, which then never see the neighbourhood code.
    private(set) var neighbourhood: [NeighbourhoodStep] = []
    private(set) var outputFrame: [any PixelKernel] = []
    /// Position-dependent work on the output, after `outputFrame`.
    private(set) var outputPositional: [any PositionalKernel] = []
    /// One line per approximate step actually used, for the render's stderr note.
    private(set) var approximations: [String] = []
    /// Steps left out on request (unknown filters under `skipUnknownFilters`).
    private(set) var skipped: [String] = []
    /// What the stored frame's kernels, and then the output frame's, do to greys (`GreyEffect`),
    /// each side composed as its kernels join, in chain order, the order its runs apply them: the
    /// adders below keep them, as they keep the runs.
    private var storedGreys = GreyEffect.mayColour, outputGreys = GreyEffect.keepsGrey

    /// The program for `chain` under the user's `options`, on a photo whose own `inputs` (its
    /// depth image) some steps read.
    init(chain: EditChain, options: ColourOptions, inputs: PhotoInputs = PhotoInputs()) throws(RenderError) {
        space = options.workingSpace
        var unsupported: [String] = []
        // Every step that is not geometry is a ColourFilter: a filter must conform to ColourFilter or
        // GeometryFilter to compile (`EditFilter.renderedBy`), so none is skipped here.
        for case let filter as any ColourFilter in chain.filters {
            let stage: ColourStage
            do { stage = try filter.colourStage(options: options, inputs: inputs) } catch RenderError.unsupportedAdjustments(let names) {
                unsupported += names   // all of them named in one message
                continue
            }
            if let note = stage.approximation { approximations.append(note) }
            if let note = stage.skipped { skipped.append(note) }
            stage.kernel?.join(&self, onOutput: FilterRegistry.role(of: type(of: filter)) == .outputColour)
        }
        guard unsupported.isEmpty else { throw .unsupportedAdjustments(unsupported) }
    }

    // MARK: the runs, as a kernel joins them (`ColourKernel.join`)

    /// Work on areas of the stored image: before every other stored-frame step. It runs before
    /// them wherever it stands in the chain, so it may keep greys but never counts as making them.
    mutating func addStoredRegion(_ kernel: any RegionKernel) {
        storedRegion.append(kernel)
        storedGreys = storedGreys.followed(by: kernel.greyEffect == .keepsGrey ? .keepsGrey : .mayColour)
    }

    /// A stored-frame step on one colour: through the colour memo while no stored-frame step
    /// before it reads more than a colour, per pixel in chain order from there on — where a kernel
    /// with a chunk form joins the per-colour kernels next to it in a run read from a table
    /// (`TabulatedColourRun`).
    mutating func addStoredColour(_ kernel: any PixelKernel) {
        storedGreys = storedGreys.followed(by: kernel.greyEffect)
        guard runsPerStoredPixel else { return storedFrame.append(kernel) }
        if let steps = kernel.chunkSteps {
            appendStoredRowStep(TabulatedColourRun(steps, space: space))
        } else {
            appendStoredRowStep(kernel)
        }
    }

    /// A stored-frame step run per pixel, in chain order: after the last neighbourhood kernel so
    /// far, or else after the colour memo; every stored-frame step after it runs per pixel too.
    /// Chunk steps next to each other run in one pass over each row (`ChunkSteps`), tabulated
    /// runs next to each other as one run.
    mutating func addStoredRowStep(_ step: any ColourKernel & StoredRowStep) {
        storedGreys = storedGreys.followed(by: step.greyEffect)
        appendStoredRowStep(step)
    }

    private mutating func appendStoredRowStep(_ step: any StoredRowStep) {
        if neighbourhood.isEmpty {
            Self.append(step, to: &storedTail)
        } else {
            Self.append(step, to: &neighbourhood[neighbourhood.count - 1].tail)
        }
    }

    private static func append(_ step: any StoredRowStep, to steps: inout [any StoredRowStep]) {
        if let next = step.chunkSteps, let previous = steps.last?.chunkSteps {
            steps[steps.count - 1] = ChunkSteps(steps: TabulatedColourRun.joined(previous, next))
        } else {
            steps.append(step)
        }
    }

    /// A kernel reading each stored pixel's neighbourhood, on the rows as the stored-frame steps
    /// before it leave them; the stored-frame steps after it, up to the next, join its `tail`.
    mutating func addNeighbourhood(_ kernel: any NeighbourhoodKernel) {
        neighbourhood.append(NeighbourhoodStep(kernel: kernel, tail: []))
        storedGreys = storedGreys.followed(by: kernel.greyEffect)
    }

    /// An output-frame step on one colour.
    mutating func addOutputColour(_ kernel: any PixelKernel) {
        outputFrame.append(kernel)
        outputGreys = outputGreys.followed(by: kernel.greyEffect)
    }

    /// A step reading a pixel's place in the output, after the output's per-colour steps.
    mutating func addOutputPositional(_ kernel: any PositionalKernel) {
        outputPositional.append(kernel)
        outputGreys = outputGreys.followed(by: kernel.greyEffect)
    }

    // MARK: what the renderers ask

    /// Whether every pixel the program leaves is grey (R = G = B to the bit): a JPEG encoder then
    /// samples the picture's chroma at half resolution (`JPEGChroma`). The geometry, the shrink
    /// and the compositing over black treat the three channels alike, so they keep greys.
    var leavesGrey: Bool { storedGreys.followed(by: outputGreys) == .makesGrey }

    /// Whether the stored frame's steps run on every pixel rather than once per colour: some step
    /// reads a pixel's place or its neighbourhood there (`storedTail`, `neighbourhood`).
    var runsPerStoredPixel: Bool { !storedTail.isEmpty || !neighbourhood.isEmpty }

    /// Whether each stored row can go through the whole chain on its own: no step reads areas or
    /// neighbourhoods of the stored image, or a place in the output (steps that read one colour,
    /// or a colour and its place in the stored image, do). A render that copies texels to the
    /// output then colours each decoded row as it copies it (`FusedRenderer`'s pixel copy). The
    /// renderer's paths follow from this, `runsPerStoredPixel` and `shrinksThroughExactCurve`,
    /// which are read off the runs, not the kinds of kernel.
    var runsOnRowsAlone: Bool { storedRegion.isEmpty && neighbourhood.isEmpty && outputPositional.isEmpty }

    /// Whether a shrink (`--max-size`) encodes the chain's samples through the sRGB curve itself
    /// (`powf`) rather than its table: for red-eye and the vignette, which the reference
    /// pipeline rendered before the streaming renderer could, so that they come out as they did
    /// (docs/architecture.md). Every other chain takes the table: through `powf`, the Smart and
    /// neighbourhood kernels' previews spent a sixth of their CPU in it (docs/benchmark.md,
    /// eighth part).
    var shrinksThroughExactCurve: Bool { !storedRegion.isEmpty || !outputPositional.isEmpty }

    /// `storedTail` on `count` RGB pixels of decoded row `y` from image column `x0` (both renderers
    /// call this, on whatever runs of rows they hold).
    func applyStoredTail(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        Self.apply(storedTail, row: row, count: count, x0: x0, y: y, imageSize: imageSize)
    }

    /// `steps` on `count` RGB pixels of decoded row `y` from image column `x0`.
    static func apply(_ steps: [any StoredRowStep], row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int,
                      imageSize: PixelSize) {
        for step in steps { step.apply(row: row, count: count, x0: x0, y: y, imageSize: imageSize) }
    }

    /// The region kernels' remarks on a stored image of `imageSize`: what `applyToStoredFrame`
    /// returns for it (the streaming renderer, which runs the kernels piece by piece, reports these).
    func storedRegionWarnings(imageSize: PixelSize) -> [String] {
        storedRegion.flatMap { $0.work(imageSize: imageSize).warnings }
    }

    /// A neighbourhood kernel and the stored-frame steps after it, up to the next one.
    struct NeighbourhoodStep: Sendable {
        let kernel: any NeighbourhoodKernel
        var tail: [any StoredRowStep]
    }

    /// The rows (and columns) each side the neighbourhood kernels read together: the decoded
    /// region grows by this (`RenderPlan.decodeRegion`).
    var neighbourhoodRadius: Int { neighbourhood.reduce(0) { $0 + $1.kernel.radius } }
}
