/// A byte copy of a JPEG whose XMP is rewritten to carry what the user set in Photos
/// (`LibraryMetadataXMP`): every byte from SOS to EOI, and every other header segment (EXIF,
/// ICC, MPF…), is the original's, so the picture is exactly the original's. Only the standard XMP
/// APP1 segment changes (added after SOI, JFIF and EXIF when the original has none), and, inside
/// the EXIF segment, the bytes of `DateTimeOriginal` and `OffsetTimeOriginal`, overwritten in
/// place with Photos' capture time (`ExifDatePatch`: the segment keeps its length and layout).
package enum JPEGCopyXMP {
    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    /// `original` with its XMP carrying `library`; nil when it cannot be done without touching
    /// anything else (a header that cannot be walked, an XMP that cannot be parsed, a packet over
    /// one segment): the caller then copies the bytes unchanged and writes a sidecar.
    package static func copy(_ source: [UInt8], with library: LibraryMetadataXMP) -> [UInt8]? {
        guard let segments = JPEGHeaderSegments.walk(source) else { return nil }
        var original = source
        if let time = library.metadata.captureTime,
           let exif = segments.first(where: { $0.marker == 0xE1 && $0.payload.starts(with: MetadataCarryOver.exifSignature) }),
           let patched = ExifDatePatch.patch(Array(exif.payload), time: time) {
            // Same length: every segment's range stays where the walk found it.
            original.replaceSubrange(exif.payload.startIndex..<exif.payload.endIndex, with: patched)
        }
        let existing = segments.first { $0.marker == 0xE1 && $0.payload.starts(with: xmpSignature) }
        let packet: [UInt8]
        if let existing {
            switch XMPRewriter.rewrite(Array(existing.payload.dropFirst(xmpSignature.count)), outputSize: nil, library: library) {
            case .rewritten(let bytes): packet = bytes
            case .unchanged: return original
            case .empty, .failed: return nil
            }
        } else {
            guard let bytes = library.standalonePacket() else { return nil }
            packet = bytes
        }
        guard xmpSignature.count + packet.count <= JPEGHeaderSegments.maxPayload else { return nil }
        let segment = JPEGHeaderSegments.segment(marker: 0xE1, payload: xmpSignature + packet)
        let range: Range<Int>
        if let existing {
            range = existing.range
        } else {
            // After SOI and the leading JFIF (APP0) and EXIF (APP1) segments, which readers expect first.
            var at = 2
            for header in segments {
                guard header.marker == 0xE0 || (header.marker == 0xE1 && header.payload.starts(with: MetadataCarryOver.exifSignature))
                else { break }
                at = header.range.upperBound
            }
            range = at..<at
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(original.count + segment.count)
        bytes += original[..<range.lowerBound]
        bytes += segment
        bytes += original[range.upperBound...]
        return bytes
    }
}
