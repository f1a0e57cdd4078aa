/// Normalizes packet text to UTF-8 before anything inspects it.
///
/// XMP allows UTF-8, UTF-16 and UTF-32. Decoding here, and then making libxml2 read UTF-8 with
/// the document's encoding declaration ignored, means the byte-level safety scans and libxml2 see
/// exactly the same characters: no declared encoding (UTF-7, EBCDIC, ISO-2022, …) can hide markup
/// from the scans. Other encodings are not valid XMP and fail as malformed UTF-8 in libxml2.
enum XMLTextEncoding {
    private enum Form {
        case utf8(bomLength: Int)
        case utf16(bigEndian: Bool, bomLength: Int)
        case utf32(bigEndian: Bool, bomLength: Int)
    }

    /// `bytes` as UTF-8 without a byte order mark.
    static func utf8(from bytes: [UInt8]) throws(XMPError) -> [UInt8] {
        switch detectForm(bytes) {
        case .utf8(let bomLength):
            return bomLength == 0 ? bytes : Array(bytes.dropFirst(bomLength))
        case .utf16(let bigEndian, let bomLength):
            let body = bytes.dropFirst(bomLength)
            guard body.count % 2 == 0 else { throw .invalidEncoding("UTF-16") }
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var index = body.startIndex
            while index < body.endIndex {
                let first = UInt16(body[index]), second = UInt16(body[index + 1])
                units.append(bigEndian ? first << 8 | second : second << 8 | first)
                index += 2
            }
            return try transcode(units, from: UTF16.self, name: "UTF-16")
        case .utf32(let bigEndian, let bomLength):
            let body = bytes.dropFirst(bomLength)
            guard body.count % 4 == 0 else { throw .invalidEncoding("UTF-32") }
            var units: [UInt32] = []
            units.reserveCapacity(body.count / 4)
            var index = body.startIndex
            while index < body.endIndex {
                let word = body[index..<(index + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                units.append(bigEndian ? word : word.byteSwapped)
                index += 4
            }
            return try transcode(units, from: UTF32.self, name: "UTF-32")
        }
    }

    /// Byte order marks first, then the `<?` / `<` patterns of XML 1.0 Appendix F (the same
    /// autodetection libxml2 performs); everything else is taken as UTF-8.
    private static func detectForm(_ bytes: [UInt8]) -> Form {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return .utf32(bigEndian: true, bomLength: 4)
        case (0xFF, 0xFE, 0x00, 0x00): return .utf32(bigEndian: false, bomLength: 4)
        case (0x00, 0x00, 0x00, 0x3C): return .utf32(bigEndian: true, bomLength: 0)
        case (0x3C, 0x00, 0x00, 0x00): return .utf32(bigEndian: false, bomLength: 0)
        case (0xFE, 0xFF, _, _): return .utf16(bigEndian: true, bomLength: 2)
        case (0xFF, 0xFE, _, _): return .utf16(bigEndian: false, bomLength: 2)
        case (0x00, 0x3C, 0x00, 0x3F): return .utf16(bigEndian: true, bomLength: 0)
        case (0x3C, 0x00, 0x3F, 0x00): return .utf16(bigEndian: false, bomLength: 0)
        case (0xEF, 0xBB, 0xBF, _): return .utf8(bomLength: 3)
        default: return .utf8(bomLength: 0)
        }
    }

    private static func transcode<Codec: UnicodeCodec>(
        _ units: [Codec.CodeUnit], from codec: Codec.Type, name: String
    ) throws(XMPError) -> [UInt8] where Codec.CodeUnit: UnsignedInteger {
        var output: [UInt8] = []
        output.reserveCapacity(units.count * 2)
        let failed = Swift.transcode(units.makeIterator(), from: codec, to: UTF8.self, stoppingOnError: true) {
            output.append($0)
        }
        guard !failed else { throw .invalidEncoding(name) }
        return output
    }
}
