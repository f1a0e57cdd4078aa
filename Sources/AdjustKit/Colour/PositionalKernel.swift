/// A per-pixel colour operation that depends on the pixel's place in the output (before
/// orientation; the vignette): unpremultiplied working-space RGB, with the pixel's centre (x, y)
/// from the top-left in units where the whole output is width × height — pixels of whatever raster
/// is being made (full size, or the sampling grid of a reduced render), so that a kernel defined
/// relative to the output's size gives the same picture at every size.
protocol PositionalKernel: ColourKernel {
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float, x: Float, y: Float, width: Float, height: Float)
}

extension PositionalKernel {
    /// In the row sampler, on each pixel of the output as it is sampled, after the output's
    /// per-colour kernels.
    func join(_ program: inout ColourProgram, onOutput: Bool) { program.addOutputPositional(self) }
}
