/// A point in Core Image's frame (origin bottom-left, y up), in pixels.
public struct Point: Equatable, Sendable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
}

/// An axis-aligned rectangle in Core Image's frame (origin bottom-left, y up), in pixels.
/// Fractions are kept: crops and rescaled extents are not whole pixels in general.
public struct Rect: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var isEmpty: Bool { !(width > 0 && height > 0) }
    public var isFinite: Bool { [x, y, width, height].allSatisfy(\.isFinite) }

    public var corners: [Point] {
        [Point(x: minX, y: minY), Point(x: maxX, y: minY),
         Point(x: minX, y: maxY), Point(x: maxX, y: maxY)]
    }

    /// The common part, or an empty rectangle.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x: x0, y: y0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Core Image's extent rule (geometry.md §1): shrink by 0.001 on each side, then round outward
    /// to whole pixels, so that values a hair past an integer (float noise) do not add a column.
    public var integralExtent: PixelRect {
        let x0 = (minX + 0.001).rounded(.down), y0 = (minY + 0.001).rounded(.down)
        let x1 = (maxX - 0.001).rounded(.up), y1 = (maxY - 0.001).rounded(.up)
        return PixelRect(x: Int(x0), y: Int(y0), width: max(0, Int(x1 - x0)), height: max(0, Int(y1 - y0)))
    }

    public func scaled(sx: Double, sy: Double) -> Rect {
        Rect(x: x * sx, y: y * sy, width: width * sx, height: height * sy)
    }
}

/// A whole-pixel rectangle: an output extent in the CI frame, or a region of a raster.
public struct PixelRect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
}

/// Width × height of a raster.
public struct PixelSize: Equatable, Sendable, CustomStringConvertible {
    public var width: Int, height: Int
    public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }
    public var pixelCount: Int { width * height }
    public var description: String { "\(width)×\(height)" }
}
