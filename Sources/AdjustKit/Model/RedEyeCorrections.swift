/// `CIRedEyeCorrections` (xmp-format.md §3, §5): the frame of the repairs (`width` × `height`,
/// pixels of the stored image) and one struct per eye, kept losslessly.
public struct RedEyeCorrections: Equatable, Sendable {
    /// `aas:RedEyeW`: width in pixels of the frame of every pixel-valued field (the stored image;
    /// the decoded image after rescaling).
    public var width: Double
    /// `aas:RedEyeH`: height in pixels of that frame, as for `width`.
    public var height: Double
    /// `aas:RedEyeISV`, kept and written back as is; its meaning is unknown and rendering ignores it.
    public var isv: Double
    /// `aas:RedEyeOrt`, kept and written back as is; its meaning is unknown and rendering ignores it.
    public var ort: Double
    /// `aas:RedEyeSNR`, kept and written back as is; its meaning is unknown and rendering ignores it.
    public var snr: Double
    /// `aas:RedEyeModel`, an optional string kept as written.
    public var model: String?
    /// `aas:RedEyeCorrections`: one record per eye, in array order.
    public var corrections: [RedEyeCorrection]

    /// Stores every value as given; `model` and `corrections` are optional.
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

    /// The struct namespace and field-name style the record used; written back the same way.
    public var naming: Naming
    /// Field name (without namespace) → value string exactly as written; pixel fields are
    /// top-left raster coordinates of the `RedEyeCorrections` `width` × `height` frame.
    public var fields: [String: String]

    /// Stores the fields as given (the XMP reader validates the pixel fields).
    public init(naming: Naming, fields: [String: String]) {
        (self.naming, self.fields) = (naming, fields)
    }

    /// `.convexHull` when the record has an `hb` field, else `.classic`.
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
