import CHeifLoader

/// A HEIC's EXIF, XMP and ICC profile, and the same blocks laid out as a JPEG header, so that the
/// code written for a JPEG original's metadata — `ExifOrientation`, the embedded-edit search of
/// `EditSource`, `MetadataCarryOver` — reads them unchanged.
package struct HEICMetadata: Equatable, Sendable {
    /// The EXIF block in JPEG APP1 form: `Exif\0\0` then the TIFF header and its IFDs. (In the
    /// HEIF `Exif` item it follows a 4-byte offset to the TIFF header, which is dropped.)
    package var exif: [UInt8]?
    /// The XMP packet (the `mime` item of type `application/rdf+xml`).
    package var xmp: [UInt8]?
    /// The ICC profile (`colr` of type `prof`/`rICC`), as stored: iPhones write Display P3, kept
    /// as it is with the pixel values left alone.
    package var iccProfile: [UInt8]?
    /// Blocks that could not be read or do not fit a JPEG header, one line each.
    package var notes: [String] = []

    private static let exifSignature = Array("Exif\0\0".utf8)
    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    private static let iccSignature = Array("ICC_PROFILE\0".utf8)
    /// ICC bytes per APP2 chunk: a segment's 65 533 bytes less the 14-byte chunk header.
    private static let iccChunkBytes = 65_519

    package init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil, iccProfile: [UInt8]? = nil) {
        (self.exif, self.xmp, self.iccProfile) = (exif, xmp, iccProfile)
    }

    /// Reads the blocks attached to a libheif image handle.
    init(handle: OpaquePointer) {
        for (id, type, content) in Self.blocks(handle) {
            let size = adjust_heif_image_handle_get_metadata_size(handle, id)
            guard size > 0 else { continue }
            guard size <= HEICDecoder.maxMetadataBytes else {
                notes.append("HEIF \(type) block of \(size) bytes skipped (over \(HEICDecoder.maxMetadataBytes))")
                continue
            }
            var bytes = [UInt8](repeating: 0, count: size)
            guard adjust_heif_image_handle_get_metadata(handle, id, &bytes).code == heif_error_Ok else {
                notes.append("HEIF \(type) block unreadable; not carried")
                continue
            }
            if type == "Exif", exif == nil {
                exif = Self.exifPayload(item: bytes)
                if exif == nil { notes.append("HEIF Exif block has a bad TIFF header offset; not carried") }
            } else if type == "mime", content == "application/rdf+xml", xmp == nil {
                xmp = bytes
            }
        }
        let profileType = adjust_heif_image_handle_get_color_profile_type(handle)
        if profileType == heif_color_profile_type_prof || profileType == heif_color_profile_type_rICC {
            let size = adjust_heif_image_handle_get_raw_color_profile_size(handle)
            if size > 0, size <= HEICDecoder.maxMetadataBytes {
                var profile = [UInt8](repeating: 0, count: size)
                if adjust_heif_image_handle_get_raw_color_profile(handle, &profile).code == heif_error_Ok { iccProfile = profile }
            }
        }
    }

    /// The HEIF `Exif` item → `Exif\0\0` + TIFF: the item's first 4 bytes are the big-endian
    /// offset of the TIFF header from the end of those 4 bytes (ISO/IEC 23008-12 A.2.1); Apple
    /// writes 6 and puts `Exif\0\0` there. Nil when the offset points outside the item.
    static func exifPayload(item: [UInt8]) -> [UInt8]? {
        guard item.count >= 4 else { return nil }
        let offset = Int(item[0]) << 24 | Int(item[1]) << 16 | Int(item[2]) << 8 | Int(item[3])
        guard offset <= item.count - 4 - 8 else { return nil }   // room for a TIFF header
        let tiff = item[(4 + offset)...]
        guard tiff.starts(with: Array("II".utf8)) || tiff.starts(with: Array("MM".utf8)) else { return nil }
        return exifSignature + tiff
    }

    private static func blocks(_ handle: OpaquePointer) -> [(heif_item_id, String, String)] {
        let count = Int(adjust_heif_image_handle_get_number_of_metadata_blocks(handle, nil))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(adjust_heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, Int32(count)))
        return ids.prefix(listed).map { id in
            let type = adjust_heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
            let content = adjust_heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } ?? ""
            return (id, type, content)
        }
    }

    /// SOI, an APP1 `Exif`, an APP1 XMP, the ICC profile's APP2 chunks, EOI: what a JPEG written
    /// from this HEIC would carry. A block too large for one JPEG segment is left out (and named
    /// in `headerNotes`).
    package var jpegHeader: [UInt8] {
        var header: [UInt8] = [0xFF, 0xD8]
        if let exif, exif.count <= JPEGHeaderSegments.maxPayload {
            header += JPEGHeaderSegments.segment(marker: 0xE1, payload: exif)
        }
        if let xmp, Self.xmpSignature.count + xmp.count <= JPEGHeaderSegments.maxPayload {
            header += JPEGHeaderSegments.segment(marker: 0xE1, payload: Self.xmpSignature + xmp)
        }
        if let icc = iccProfile, !icc.isEmpty {
            let chunks = stride(from: 0, to: icc.count, by: Self.iccChunkBytes).map {
                icc[$0..<min(icc.count, $0 + Self.iccChunkBytes)]
            }
            if chunks.count <= 255 {
                for (index, chunk) in chunks.enumerated() {
                    header += JPEGHeaderSegments.segment(
                        marker: 0xE2, payload: Self.iccSignature + [UInt8(index + 1), UInt8(chunks.count)] + chunk)
                }
            }
        }
        return header + [0xFF, 0xD9]
    }

    /// What `jpegHeader` had to leave out, one line each (with `notes`).
    package var headerNotes: [String] {
        var lines = notes
        if let exif, exif.count > JPEGHeaderSegments.maxPayload {
            lines.append("HEIF EXIF block is \(exif.count) bytes, over one JPEG segment; not carried")
        }
        if let xmp, Self.xmpSignature.count + xmp.count > JPEGHeaderSegments.maxPayload {
            lines.append("HEIF XMP packet is \(xmp.count) bytes, over one JPEG segment; not carried")
        }
        if let icc = iccProfile, icc.count > 255 * Self.iccChunkBytes {
            lines.append("HEIF ICC profile is \(icc.count) bytes, over 255 JPEG chunks; not carried")
        }
        return lines
    }

    /// The EXIF Orientation tag's value, informative in a HEIC; nil without one.
    package var exifOrientation: Int? { ExifOrientation.read(inJPEG: jpegHeader).value }
}
