import XMPParse

/// A HEIC's depth or disparity auxiliary image (aae-format.md §8; modern-adjustments.md §12): one
/// grey plane, 0…1, rows from the top, covering the whole stored image at its own (lower)
/// resolution. For Apple's portraits it is disparity: lighter is nearer (depth-effect.md §1).
package struct DepthMap: Equatable, Sendable {
    package var size: PixelSize
    package var values: [Float]
    /// The disparities (1/m) of the values 0 and 1: the image's XMP `FloatMinValue` and
    /// `FloatMaxValue`; nil when it states none.
    package var disparityRange: ClosedRange<Float>?
    /// The portrait-effects matte (`urn:com:apple:photo:2018:aux:portraiteffectsmatte`: 1 on the
    /// person), as a plane of the same kind over the whole stored image; nil when the file has
    /// none — Apple makes one for people only (depth-effect.md §1).
    package var matte: PortraitMatte?

    package init(size: PixelSize, values: [Float], disparityRange: ClosedRange<Float>? = nil, matte: PortraitMatte? = nil) {
        (self.size, self.values, self.disparityRange, self.matte) = (size, values, disparityRange, matte)
    }

    /// The range IMG_3582's disparity image states (depth-effect.md §1), for a depth image whose
    /// XMP states none: an iPhone's usual range, so that the blur law (in 1/m) has a scale.
    static let assumedDisparityRange: ClosedRange<Float> = 0.140991...6.15625

    /// The disparity (1/m) of a plane value 0…1.
    @inline(__always)
    func disparity(ofValue value: Float) -> Float {
        let range = disparityRange ?? Self.assumedDisparityRange
        return range.lowerBound + value * (range.upperBound - range.lowerBound)
    }

    /// The value at (u, v) ∈ [0, 1]² of the stored image (bilinear, edges clamped).
    @inline(__always)
    func value(u: Float, v: Float) -> Float { GreyPlaneSampling.bilinear(values, size, u: u, v: v) }

    /// The median value over the rectangle (x, y, width, height) in normalized stored coordinates
    /// (top-left origin).
    func median(inX x: Double, y: Double, width: Double, height: Double) -> Float {
        let x0 = max(0, min(size.width - 1, Int(x * Double(size.width))))
        let x1 = max(x0 + 1, min(size.width, Int(((x + width) * Double(size.width)).rounded(.up))))
        let y0 = max(0, min(size.height - 1, Int(y * Double(size.height))))
        let y1 = max(y0 + 1, min(size.height, Int(((y + height) * Double(size.height)).rounded(.up))))
        var inside: [Float] = []
        for row in y0..<y1 { for column in x0..<x1 { inside.append(values[row * size.width + column]) } }
        inside.sort()
        return inside[inside.count / 2]
    }

    /// `apdi:FloatMinValue` and `apdi:FloatMaxValue` (Apple's pixel-data-info namespace) from a
    /// disparity image's XMP packet, read by the hardened XMP reader; nil unless both are finite
    /// numbers and min < max.
    static func disparityRange(xmp: [UInt8]) -> ClosedRange<Float>? {
        let namespace = "http://ns.apple.com/pixeldatainfo/1.0/"
        guard let packet = try? XMPPacketParser.parse(xmp) else { return nil }
        func number(_ name: String) -> Float? {
            guard let text = packet[namespace, name]?.text, let value = try? XMPNumber.parse(text), value.isFinite else { return nil }
            return Float(value)
        }
        guard let low = number("FloatMinValue"), let high = number("FloatMaxValue"), low < high else { return nil }
        return low...high
    }
}

/// A HEIC's portrait-effects matte: one grey plane 0…1 (1 on the person), rows from the top,
/// covering the whole stored image at its own resolution.
package struct PortraitMatte: Equatable, Sendable {
    package var size: PixelSize
    package var values: [Float]

    package init(size: PixelSize, values: [Float]) { (self.size, self.values) = (size, values) }

    /// The value at (u, v) ∈ [0, 1]² of the stored image (bilinear, edges clamped).
    @inline(__always)
    func value(u: Float, v: Float) -> Float { GreyPlaneSampling.bilinear(values, size, u: u, v: v) }

    /// The taps of u (`column: true`) or v along the matte's columns or rows, for `value(at:)`.
    func taps(_ t: Float, column: Bool) -> GreyPlaneSampling.Tap {
        GreyPlaneSampling.tap(t, count: column ? size.width : size.height)
    }

    /// `value(u:v:)` from taps found once (a row's pixels share v's, a column's share u's): the
    /// same arithmetic, so the same value, without two divisions and two conversions a pixel.
    @inline(__always)
    func value(at column: GreyPlaneSampling.Tap, _ row: GreyPlaneSampling.Tap, in values: UnsafeBufferPointer<Float>) -> Float {
        GreyPlaneSampling.blend(values, width: size.width, column: column, row: row)
    }
}

/// Bilinear sampling of an auxiliary image's plane at a point of the stored image.
enum GreyPlaneSampling {
    /// One axis of a bilinear read: the two stored columns (or rows) about t ∈ [0, 1] (of
    /// `count`, edges clamped) and the weight toward the second.
    typealias Tap = (first: Int, second: Int, weight: Float)

    @inline(__always)
    static func tap(_ t: Float, count: Int) -> Tap {
        let x = min(max(t * Float(count) - 0.5, 0), Float(count - 1))
        let x0 = Int(x)
        return (x0, min(x0 + 1, count - 1), x - Float(x0))
    }

    @inline(__always)
    static func bilinear(_ values: [Float], _ size: PixelSize, u: Float, v: Float) -> Float {
        values.withUnsafeBufferPointer {
            blend($0, width: size.width, column: tap(u, count: size.width), row: tap(v, count: size.height))
        }
    }

    /// Across each of the two rows, then down.
    @inline(__always)
    static func blend(_ values: UnsafeBufferPointer<Float>, width w: Int, column: Tap, row: Tap) -> Float {
        let (x0, x1, fx) = column, (y0, y1, fy) = row
        let top = values[y0 * w + x0] + (values[y0 * w + x1] - values[y0 * w + x0]) * fx
        let bottom = values[y1 * w + x0] + (values[y1 * w + x1] - values[y1 * w + x0]) * fx
        return top + (bottom - top) * fy
    }
}
