/// Working-space RGB floats, row-major from the top-left, 3 per pixel: the stored image between
/// decode and geometry, where the stored-frame colour filters run.
public struct RGBFloatImage: Equatable, Sendable {
    public var size: PixelSize
    public var pixels: [Float]
    public init(size: PixelSize, pixels: [Float]) {
        precondition(pixels.count == size.pixelCount * 3)
        (self.size, self.pixels) = (size, pixels)
    }
}

/// Working-space RGBA floats, colour not premultiplied, 4 per pixel: the sampled output, where
/// the `aas:Filters` steps run.
public struct RGBAFloatImage: Equatable, Sendable {
    public var size: PixelSize
    public var pixels: [Float]
    public init(size: PixelSize, pixels: [Float]) {
        precondition(pixels.count == size.pixelCount * 4)
        (self.size, self.pixels) = (size, pixels)
    }
    public init(size: PixelSize) { self.init(size: size, pixels: [Float](repeating: 0, count: size.pixelCount * 4)) }
}
