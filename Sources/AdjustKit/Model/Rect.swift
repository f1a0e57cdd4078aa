/// A point in Core Image's frame (origin bottom-left, y up), in pixels.
package struct Point: Equatable, Sendable {
    /// Coordinates in pixels, CI frame (origin bottom-left, y up).
    package var x: Double, y: Double
    /// The point (`x`, `y`), in pixels, y up.
    package init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
}

/// An axis-aligned rectangle in Core Image's frame (origin bottom-left, y up), in pixels.
/// Fractions are kept: crops and rescaled extents are not whole pixels in general.
package struct Rect: Equatable, Sendable {
    /// The bottom-left corner (x, y) and the size, in pixels (CI frame, y up).
    package var x: Double, y: Double, width: Double, height: Double

    /// The rectangle with bottom-left corner (`x`, `y`) and the given size, in pixels, y up.
    package init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The left edge.
    package var minX: Double { x }
    /// The bottom edge (y up).
    package var minY: Double { y }
    /// The right edge, x + width.
    package var maxX: Double { x + width }
    /// The top edge, y + height (y up).
    package var maxY: Double { y + height }
    /// True unless both width and height are positive (NaN counts as empty).
    package var isEmpty: Bool { !(width > 0 && height > 0) }
    /// True when no coordinate or dimension is NaN or infinite.
    package var isFinite: Bool { [x, y, width, height].allSatisfy(\.isFinite) }

    /// The four corners: bottom-left, bottom-right, top-left, top-right (y up).
    package var corners: [Point] {
        [Point(x: minX, y: minY), Point(x: maxX, y: minY),
         Point(x: minX, y: maxY), Point(x: maxX, y: maxY)]
    }

    /// The common part, or an empty rectangle.
    package func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x: x0, y: y0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Core Image's extent rule (geometry.md §1): shrink by 0.001 on each side, then round outward
    /// to whole pixels, so that values a hair past an integer (float noise) do not add a column.
    package var integralExtent: PixelRect {
        let x0 = (minX + 0.001).rounded(.down), y0 = (minY + 0.001).rounded(.down)
        let x1 = (maxX - 0.001).rounded(.up), y1 = (maxY - 0.001).rounded(.up)
        return PixelRect(x: Int(x0), y: Int(y0), width: max(0, Int(x1 - x0)), height: max(0, Int(y1 - y0)))
    }

    /// The rectangle scaled about the origin: x and width × `sx`, y and height × `sy`.
    package func scaled(sx: Double, sy: Double) -> Rect {
        Rect(x: x * sx, y: y * sy, width: width * sx, height: height * sy)
    }
}

/// A whole-pixel rectangle: an output extent in the CI frame, or a region of a raster.
package struct PixelRect: Equatable, Sendable {
    /// Origin and size in whole pixels: the origin is bottom-left for an extent in the CI frame,
    /// top-left for a region of a raster.
    package var x: Int, y: Int, width: Int, height: Int
    /// The rectangle with origin (`x`, `y`) and the given size, in whole pixels.
    package init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
    /// The same rectangle as a `Rect`, in the same frame.
    package var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
}

/// Width × height of a raster.
public struct PixelSize: Equatable, Sendable, CustomStringConvertible {
    /// Columns and rows, in pixels.
    public var width: Int, height: Int
    /// A `width` × `height` raster size.
    public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }
    /// width × height.
    public var pixelCount: Int { width * height }
    /// `W×H` with a multiplication sign, e.g. `1420×1938`.
    public var description: String { "\(width)×\(height)" }
}
