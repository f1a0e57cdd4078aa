import CZlib

/// What a PNG output carries of the original's metadata, read from the same JPEG-shaped header
/// `MetadataCarryOver` reads (a HEIC's blocks laid out as one, `HEICMetadata`), placed right
/// after IHDR:
/// - the **ICC profile**, when it describes RGB data (the rule of `MetadataCarryOver`: a CMYK or
///   grayscale profile is left out, the pixels being sRGB then), as an `iCCP` chunk: keyword
///   `ICC profile`, compression method 0, the profile zlib-compressed. The encoder's `sRGB`
///   chunk is removed then (PNG 3rd edition §11.3.2: not both);
/// - the **EXIF**, rewritten as for a JPEG (`ExifRewriter`: Orientation 1, the output's size,
///   no thumbnail, no GPS with `stripGPS`), as an `eXIf` chunk (the TIFF header and IFDs,
///   without the `Exif\0\0` of the JPEG segment).
/// Nothing with `stripAll`. The provenance, when given, follows as the XMP iTXt chunk
/// (`PNGXMPChunk`). Never fails the render: what cannot be read is left out with a warning.
enum PNGMetadata {
    /// The keyword of the iCCP chunk (1–79 Latin-1 characters; what libpng writes by default).
    static let iccKeyword = "ICC profile"

    /// The `sRGB` chunk libpng's simplified API wrote (rendering intent 0, perceptual), and
    /// `PNGRowWriter.inMemory` writes: the pixels are sRGB unless an ICC profile says otherwise.
    static let sRGB = PNGChunk(type: "sRGB", data: [0])

    /// `png` (the encoder's output to memory: `PNGRowWriter.inMemory`, `PNGCodec.encode`) with the
    /// original's ICC profile and EXIF, and the provenance.
    static func carryOver(from original: [UInt8], into png: [UInt8], outputSize: PixelSize,
                          options: MetadataOptions) -> (png: [UInt8], warnings: [String]) {
        let header = chunks(from: original, outputSize: outputSize, options: options)
        let png = header.hasProfile ? PNGXMPChunk.removing(["sRGB"], from: png) : png
        return (PNGXMPChunk.inserting(header.chunks.map { PNGXMPChunk.chunk(type: $0.type, data: $0.data) }, into: png),
                header.warnings)
    }

    /// What follows IHDR in a PNG output, in order: `iCCP`, `eXIf`, the provenance's `iTXt` (each
    /// when there is one), then `sRGB` unless there is an `iCCP` — the chunks `carryOver` gives the
    /// encoder's output, for a writer that puts them in the file before its first row.
    static func headerChunks(from original: [UInt8], outputSize: PixelSize,
                             options: MetadataOptions) -> (chunks: [PNGChunk], warnings: [String]) {
        let header = chunks(from: original, outputSize: outputSize, options: options)
        return (header.chunks + (header.hasProfile ? [] : [sRGB]), header.warnings)
    }

    /// The chunks carried over, in order (iCCP first, as PNG wants colour information early;
    /// the provenance's iTXt last), and whether an iCCP is among them.
    private static func chunks(from original: [UInt8], outputSize: PixelSize,
                               options: MetadataOptions) -> (chunks: [PNGChunk], hasProfile: Bool, warnings: [String]) {
        var chunks: [PNGChunk] = [], warnings: [String] = [], hasProfile = false
        if !options.stripAll {
            if let segments = JPEGHeaderSegments.walk(original) {
                if let profile = iccProfile(segments, warnings: &warnings) {
                    if let compressed = zlibCompressed(profile) {
                        chunks.append(PNGChunk(type: "iCCP", data: Array(iccKeyword.utf8) + [0, 0] + compressed))
                        hasProfile = true
                    } else {
                        warnings.append("metadata: zlib could not compress the ICC profile; ICC profile dropped")
                    }
                }
                let exifSignature = MetadataCarryOver.exifSignature
                if let exif = segments.first(where: { $0.marker == 0xE1 && $0.payload.starts(with: exifSignature) }) {
                    let (payload, warning) = ExifRewriter.rewrite(exif.payload, outputSize: outputSize, stripGPS: options.stripGPS)
                    if let payload { chunks.append(PNGChunk(type: "eXIf", data: Array(payload.dropFirst(exifSignature.count)))) }
                    if let warning { warnings.append(warning) }
                }
            } else {
                warnings.append("metadata: the original's JPEG header is unreadable; no metadata carried")
            }
        }
        if let provenance = options.provenance {
            chunks.append(PNGChunk(type: "iTXt", data: PNGXMPChunk.data(provenance.standalonePacket)))
        }
        return (chunks, hasProfile, warnings)
    }

    /// The RGB profile reassembled from the ICC_PROFILE APP2 chunks, or nil (none, not RGB, or
    /// inconsistent chunks, with a warning).
    private static func iccProfile(_ segments: [JPEGHeaderSegment], warnings: inout [String]) -> [UInt8]? {
        let signature = MetadataCarryOver.iccSignature
        let chunks = segments.filter { $0.marker == 0xE2 && $0.payload.starts(with: signature) }
        guard !chunks.isEmpty else { return nil }
        guard let ordered = MetadataCarryOver.orderedICCChunks(chunks) else {
            warnings.append("metadata: the original's ICC profile chunks are inconsistent; ICC profile dropped")
            return nil
        }
        guard MetadataCarryOver.describesRGB(ordered) else { return nil }
        return ordered.flatMap { $0.payload.dropFirst(signature.count + 2) }
    }

    /// A zlib stream (RFC 1950) of `bytes`, or nil when zlib fails.
    static func zlibCompressed(_ bytes: [UInt8]) -> [UInt8]? {
        var size = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &size, input.baseAddress, uLong(bytes.count), 9)
            }
        }
        guard status == Z_OK else { return nil }
        return Array(output.prefix(Int(size)))
    }
}

/// One PNG chunk's type (four ASCII letters) and data; its length and CRC are the writer's.
struct PNGChunk: Equatable {
    let type: String
    let data: [UInt8]
}
