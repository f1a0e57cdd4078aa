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

    /// `png` (the encoder's output) with the original's ICC profile and EXIF, and the provenance.
    static func carryOver(from original: [UInt8], into png: [UInt8], outputSize: PixelSize,
                          options: MetadataOptions) -> (png: [UInt8], warnings: [String]) {
        var chunks: [[UInt8]] = [], warnings: [String] = []
        var png = png
        if !options.stripAll {
            if let segments = JPEGHeaderSegments.walk(original) {
                if let profile = iccProfile(segments, warnings: &warnings) {
                    if let compressed = zlibCompressed(profile) {
                        chunks.append(PNGXMPChunk.chunk(type: "iCCP", data: Array(iccKeyword.utf8) + [0, 0] + compressed))
                        png = PNGXMPChunk.removing(["sRGB"], from: png)
                    } else {
                        warnings.append("metadata: zlib could not compress the ICC profile; ICC profile dropped")
                    }
                }
                let exifSignature = MetadataCarryOver.exifSignature
                if let exif = segments.first(where: { $0.marker == 0xE1 && $0.payload.starts(with: exifSignature) }) {
                    let (payload, warning) = ExifRewriter.rewrite(exif.payload, outputSize: outputSize, stripGPS: options.stripGPS)
                    if let payload { chunks.append(PNGXMPChunk.chunk(type: "eXIf", data: Array(payload.dropFirst(exifSignature.count)))) }
                    if let warning { warnings.append(warning) }
                }
            } else {
                warnings.append("metadata: the original's JPEG header is unreadable; no metadata carried")
            }
        }
        if let provenance = options.provenance {
            png = PNGXMPChunk.inserting(provenance.standalonePacket, into: png)
        }
        // Before the provenance's iTXt: iCCP first, as PNG wants colour information early.
        return (PNGXMPChunk.inserting(chunks, into: png), warnings)
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
