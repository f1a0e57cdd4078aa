/// Finds metadata segments in a JPEG by walking its marker structure in pure Swift, without
/// decoding any image data.
public enum JPEGSegments {
    private static let startOfImage: UInt8 = 0xD8
    private static let endOfImage: UInt8 = 0xD9
    private static let startOfScan: UInt8 = 0xDA
    private static let app1: UInt8 = 0xE1
    /// "http://ns.adobe.com/xap/1.0/" plus its NUL terminator: the standard XMP APP1 signature.
    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// "Exif" plus two NULs: the Exif APP1 signature.
    private static let exifSignature = Array("Exif\0\0".utf8)

    /// The payloads (bytes after the 2-byte length) of every APP1 segment, in file order.
    /// `scan(_:)` without its warnings.
    public static func app1Payloads(in jpeg: [UInt8]) throws(XMPError) -> [ArraySlice<UInt8>] {
        try scan(jpeg).app1Payloads
    }

    /// What a walk of a JPEG's header segments found.
    public struct Scan: Sendable {
        /// The payloads (bytes after the 2-byte length) of every APP1 segment, in file order.
        public var app1Payloads: [ArraySlice<UInt8>]
        /// Where the walk had to resynchronise as libjpeg does (a segment length under 2), one
        /// line each.
        public var warnings: [String]

        /// The standard XMP packet: the payload after `http://ns.adobe.com/xap/1.0/\0` in the
        /// first APP1 that starts with it; nil if there is none.
        public var xmpPacket: [UInt8]? {
            app1Payloads.first { $0.starts(with: xmpSignature) }.map { Array($0.dropFirst(xmpSignature.count)) }
        }
    }

    /// Walks the header segments from SOI up to SOS or EOI, as libjpeg's marker reader
    /// (jdmarker.c, `next_marker`) reads them, so that it never refuses a header libjpeg reads:
    /// stray bytes between segments and fill bytes (0xFF runs) are skipped, as libjpeg skips them
    /// (its own warning, "N extraneous bytes before marker", names them when the image is
    /// decoded); the standalone markers TEM and RST0–7 carry no length; a segment whose length
    /// is under 2 (it counts its own two bytes) is read as libjpeg's `skip_variable` reads it,
    /// as no payload, and the walk resynchronises at the next 0xFF marker, with a warning.
    /// Never reads past the end of `jpeg` (xmp-format.md §8, jpeg-input.md).
    /// - Throws: `XMPError.notAJPEG` without an SOI marker; `XMPError.truncatedJPEGSegment` when a
    ///   segment runs past the end or the data ends before SOS/EOI; `XMPError.badJPEGMarker` for a
    ///   second SOI where a marker must be. libjpeg refuses each of these too.
    public static func scan(_ jpeg: [UInt8]) throws(XMPError) -> Scan {
        guard jpeg.count >= 2, jpeg[0] == 0xFF, jpeg[1] == startOfImage else { throw .notAJPEG }
        var result = Scan(app1Payloads: [], warnings: [])
        var position = 2
        while true {
            let markerOffset = position
            // Bytes before a marker are skipped, as libjpeg's next_marker skips them (with a
            // warning that leaves the pixels intact): real cameras and editors leave some.
            while position < jpeg.count, jpeg[position] != 0xFF { position += 1 }
            guard position < jpeg.count else { throw .truncatedJPEGSegment(offset: markerOffset) }
            let markerStart = position
            while position < jpeg.count, jpeg[position] == 0xFF { position += 1 }
            guard position < jpeg.count else { throw .truncatedJPEGSegment(offset: markerOffset) }
            let marker = jpeg[position]
            position += 1

            switch marker {
            case startOfScan, endOfImage:
                return result
            case 0x01, 0xD0...0xD7:
                continue
            case 0x00:
                // Not a marker: libjpeg's next_marker counts 0xFF00 among the stray bytes it skips.
                continue
            case startOfImage:
                // A second SOI is nonsense among the header segments.
                throw .badJPEGMarker(offset: markerOffset)
            default:
                guard position + 2 <= jpeg.count else { throw .truncatedJPEGSegment(offset: markerOffset) }
                let length = Int(jpeg[position]) << 8 | Int(jpeg[position + 1])
                guard length >= 2 else {
                    // libjpeg skips `length - 2` bytes, none, and finds the next marker after
                    // the stray bytes that follow.
                    result.warnings.append("JPEG segment 0x\(hex(marker)) at offset \(markerStart) declares a length of "
                        + "\(length), under its own 2 bytes; the metadata scan resumed at the next marker, as libjpeg does")
                    position += 2
                    continue
                }
                guard position + length <= jpeg.count else { throw .truncatedJPEGSegment(offset: markerOffset) }
                if marker == app1 {
                    result.app1Payloads.append(jpeg[(position + 2)..<(position + length)])
                }
                position += length
            }
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    /// The standard XMP packet: the payload after `http://ns.adobe.com/xap/1.0/\0` in the first
    /// APP1 that starts with it; nil if there is none. Extended XMP segments are ignored.
    public static func xmpPacket(in jpeg: [UInt8]) throws(XMPError) -> [UInt8]? {
        try scan(jpeg).xmpPacket
    }

    /// The first Exif APP1 payload, including its 6-byte `Exif\0\0` header (the form libexif's
    /// `exif_data_load_data` accepts); nil if there is none.
    public static func exifPayload(in jpeg: [UInt8]) throws(XMPError) -> [UInt8]? {
        let payload = try app1Payloads(in: jpeg).first { $0.starts(with: exifSignature) }
        return payload.map { Array($0) }
    }
}
