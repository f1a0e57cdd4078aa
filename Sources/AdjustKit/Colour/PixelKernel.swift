/// A per-pixel colour operation on unpremultiplied working-space RGB.
protocol PixelKernel: Sendable {
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float)
}
