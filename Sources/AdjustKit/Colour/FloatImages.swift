/// Working-space RGB floats, row-major from the top-left, 3 per pixel: the stored image between
/// decode and geometry, where the stored-frame colour filters run.
package struct RGBFloatImage: Equatable, Sendable {
    /// Width × height, in pixels.
    package var size: PixelSize
    /// R, G, B working-space floats per pixel, rows from the top; 3 × `size.pixelCount` values.
    package var pixels: [Float]
    /// Traps unless `pixels` holds exactly 3 × `size.pixelCount` values.
    package init(size: PixelSize, pixels: [Float]) {
        precondition(pixels.count == size.pixelCount * 3)
        (self.size, self.pixels) = (size, pixels)
    }
}

/// Working-space RGBA floats, colour not premultiplied, 4 per pixel: the sampled output, where
/// the `aas:Filters` steps run.
package struct RGBAFloatImage: Equatable, Sendable {
    /// Width × height, in pixels.
    package var size: PixelSize
    /// R, G, B, A working-space floats per pixel (not premultiplied), rows from the top;
    /// 4 × `size.pixelCount` values.
    package var pixels: [Float]
    /// Traps unless `pixels` holds exactly 4 × `size.pixelCount` values.
    package init(size: PixelSize, pixels: [Float]) {
        precondition(pixels.count == size.pixelCount * 4)
        (self.size, self.pixels) = (size, pixels)
    }
    /// A fully transparent black image (every value 0) of `size`.
    package init(size: PixelSize) { self.init(size: size, pixels: [Float](repeating: 0, count: size.pixelCount * 4)) }
}
