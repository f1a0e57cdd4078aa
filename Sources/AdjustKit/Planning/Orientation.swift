/// EXIF orientation (tag 0x0112), applied to the output raster after the chain (geometry.md §4).
package enum Orientation: Int, Sendable, CaseIterable {
    case identity = 1
    case mirrorHorizontal = 2
    case rotate180 = 3
    case mirrorVertical = 4
    case transpose = 5
    case rotate90Clockwise = 6
    case transverse = 7
    case rotate90CounterClockwise = 8

    /// Orientations 5–8 swap width and height.
    package var swapsAxes: Bool { rawValue >= 5 }

    /// `size` as displayed: width and height swapped for orientations 5–8.
    package func orientedSize(of size: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: size.height, height: size.width) : size
    }

    /// For pixel (x, y) of the oriented raster, the pixel of the unoriented `size` raster it shows.
    @inline(__always)
    func sourcePixel(x: Int, y: Int, unorientedSize size: PixelSize) -> (u: Int, v: Int) {
        let (w, h) = (size.width, size.height)
        switch self {
        case .identity: return (x, y)
        case .mirrorHorizontal: return (w - 1 - x, y)
        case .rotate180: return (w - 1 - x, h - 1 - y)
        case .mirrorVertical: return (x, h - 1 - y)
        case .transpose: return (y, x)
        case .rotate90Clockwise: return (y, h - 1 - x)
        case .transverse: return (w - 1 - y, h - 1 - x)
        case .rotate90CounterClockwise: return (w - 1 - y, x)
        }
    }

    /// `sourcePixel`'s inverse: where pixel (u, v) of the unoriented `size` raster is shown.
    func orientedPixel(u: Int, v: Int, unorientedSize size: PixelSize) -> (x: Int, y: Int) {
        let (w, h) = (size.width, size.height)
        switch self {
        case .identity: return (u, v)
        case .mirrorHorizontal: return (w - 1 - u, v)
        case .rotate180: return (w - 1 - u, h - 1 - v)
        case .mirrorVertical: return (u, h - 1 - v)
        case .transpose: return (v, u)
        case .rotate90Clockwise: return (h - 1 - v, u)
        case .transverse: return (h - 1 - v, w - 1 - u)
        case .rotate90CounterClockwise: return (v, w - 1 - u)
        }
    }
}
