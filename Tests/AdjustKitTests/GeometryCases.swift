import AdjustKit

/// The catalogue of geometry edits on real photos that the oracle, reduced-render and golden
/// tests all run.
struct GeometryCase {
    var name: String
    var image: String
    var xmp: String?
    /// The scale the committed golden is rendered at (small goldens keep the repository small;
    /// full resolution is checked against the oracle instead).
    var goldenScale: DecodeScale
    /// True when every output pixel is an exact copy of a source pixel.
    var isPixelCopy: Bool

    static let quarter = DecodeScale(numerator: 2)!, eighth = DecodeScale(numerator: 1)!

    static let all: [GeometryCase] = [
        GeometryCase(name: "seed-example", image: "canon-a85.jpg", xmp: "seed-example.xmp", goldenScale: quarter, isPixelCopy: true),
        GeometryCase(name: "ios5-sample", image: "iphone4s-2592x1936.jpg", xmp: "ios5-crop.xmp", goldenScale: quarter, isPixelCopy: true),
        GeometryCase(name: "rotate-90", image: "Landscape_1.jpg", xmp: "rotate-90.xmp", goldenScale: quarter, isPixelCopy: true),
        GeometryCase(name: "straighten-3deg", image: "Landscape_1.jpg", xmp: "straighten-3deg.xmp", goldenScale: quarter, isPixelCopy: false),
        GeometryCase(name: "fractional-crop", image: "Landscape_1.jpg", xmp: "fractional-crop.xmp", goldenScale: .full, isPixelCopy: false),
        GeometryCase(name: "translate-crop-h1195", image: "landscape-1800x1195.jpg", xmp: "translate-crop.xmp", goldenScale: quarter, isPixelCopy: true),
        GeometryCase(name: "camera-raw-crop", image: "Landscape_1.jpg", xmp: "camera-raw-crop.xmp", goldenScale: quarter, isPixelCopy: true),
    ] + (0...8).map {
        GeometryCase(name: "orientation-\($0)", image: "Landscape_\($0).jpg", xmp: nil, goldenScale: eighth, isPixelCopy: true)
    }
}
