@testable import AdjustKit

/// The EXIF orientations written out pixel by pixel from their definition (TIFF 6.0's tag 274:
/// where the stored row 0 and column 0 are shown), independent of the library's `Orientation`
/// arithmetic and of `OrientedPlacement`: the oracle both the placement's test and the reference
/// renderer orient with.
enum OrientationOracle {
    /// For oriented pixel (x, y) of an image stored w × h under EXIF orientation `value`, the
    /// stored pixel shown there.
    static func storedPixel(_ value: Int, x: Int, y: Int, w: Int, h: Int) -> (u: Int, v: Int) {
        switch value {
        case 1: return (x, y)                     // row 0 at the top, column 0 on the left
        case 2: return (w - 1 - x, y)             // column 0 on the right
        case 3: return (w - 1 - x, h - 1 - y)     // row 0 at the bottom, column 0 on the right
        case 4: return (x, h - 1 - y)             // row 0 at the bottom
        case 5: return (y, x)                     // row 0 on the left, column 0 at the top
        case 6: return (y, h - 1 - x)             // row 0 on the right, column 0 at the top
        case 7: return (w - 1 - y, h - 1 - x)     // row 0 on the right, column 0 at the bottom
        default: return (w - 1 - y, x)            // 8: row 0 on the left, column 0 at the bottom
        }
    }

    /// `image` as `orientation` shows it.
    static func oriented(_ image: RGBA8Image, _ orientation: Orientation) -> RGBA8Image {
        let (w, h) = (image.size.width, image.size.height)
        let size = orientation.rawValue >= 5 ? PixelSize(width: h, height: w) : image.size
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let (u, v) = storedPixel(orientation.rawValue, x: x, y: y, w: w, h: h)
                for c in 0..<4 { pixels[(y * size.width + x) * 4 + c] = image.pixels[(v * w + u) * 4 + c] }
            }
        }
        return RGBA8Image(size: size, pixels: pixels)
    }
}
