/// The chain's colour steps turned into kernels, split by where they run: before the geometry
/// (the stored frame: red-eye and the property filters) or after it (the output frame: the
/// `aas:Filters` items and position-dependent steps such as a vignette). Each step makes its
/// own kernel (`ColourFilter.colourStage`); this type only sorts them by role.
struct ColourProgram: Sendable {
    let space: WorkingSpace
    /// Work on neighbourhoods of the stored image, first (red-eye repair).
    let storedRegion: [any RegionKernel]
    /// The stored-frame per-colour kernels before the first stored positional kernel: these run
    /// through the colour memo.
    let storedFrame: [any PixelKernel]
    /// From the first stored positional kernel on (SmartTone's local light), the stored-frame
    /// kernels in chain order, run per pixel after `storedFrame`; empty for most chains.
    let storedTail: [StoredStep]
    /// From the first neighbourhood kernel on, each neighbourhood kernel with the stored-frame
    /// kernels after it (up to the next), in chain order, after `storedTail`; empty for most
    /// chains, which then never see the neighbourhood code.
    let neighbourhood: [NeighbourhoodStep]
    let outputFrame: [any PixelKernel]
    /// Position-dependent work on the output, after `outputFrame`.
    let outputPositional: [any PositionalKernel]
    /// One line per approximate step actually used, for the render's stderr note.
    let approximations: [String]
    /// Steps left out on request (unknown filters under `skipUnknownFilters`).
    let skipped: [String]

    /// The program for `chain` under the user's `options`, on a photo whose own `inputs` (its
    /// depth image) some steps read.
    init(chain: EditChain, options: ColourOptions, inputs: PhotoInputs = PhotoInputs()) throws(RenderError) {
        space = options.workingSpace
        var region: [any RegionKernel] = [], stored: [any PixelKernel] = [], output: [any PixelKernel] = []
        var positional: [any PositionalKernel] = [], tail: [StoredStep] = [], stages: [NeighbourhoodStep] = []
        var approximations: [String] = [], skipped: [String] = [], unsupported: [String] = []
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
            let onOutput = FilterRegistry.role(of: type(of: filter)) == .outputColour
            switch stage.kernel {
            case nil: break
            case .storedRegion(let kernel)?: region.append(kernel)
            case .pixelAndOutputPlace(let kernel)?: positional.append(kernel)
            case .neighbourhood(let kernel)?: stages.append(NeighbourhoodStep(kernel: kernel, tail: []))
            case .pixelAndPlace(let kernel)?:
                if stages.isEmpty { tail.append(.pixelAndPlace(kernel)) } else { stages[stages.count - 1].tail.append(.pixelAndPlace(kernel)) }
            case .pixel(let kernel)?:
                if onOutput { output.append(kernel) }
                else if !stages.isEmpty { stages[stages.count - 1].tail.append(.pixel(kernel)) }
                else if tail.isEmpty { stored.append(kernel) } else { tail.append(.pixel(kernel)) }
            }
        }
        guard unsupported.isEmpty else { throw .unsupportedAdjustments(unsupported) }
        (storedRegion, storedFrame, outputFrame, outputPositional) = (region, stored, output, positional)
        storedTail = tail
        neighbourhood = stages
        (self.approximations, self.skipped) = (approximations, skipped)
    }

    /// Whether the stored frame's steps run on every pixel rather than once per colour: some step
    /// reads a pixel's place or its neighbourhood there (`storedTail`, `neighbourhood`).
    var runsPerStoredPixel: Bool { !storedTail.isEmpty || !neighbourhood.isEmpty }

    /// Whether some step reads more than a pixel's colour, here or on the output (its place or its
    /// neighbourhood), so that no one colour memo can stand for the chain and the output is
    /// encoded exactly. The renderer's paths follow from this and `runsPerStoredPixel`, which are
    /// the only places that list the kinds of kernel.
    var readsPlaceOrNeighbourhood: Bool { runsPerStoredPixel || !outputPositional.isEmpty }

    /// `storedTail` on `count` RGB pixels of decoded row `y` from image column `x0` (both renderers
    /// call this, on whatever runs of rows they hold).
    func applyStoredTail(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        Self.apply(storedTail, row: row, count: count, x0: x0, y: y, imageSize: imageSize)
    }

    /// `steps` on `count` RGB pixels of decoded row `y` from image column `x0`.
    static func apply(_ steps: [StoredStep], row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int,
                      imageSize: PixelSize) {
        for step in steps {
            switch step {
            case .pixel(let kernel):
                kernel.apply(row: row, count: count)
            case .pixelAndPlace(let kernel):
                kernel.apply(row: row, count: count, x0: x0, y: y, imageSize: imageSize)
            }
        }
    }

    /// The region kernels' remarks on a stored image of `imageSize`: what `applyToStoredFrame`
    /// returns for it (the streaming renderer, which runs the kernels piece by piece, reports these).
    func storedRegionWarnings(imageSize: PixelSize) -> [String] {
        storedRegion.flatMap { $0.work(imageSize: imageSize).warnings }
    }

    /// A neighbourhood kernel and the stored-frame steps after it, up to the next one.
    struct NeighbourhoodStep: Sendable {
        let kernel: any NeighbourhoodKernel
        var tail: [StoredStep]
    }

    /// The rows (and columns) each side the neighbourhood kernels read together: the decoded
    /// region grows by this (`RenderPlan.decodeRegion`).
    var neighbourhoodRadius: Int { neighbourhood.reduce(0) { $0 + $1.kernel.radius } }

    /// One stored-frame step from the first one that reads the pixel's place on
    /// (`ColourStage.Kernel`'s names).
    enum StoredStep: Sendable {
        case pixel(any PixelKernel)
        case pixelAndPlace(any StoredPositionalKernel)
    }
}
