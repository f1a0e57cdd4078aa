/// A per-pixel colour operation on unpremultiplied working-space RGB: the kernel of a step that
/// reads one pixel's colour.
protocol PixelKernel: ColourKernel, StoredRowStep {
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float)
    /// The operation on `count` interleaved RGB pixels: one call a row, so that a kernel can run
    /// the row its own way (`LaneKernel`: four pixels a step).
    func apply(row: UnsafeMutablePointer<Float>, count: Int)
}

extension PixelKernel {
    func apply(row: UnsafeMutablePointer<Float>, count: Int) {
        var p = row
        for _ in 0..<count { apply(&p[0], &p[1], &p[2]); p += 3 }
    }

    /// Per stored pixel (after a step that reads more than the colour), the same row operation:
    /// the pixel's place does not matter.
    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        apply(row: row, count: count)
    }

    /// Where its filter's place in the application order puts it: on the output after the
    /// geometry, or on the stored image before it, there once per distinct colour (`ColourMemo`)
    /// where the steps before it allow (`ColourProgram.addStoredColour(_:)`).
    func join(_ program: inout ColourProgram, onOutput: Bool) {
        if onOutput { program.addOutputColour(self) } else { program.addStoredColour(self) }
    }
}
