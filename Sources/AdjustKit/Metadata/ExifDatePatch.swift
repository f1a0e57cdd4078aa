/// Writes the capture time the user set in Photos into an EXIF APP1 payload's own
/// `DateTimeOriginal` (0x9003) and, where the camera wrote one, `OffsetTimeOriginal` (0x9011) —
/// overwriting their value bytes in place, so that every other byte of the segment (every offset,
/// the MakerNote, the thumbnail) stays as it was. A reader that prefers EXIF to XMP (exiftool's
/// default priority, and photo servers built on it) then shows Photos' date, not the camera's.
///
/// Hand-written rather than through libexif: libexif re-lays the whole TIFF structure out when it
/// saves, which a byte copy of an original must not undergo (a vendor MakerNote that counts its
/// offsets from the TIFF header would point at the wrong bytes). Two fixed-length ASCII values are
/// patched; nothing is added: a file without `DateTimeOriginal` keeps none (the XMP has the date),
/// one without `OffsetTimeOriginal` gets none (the XMP has the offset).
enum ExifDatePatch {
    /// `payload` (starting `Exif\0\0`) with the two values set from `time` (`captureTime`), or nil
    /// when there is nothing to patch or the structure cannot be followed (it is then left as it is).
    static func patch(_ payload: [UInt8], time: (local: String, offset: String)) -> [UInt8]? {
        // "2021-10-02T15:15:00" → EXIF's "2021:10:02 15:15:00"; no zone known: the local time is unknown.
        guard time.offset != "Z", time.local.utf8.count == 19 else { return nil }
        let stamp = Array(time.local.utf8).map { $0 == UInt8(ascii: "-") ? UInt8(ascii: ":") : $0 == UInt8(ascii: "T") ? UInt8(ascii: " ") : $0 }
        let offset = Array(time.offset.utf8)
        let base = 6   // the TIFF header follows "Exif\0\0"
        guard payload.count >= base + 8, payload.starts(with: MetadataCarryOver.exifSignature) else { return nil }
        let little: Bool
        switch (payload[base], payload[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= payload.count else { return nil }
            return little ? Int(payload[at]) | Int(payload[at + 1]) << 8 : Int(payload[at]) << 8 | Int(payload[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return little ? first | second << 16 : first << 16 | second
        }
        /// (type, count, where the value is) of `tag` in the IFD at TIFF offset `ifd`.
        func entry(_ tag: Int, inIFD ifd: Int) -> (type: Int, count: Int, value: Int)? {
            guard let entries = u16(base + ifd), entries < 1000 else { return nil }
            for index in 0..<entries {
                let at = base + ifd + 2 + index * 12
                guard let found = u16(at), let type = u16(at + 2), let count = u32(at + 4) else { return nil }
                guard found == tag else { continue }
                // ASCII values over 4 bytes lie at the offset the entry holds.
                guard let value = count > 4 ? u32(at + 8).map({ base + $0 }) : at + 8 else { return nil }
                return (type, count, value)
            }
            return nil
        }
        guard let ifd0 = u32(base + 4), let exifPointer = entry(0x8769, inIFD: ifd0), let exifIFD = u32(exifPointer.value)
        else { return nil }
        var patched = payload, changed = false
        func write(_ text: [UInt8], tag: Int) {
            guard let found = entry(tag, inIFD: exifIFD), found.type == 2, found.count >= text.count + 1,
                  found.value + text.count <= patched.count else { return }
            patched.replaceSubrange(found.value..<(found.value + text.count), with: text)
            changed = true
        }
        write(stamp, tag: 0x9003)
        write(offset, tag: 0x9011)
        return changed ? patched : nil
    }
}
