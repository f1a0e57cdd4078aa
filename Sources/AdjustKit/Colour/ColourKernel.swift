/// A colour step's kernel. Kernels come in kinds named by what they read — one pixel's colour
/// (`PixelKernel`), a pixel's colour and its place in the stored image (`StoredPositionalKernel`)
/// or in the output (`PositionalKernel`), each pixel's neighbourhood (`NeighbourhoodKernel`), or
/// areas of the stored image (`RegionKernel`): the one vocabulary for how a colour step runs.
///
/// What a kernel reads decides where it runs, so each kind says so once, in its own file, by
/// adding its kernels to the program's runs (`join`): the program does not sort kernels by kind,
/// and the renderers ask the program's runs, never the kinds. So a new kind whose kernels run in
/// one of those runs is that one file, plus the filter that makes such a kernel; a kind that
/// needs a new place to run (a pass the renderers do not have) needs that pass written too, and a
/// run for it in the program.
protocol ColourKernel: Sendable {
    /// Adds this kernel to `program`, after the kernels of the steps before it in the chain, with
    /// the program's adders (`ColourProgram.addStoredColour(_:)`, …), which keep the order rules.
    /// `onOutput`: the step's filter comes after the geometry in the application order
    /// (`FilterRole.outputColour`), for a kind whose kernels can run on either side of it.
    func join(_ program: inout ColourProgram, onOutput: Bool)
    /// What the kernel does to greys (`GreyEffect`); `mayColour` unless a kernel says otherwise.
    var greyEffect: GreyEffect { get }
}

extension ColourKernel {
    var greyEffect: GreyEffect { .mayColour }
}

/// Kernels of one step, in order: a step whose parts read different things (SmartTone's local
/// stages read the pixel's place, its global ones the colour alone) joins each part where what
/// it reads puts it.
struct ColourKernels: ColourKernel {
    let kernels: [any ColourKernel]

    init(_ kernels: [any ColourKernel]) { self.kernels = kernels }

    func join(_ program: inout ColourProgram, onOutput: Bool) {
        for kernel in kernels { kernel.join(&program, onOutput: onOutput) }
    }
}
