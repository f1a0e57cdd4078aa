import CExif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rewrites an Exif APP1 payload for a rendered image with libexif: IFD0 Orientation becomes 1,
/// the pixel dimensions become the output's, IFD1 and its thumbnail go, and the GPS IFD goes when
/// asked. Every other entry is re-saved as libexif loaded it: its value bytes unchanged (ASCII,
/// RATIONAL, UNDEFINED… are copied, not re-encoded), so Make, Model, DateTimeOriginal and the GPS
/// tags read byte-identical afterwards.
///
/// libexif is told not to "fix" anything (`FOLLOW_SPECIFICATION` off: no tags added, none
/// dropped for being out of place), to keep tags it does not know (`IGNORE_UNKNOWN_TAGS` off),
/// and to copy the MakerNote as raw bytes (`DONT_CHANGE_MAKER_NOTE`). A MakerNote whose vendor
/// format uses offsets from the TIFF header (Canon, some Nikons) may point at the wrong bytes once
/// the IFDs move; Apple's MakerNote is self-relative and survives.
enum ExifRewriter {
    /// "Exif\0\0": the signature libexif's loader expects and its saver writes.
    static let signature: [UInt8] = Array("Exif\0\0".utf8)

    /// The new APP1 payload (with its `Exif\0\0` signature), or nil and a warning when the EXIF
    /// cannot be read or rewritten, or would not fit one segment.
    static func rewrite(_ payload: ArraySlice<UInt8>, outputSize: PixelSize, stripGPS: Bool) -> (payload: [UInt8]?, warning: String?) {
        guard let data = exif_data_new() else { return (nil, "metadata: libexif could not allocate; EXIF dropped") }
        defer { exif_data_unref(data) }
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        let bytes = Array(payload)
        guard let length = UInt32(exactly: bytes.count) else { return (nil, "metadata: EXIF segment unreadable; EXIF dropped") }
        bytes.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, length) }

        guard let ifd0 = content(data, EXIF_IFD_0), ifd0.pointee.count > 0 else {
            return (nil, "metadata: libexif found no IFD0 entries in the original's EXIF; EXIF dropped")
        }
        let order = exif_data_get_byte_order(data)

        // Orientation = 1, only where the original had one: the pixels are now upright.
        if exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION) != nil {
            setInteger(1, tag: EXIF_TAG_ORIENTATION, in: ifd0, order: order, longAllowed: false, create: false)
        }
        // IFD0 ImageWidth/ImageLength rarely appear in a JPEG's EXIF; when they do, they are stale.
        setInteger(outputSize.width, tag: EXIF_TAG_IMAGE_WIDTH, in: ifd0, order: order, longAllowed: true, create: false)
        setInteger(outputSize.height, tag: EXIF_TAG_IMAGE_LENGTH, in: ifd0, order: order, longAllowed: true, create: false)
        // PixelXDimension/PixelYDimension (exiftool's ExifImageWidth/Height): set, added if absent.
        if let exifIFD = content(data, EXIF_IFD_EXIF) {
            setInteger(outputSize.width, tag: EXIF_TAG_PIXEL_X_DIMENSION, in: exifIFD, order: order, longAllowed: true, create: true)
            setInteger(outputSize.height, tag: EXIF_TAG_PIXEL_Y_DIMENSION, in: exifIFD, order: order, longAllowed: true, create: true)
        }

        // The embedded thumbnail shows the unedited picture: drop IFD1 and the thumbnail bytes.
        // libexif writes IFD1 only while it has entries or thumbnail data.
        if let ifd1 = content(data, EXIF_IFD_1) { removeAllEntries(ifd1) }
        if let thumbnail = data.pointee.data {
            free(thumbnail)  // libexif's default allocator is calloc/free
            data.pointee.data = nil
        }
        data.pointee.size = 0

        // Without GPS entries libexif writes no GPS IFD and no pointer to it.
        if stripGPS, let gps = content(data, EXIF_IFD_GPS) { removeAllEntries(gps) }

        var saved: UnsafeMutablePointer<UInt8>?
        var savedSize: UInt32 = 0
        exif_data_save_data(data, &saved, &savedSize)
        guard let saved, savedSize > 0 else { return (nil, "metadata: libexif could not re-save the EXIF; EXIF dropped") }
        defer { free(saved) }
        var result = Array(UnsafeBufferPointer(start: saved, count: Int(savedSize)))
        if !result.starts(with: signature) { result = signature + result }
        guard result.count <= JPEGHeaderSegments.maxPayload else {
            return (nil, "metadata: rewritten EXIF is \(result.count) bytes, over one JPEG segment; EXIF dropped")
        }
        return (result, nil)
    }

    private static func content(_ data: UnsafeMutablePointer<ExifData>, _ ifd: ExifIfd) -> UnsafeMutablePointer<ExifContent>? {
        withUnsafeBytes(of: data.pointee.ifd) { raw in
            raw.bindMemory(to: UnsafeMutablePointer<ExifContent>?.self)[Int(ifd.rawValue)]
        }
    }

    private static func removeAllEntries(_ content: UnsafeMutablePointer<ExifContent>) {
        while content.pointee.count > 0, let entries = content.pointee.entries, let first = entries[0] {
            exif_content_remove_entry(content, first)
        }
    }

    /// Sets `tag` to `value`, keeping a SHORT entry SHORT when the value fits and replacing an
    /// entry of any other shape with a fresh one (LONG where `longAllowed`, else SHORT).
    /// Adds the entry only when `create`.
    private static func setInteger(_ value: Int, tag: ExifTag, in content: UnsafeMutablePointer<ExifContent>,
                                   order: ExifByteOrder, longAllowed: Bool, create: Bool) {
        if let entry = exif_content_get_entry(content, tag) {
            let e = entry.pointee
            if e.components == 1, let bytes = e.data {
                if e.format == EXIF_FORMAT_SHORT, e.size >= 2, let short = UInt16(exactly: value) {
                    exif_set_short(bytes, order, short)
                    return
                }
                if e.format == EXIF_FORMAT_LONG, e.size >= 4, longAllowed, let long = UInt32(exactly: value) {
                    exif_set_long(bytes, order, long)
                    return
                }
            }
            exif_content_remove_entry(content, entry)
        } else if !create {
            return
        }
        guard let entry = exif_entry_new() else { return }
        defer { exif_entry_unref(entry) }
        exif_content_add_entry(content, entry)
        // Allocates the data for the tag's standard format (SHORT for Orientation, LONG for the
        // pixel dimensions, SHORT for IFD0 ImageWidth/Length), using the content's byte order.
        exif_entry_initialize(entry, tag)
        guard let bytes = entry.pointee.data else { exif_content_remove_entry(content, entry); return }
        if entry.pointee.format == EXIF_FORMAT_LONG, entry.pointee.size >= 4, let long = UInt32(exactly: value) {
            exif_set_long(bytes, order, long)
        } else if entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.size >= 2, let short = UInt16(exactly: value) {
            exif_set_short(bytes, order, short)
        } else {
            exif_content_remove_entry(content, entry)
        }
    }
}
