/// A per-pixel colour operation on the stored image (before the geometry) that depends on where
/// the pixel is (SmartTone's local light, grain): unpremultiplied working-space RGB, with the
/// pixel's centre in normalized stored-image coordinates u = (x + 0.5)/width,
/// v = (y + 0.5)/height ∈ (0, 1), x and y counted in the decoded image (the whole stored image at
/// the decode's scale) — so that the kernel gives the same picture at every decode scale and for
/// every decoded region.
///
/// The renderers call `apply(row:…)` on runs of a row (`StoredRowStep`), so a pixel's result must
/// depend only on its colour and its own (u, v), never on the run.
protocol StoredPositionalKernel: ColourKernel, StoredRowStep {
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float, u: Float, v: Float)
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

    /// In chain order with the stored-frame steps, per pixel: the stored-frame kernels before it
    /// still run once per colour; it and every stored-frame step after it run per pixel, not
    /// through the colour memo (`ColourProgram.addStoredRowStep(_:)`).
    func join(_ program: inout ColourProgram, onOutput: Bool) { program.addStoredRowStep(self) }
}
