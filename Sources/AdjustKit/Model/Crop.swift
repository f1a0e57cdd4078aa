/// `CICrop`: keeps `rect` (pixels, in the frame after the affine transform, y up) of its input.
/// Integers in practice; fractions are kept and produce coverage-weighted edge pixels.
public struct Crop: Equatable, Sendable {
    /// The kept rectangle, in pixels of the frame after the affine transform (CI frame, y up).
    public var rect: Rect
    /// Keeps `rect` (pixels, CI frame: origin bottom-left, y up).
    public init(rect: Rect) { self.rect = rect }
    /// Keeps the `width` × `height` rectangle whose bottom-left corner is (`x`, `y`), in pixels, y up.
    public init(x: Double, y: Double, width: Double, height: Double) {
        rect = Rect(x: x, y: y, width: width, height: height)
    }
}
