/// `CIRedEyeCorrections` (xmp-format.md §3, §5): the frame of the repairs (`width` × `height`,
/// pixels of the stored image) and one struct per eye, kept losslessly.
public struct RedEyeCorrections: Equatable, Sendable {
    public var width: Double
    public var height: Double
    public var isv: Double
    public var ort: Double
    public var snr: Double
    public var model: String?
    public var corrections: [RedEyeCorrection]

    public init(width: Double, height: Double, isv: Double, ort: Double, snr: Double,
                model: String? = nil, corrections: [RedEyeCorrection] = []) {
        (self.width, self.height, self.isv, self.ort, self.snr) = (width, height, isv, ort, snr)
        (self.model, self.corrections) = (model, corrections)
    }
}

/// One eye's repair record. Every value is the string iOS wrote (space-separated numbers for
/// multi-valued fields), so that nothing is lost or reformatted on a round trip.
public struct RedEyeCorrection: Equatable, Sendable {
    /// Which struct namespace and field names the writer used.
    public enum Naming: String, Equatable, Sendable {
        /// `…/sType/redeye`, short field names (`p`, `s`, `rr`, …).
        case short
        /// `…/sType/red-eye`, long field names (`pointX`, `snappedX`, …).
        case long
    }

    /// Older records describe the pupil by a bitmask; newer iOS writes a convex hull (`hb`), which
    /// this project keeps but cannot render.
    public enum Variant: String, Equatable, Sendable { case classic, convexHull }

    public var naming: Naming
    public var fields: [String: String]

    public init(naming: Naming, fields: [String: String]) {
        (self.naming, self.fields) = (naming, fields)
    }

    public var variant: Variant { fields["hb"] != nil ? .convexHull : .classic }

    /// Which space-separated components of which fields are pixel positions or lengths in the
    /// `width` × `height` frame, and on which axis: the rescaler multiplies exactly these.
    /// Their y origin is [open] in the spec; this project reads them as top-left raster
    /// coordinates, the image's own raster, which makes the reduced-decode rule a plain
    /// multiplication (top-left coordinates scale exactly, geometry.md §2).
    static func pixelAxes(of field: String, naming: Naming) -> [Axis?]? {
        switch (naming, field) {
        case (.short, "s"): return [.x, .y]
        case (.short, "b"), (.short, "cr"): return [.x, .y, nil]
        case (.short, "sr"), (.short, "rr"): return [.y, .y, .x, .x]   // minY maxY minX maxX
        case (.long, "snappedX"), (.long, "bitmaskX"), (.long, "cornealReflectionX"): return [.x]
        case (.long, "snappedY"), (.long, "bitmaskY"), (.long, "cornealReflectionY"): return [.y]
        default: return nil
        }
    }

    enum Axis { case x, y }
}
