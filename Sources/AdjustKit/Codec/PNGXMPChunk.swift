import CZlib

/// The XMP packet of a PNG: an uncompressed `iTXt` chunk with the keyword `XML:com.adobe.xmp`
/// (XMP Specification Part 3, §1.1.5), placed right after IHDR.
///
/// A PNG in memory (`PNGRowWriter.inMemory`, `PNGCodec.encode`) gets its chunks inserted here by
/// hand, a chunk being four fields and a CRC (zlib's `crc32`); a PNG streamed into its file has
/// the same chunks written by libpng (`PNGRowWriter.writeChunk`) before its first row.
enum PNGXMPChunk {
    private static let keyword = Array("XML:com.adobe.xmp".utf8)
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The signature, then IHDR: length 13, type, data, CRC.
    private static let ihdrEnd = 8 + 4 + 4 + 13 + 4

    /// `png` with an iTXt chunk holding `packet` after its IHDR; `png` unchanged when it does not
    /// start with a signature and IHDR (never the case for the encoder's output).
    static func inserting(_ packet: [UInt8], into png: [UInt8]) -> [UInt8] {
        inserting([chunk(type: "iTXt", data: data(packet))], into: png)
    }

    /// The iTXt chunk's data for `packet`: keyword, NUL, compression flag 0, method 0, empty
    /// language tag + NUL, empty translated keyword + NUL, the packet.
    static func data(_ packet: [UInt8]) -> [UInt8] {
        keyword + [0, 0, 0, 0, 0] + packet
    }

    /// `png` with `chunks` (whole chunks, as `chunk(type:data:)` makes them) right after its
    /// IHDR, in order; `png` unchanged when it does not start with a signature and IHDR.
    static func inserting(_ chunks: [[UInt8]], into png: [UInt8]) -> [UInt8] {
        guard !chunks.isEmpty, png.count >= ihdrEnd, png.starts(with: signature),
              Array(png[12..<16]) == Array("IHDR".utf8) else { return png }
        return Array(png[..<ihdrEnd]) + chunks.flatMap { $0 } + png[ihdrEnd...]
    }

    /// A whole chunk: length, type, data, CRC (zlib's `crc32` over type and data).
    static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        let type = Array(type.utf8)
        let crc = (type + data).withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return bigEndian(UInt32(data.count)) + type + data + bigEndian(crc)
    }

    /// `png` without its chunks of the given types that come before the image data (the encoder
    /// writes `sRGB`, which a PNG with an `iCCP` must not have); `png` unchanged when its chunk
    /// structure runs past its end.
    static func removing(_ types: Set<String>, from png: [UInt8]) -> [UInt8] {
        guard png.starts(with: signature) else { return png }
        var output = Array(png[..<8])
        var position = 8
        while position + 12 <= png.count {
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8
                | Int(png[position + 3])
            let type = String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self)
            let end = position + 12 + length
            guard end <= png.count else { return png }
            if type == "IDAT" { break }
            if !types.contains(type) { output += png[position..<end] }
            position = end
        }
        return output + png[position...]
    }

    /// The text of the first XMP iTXt chunk before the image data, or nil (none, compressed, or a
    /// chunk structure that runs past the end of `png`).
    static func packet(in png: [UInt8]) -> [UInt8]? {
        guard png.starts(with: signature) else { return nil }
        var position = 8
        while position + 8 <= png.count {
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8
                | Int(png[position + 3])
            let type = String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self)
            let dataStart = position + 8
            guard length >= 0, dataStart + length <= png.count else { return nil }
            if type == "IDAT" || type == "IEND" { return nil }
            let data = png[dataStart..<(dataStart + length)]
            if type == "iTXt", data.starts(with: keyword + [0]) {
                var rest = data.dropFirst(keyword.count + 1)
                guard rest.count >= 2, rest[rest.startIndex] == 0 else { return nil }   // compressed: not ours
                rest = rest.dropFirst(2)
                for _ in 0..<2 {   // language tag, translated keyword
                    guard let nul = rest.firstIndex(of: 0) else { return nil }
                    rest = rest[(nul + 1)...]
                }
                return Array(rest)
            }
            position = dataStart + length + 4
        }
        return nil
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
