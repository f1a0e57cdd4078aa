import CExif
import XMPParse

/// Reads EXIF Orientation (tag 0x0112) from IFD0 with libexif, and nothing else.
package enum ExifOrientation {
    /// The raw value (any number, validated by the planner), or nil when the JPEG has no EXIF
    /// segment or no IFD0 orientation. EXIF that libexif cannot make sense of counts as absent: a
    /// lying EXIF block must not stop a render. An orientation entry of the wrong type or size
    /// is reported in `warning`.
    package static func read(inJPEG jpeg: [UInt8]) -> (value: Int?, warning: String?) {
        guard let payload = try? JPEGSegments.exifPayload(in: jpeg), !payload.isEmpty else { return (nil, nil) }
        guard let data = exif_data_new() else { return (nil, nil) }
        defer { exif_data_unref(data) }
        // Loading must not rewrite or "fix" anything, and the MakerNote (vendor garbage) is not read.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        payload.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        guard let ifd0 = data.pointee.ifd.0,
              let entry = exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION) else { return (nil, nil) }
        guard entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.components >= 1,
              entry.pointee.size >= 2, let bytes = entry.pointee.data else {
            return (nil, "EXIF orientation entry is not a SHORT value; treated as 1")
        }
        return (Int(exif_get_short(bytes, exif_data_get_byte_order(data))), nil)
    }

    /// The orientation value alone (see `read(inJPEG:)`).
    package static func value(inJPEG jpeg: [UInt8]) -> Int? { read(inJPEG: jpeg).value }
}
