/// The header segments of a JPEG (everything between SOI and SOS), walked in pure Swift for
/// metadata carry-over. Unlike `JPEGSegments` in XMPParse, which returns APP1 payloads only, this
/// keeps every segment's marker and byte range so that segments can be copied or inserted.
struct JPEGHeaderSegment {
    /// The marker byte (0xE0 for APP0, 0xE1 for APP1, …).
    var marker: UInt8
    /// The bytes after the 2-byte length field.
    var payload: ArraySlice<UInt8>
    /// The whole segment, from its 0xFF marker byte to the end of its payload.
    var range: Range<Int>
}

enum JPEGHeaderSegments {
    /// Largest payload one marker segment can hold: the 16-bit length counts its own two bytes.
    static let maxPayload = 65_533

    /// Every segment from SOI up to SOS or EOI, in file order; nil when `jpeg` has no SOI or its
    /// header structure is broken (truncated segment, a second SOI where a marker must be).
    /// Stray bytes before a marker (0xFF00 among them) and fill bytes are skipped, as libjpeg
    /// skips them, a segment whose length is under 2 is skipped as libjpeg skips it (its length
    /// field only), and the standalone markers TEM and RST0–7 carry no length. Never reads past
    /// the end of `jpeg`.
    static func walk(_ jpeg: [UInt8]) -> [JPEGHeaderSegment]? {
        guard jpeg.count >= 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var segments: [JPEGHeaderSegment] = []
        var position = 2
        while true {
            // Stray bytes before a marker are skipped, as libjpeg (and XMPParse's JPEGSegments) do.
            while position < jpeg.count, jpeg[position] != 0xFF { position += 1 }
            let start = position
            guard position < jpeg.count else { return nil }
            while position < jpeg.count, jpeg[position] == 0xFF { position += 1 }
            guard position < jpeg.count else { return nil }
            let marker = jpeg[position]
            position += 1
            switch marker {
            case 0xDA, 0xD9:
                return segments
            case 0x01, 0xD0...0xD7:
                continue
            case 0x00:
                continue // skipped as libjpeg skips it: see JPEGSegments
            case 0xD8:
                return nil
            default:
                guard position + 2 <= jpeg.count else { return nil }
                let length = Int(jpeg[position]) << 8 | Int(jpeg[position + 1])
                // Under 2 (its own two bytes): no payload, and the walk resynchronises at the
                // next marker, as libjpeg (and JPEGSegments) do; the segment is not carried.
                guard length >= 2 else { position += 2; continue }
                guard position + length <= jpeg.count else { return nil }
                segments.append(JPEGHeaderSegment(marker: marker, payload: jpeg[(position + 2)..<(position + length)],
                                                  range: start..<(position + length)))
                position += length
            }
        }
    }

    /// A complete marker segment: 0xFF, `marker`, the big-endian length, `payload`. The caller
    /// keeps `payload` within `maxPayload`.
    static func segment(marker: UInt8, payload: some Collection<UInt8>) -> [UInt8] {
        precondition(payload.count <= maxPayload, "JPEG segment payload over 65 533 bytes")
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
