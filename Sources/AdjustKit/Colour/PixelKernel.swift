/// A per-pixel colour operation on unpremultiplied working-space RGB.
protocol PixelKernel: Sendable {
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float)
    /// The operation on `count` interleaved RGB pixels: one call a row, so that a kernel can run
    /// the row its own way (`LaneKernel`: eight pixels a step).
    func apply(row: UnsafeMutablePointer<Float>, count: Int)
}

extension PixelKernel {
    func apply(row: UnsafeMutablePointer<Float>, count: Int) {
        var p = row
        for _ in 0..<count { apply(&p[0], &p[1], &p[2]); p += 3 }
    }
}
