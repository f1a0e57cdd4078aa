/// `CICrop`: keeps `rect` (pixels, in the frame after the affine transform, y up) of its input.
/// Integers in practice; fractions are kept and produce coverage-weighted edge pixels.
public struct Crop: Equatable, Sendable {
    public var rect: Rect
    public init(rect: Rect) { self.rect = rect }
    public init(x: Double, y: Double, width: Double, height: Double) {
        rect = Rect(x: x, y: y, width: width, height: height)
    }
}
