/// Notices an edit paired with the wrong photo from the payload's `metadata.masterWidth/Height`
/// (spec §2). Samples disagree on what that size is — the stored size, the oriented size, or the
/// oriented size of a capture-time crop — so any of those, either way round, is accepted.
package enum AAEMasterSizeCheck {
    /// A one-line warning when the master size equals none of W×H or H×W of the photo as stored,
    /// nor the crop's width×height either way round; nil when it matches one, or when the file
    /// gives no master size (0×0, as capture-time files for videos do).
    /// - Parameters:
    ///   - master: `metadata.masterWidth`, `metadata.masterHeight`.
    ///   - photo: the photo's stored width and height.
    ///   - crop: the `Crop` adjustment's `width` and `height`, if it has one.
    package static func warning(master: (width: Int, height: Int), photo: (width: Int, height: Int),
                               crop: (width: Double, height: Double)? = nil) -> String? {
        if master.width == 0 && master.height == 0 { return nil }
        let m = (Double(master.width), Double(master.height))
        var fits = [(Double(photo.width), Double(photo.height))]
        if let crop { fits.append((crop.width, crop.height)) }
        for size in fits where (m.0 == size.0 && m.1 == size.1) || (m.0 == size.1 && m.1 == size.0) {
            return nil
        }
        var line = "the edit was made on a \(master.width)×\(master.height) image, but the photo is \(photo.width)×\(photo.height)"
        if let crop { line += " (and the crop is \(Self.text(crop.width))×\(Self.text(crop.height)))" }
        return line + ": it may belong to another photo"
    }

    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
