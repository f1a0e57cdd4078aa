/// What `MetadataCarryOver` carries from the original into a rendered JPEG.
public struct MetadataOptions: Sendable {
    /// Drop the EXIF GPS IFD (every GPS tag). XMP is not searched for location properties.
    public var stripGPS = false
    /// Carry nothing: the rendered JPEG is left exactly as the encoder wrote it (but for
    /// `provenance`, when given).
    public var stripAll = false
    /// What the output was made from, recorded in its XMP (`Provenance`); nil records nothing.
    /// Written with `stripAll` too, as the only metadata, and into PNG outputs as an iTXt chunk.
    package var provenance: Provenance?
    /// Leave the original's XMP out without a word: the edit reader already said it could not
    /// read it (`EditSource.unreadableXMP`), so the one warning is that one. Set by `PhotoEdit`.
    var leaveOutXMP = false
    /// What the user set in Photos, written into the output's XMP over the original's own
    /// (`LibraryMetadataXMP`); nil writes none (`--metadata file`, or not a library photo).
    package var library: LibraryMetadataXMP?

    /// Defaults: carry everything, GPS included.
    public init(stripGPS: Bool = false, stripAll: Bool = false) {
        self.init(stripGPS: stripGPS, stripAll: stripAll, provenance: nil)
    }

    /// With a provenance record to write into the output's XMP (`adjust batch`).
    package init(stripGPS: Bool = false, stripAll: Bool = false, provenance: Provenance?) {
        self.stripGPS = stripGPS
        self.stripAll = stripAll
        self.provenance = provenance
    }
}

/// Copies the original photo's metadata into a rendered JPEG, rewritten so that it describes the
/// rendered picture.
///
/// Carried, in this order after the encoder's SOI and JFIF APP0:
/// - **EXIF** (the first `Exif\0\0` APP1), rewritten with libexif: IFD0 Orientation set to 1
///   when present (the pixels are upright now); ExifImageWidth/Height (PixelXDimension/
///   PixelYDimension, 0xA002/0xA003, added if absent) and, if present, IFD0 ImageWidth/
///   ImageLength set to the output size; IFD1 and its embedded thumbnail removed (it shows the
///   unedited picture); the GPS IFD removed with `stripGPS`. All other entries keep their value
///   bytes (Make, Model, DateTimeOriginal and GPS read byte-identical), but for DateTimeOriginal
///   and OffsetTimeOriginal with a `library` (the time the user set in Photos: `ExifDatePatch`).
///   The MakerNote is copied raw; vendors whose MakerNote offsets count from the TIFF header may
///   not survive the move.
/// - **XMP** (the standard `http://ns.adobe.com/xap/1.0/` APP1), with every aas property
///   (`http://ns.apple.com/adjustment-settings/1.0/`) removed so the edit is never applied
///   twice, `xmpNote:HasExtendedXMP` removed, and tiff:Orientation, tiff:ImageWidth/ImageLength,
///   exif:PixelXDimension/PixelYDimension updated where present. crs: properties (including
///   crs:AlreadyApplied) and everything else are kept. With a `library`, the properties it
///   writes replace the file's own (`LibraryMetadataXMP`). Without any change the packet is carried
///   byte-identical; when nothing but empty rdf:Descriptions would be left it is dropped.
/// - **ICC profile** (`ICC_PROFILE\0` APP2 chunks), byte-identical, in sequence order — when it
///   describes RGB data. A CMYK or grayscale profile is left out without a word: the rendered
///   pixels are sRGB (a CMYK JPEG is converted to sRGB through its profile by the decoder, a
///   grayscale one expanded), which a JPEG without a profile is taken to be.
///
/// Dropped: Extended XMP (`http://ns.adobe.com/xmp/extension/` APP1s; a warning says so), and
/// every other APPn segment — MPF (APP2: its offsets describe the original file), Photoshop/IPTC
/// (APP13), Adobe (APP14), JFIF/JFXX of the original (APP0) and the rest — as well as COM
/// segments.
package enum MetadataCarryOver {
    static let exifSignature = Array("Exif\0\0".utf8)
    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    private static let extendedXMPSignature = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    static let iccSignature = Array("ICC_PROFILE\0".utf8)

    /// Returns `encoded` (a JPEG just written by TurboJPEG, SOI + JFIF APP0 + …) with the
    /// original's metadata segments inserted after SOI and any APP0 segments (JFIF requires its
    /// APP0 to come first). See the type's documentation for what is carried and what is dropped.
    /// With `options.stripAll` nothing is carried and `encoded` comes back unchanged.
    ///
    /// Never throws and never fails the render: metadata that cannot be read or rewritten (a
    /// broken segment structure, EXIF libexif cannot load, XMP that is not well-formed or has a
    /// DOCTYPE, a rewritten segment over 65 533 bytes, inconsistent ICC chunks) is dropped and a
    /// one-line warning is returned for it.
    package static func carryOver(from original: [UInt8], into encoded: [UInt8], outputSize: PixelSize,
                                 options: MetadataOptions) -> (jpeg: [UInt8], warnings: [String]) {
        if options.stripAll && options.provenance == nil { return (encoded, []) }
        guard let encodedSegments = JPEGHeaderSegments.walk(encoded) else {
            return (encoded, ["metadata: the encoded JPEG's structure is unreadable; no metadata carried"])
        }
        var warnings: [String] = []
        let segments: [JPEGHeaderSegment]
        if options.stripAll {
            segments = []
        } else if let walked = JPEGHeaderSegments.walk(original) {
            segments = walked
        } else {
            segments = []
            warnings.append("metadata: the original's JPEG header is unreadable; no metadata carried")
        }
        var inserted: [UInt8] = []

        // EXIF
        if let exif = segments.first(where: { $0.marker == 0xE1 && $0.payload.starts(with: exifSignature) }) {
            var (payload, warning) = ExifRewriter.rewrite(exif.payload, outputSize: outputSize, stripGPS: options.stripGPS)
            // The capture time the user set in Photos, over the camera's (in place: ExifDatePatch).
            if let rewritten = payload, let time = options.library?.metadata.captureTime,
               let patched = ExifDatePatch.patch(rewritten, time: time) { payload = patched }
            if let payload { inserted += JPEGHeaderSegments.segment(marker: 0xE1, payload: payload) }
            if let warning { warnings.append(warning) }
        }

        // XMP, with the provenance when one is given
        var carried: [UInt8]?
        if !options.leaveOutXMP, let xmp = segments.first(where: { $0.marker == 0xE1 && $0.payload.starts(with: xmpSignature) }) {
            let packet = Array(xmp.payload.dropFirst(xmpSignature.count))
            switch XMPRewriter.rewrite(packet, outputSize: outputSize, provenance: options.provenance, library: options.library) {
            case .unchanged: carried = packet
            case .rewritten(let bytes): carried = bytes
            case .empty: carried = nil
            case .failed(let warning): warnings.append(warning)
            }
            if let bytes = carried, xmpSignature.count + bytes.count > JPEGHeaderSegments.maxPayload {
                warnings.append("metadata: rewritten XMP is \(bytes.count) bytes, over one JPEG segment; XMP dropped")
                carried = nil
            }
        }
        if carried == nil, let library = options.library, !library.isEmpty {
            carried = library.standalonePacket(provenance: options.provenance)
        }
        if carried == nil, let provenance = options.provenance { carried = provenance.standalonePacket }
        if let carried { inserted += JPEGHeaderSegments.segment(marker: 0xE1, payload: xmpSignature + carried) }
        if segments.contains(where: { $0.marker == 0xE1 && $0.payload.starts(with: extendedXMPSignature) }) {
            warnings.append("metadata: Extended XMP is not carried over; dropped")
        }

        // ICC profile
        let iccChunks = segments.filter { $0.marker == 0xE2 && $0.payload.starts(with: iccSignature) }
        if !iccChunks.isEmpty {
            if let ordered = orderedICCChunks(iccChunks) {
                if describesRGB(ordered) {
                    for chunk in ordered { inserted += JPEGHeaderSegments.segment(marker: 0xE2, payload: chunk.payload) }
                }
            } else {
                warnings.append("metadata: the original's ICC profile chunks are inconsistent; ICC profile dropped")
            }
        }

        guard !inserted.isEmpty else { return (encoded, warnings) }
        // After SOI and the encoder's leading APP0 segments (JFIF, JFXX).
        var insertAt = 2
        for segment in encodedSegments {
            guard segment.marker == 0xE0 else { break }
            insertAt = segment.range.upperBound
        }
        var jpeg = [UInt8]()
        jpeg.reserveCapacity(encoded.count + inserted.count)
        jpeg += encoded[..<insertAt]
        jpeg += inserted
        jpeg += encoded[insertAt...]
        return (jpeg, warnings)
    }

    /// Whether the profile's data colour space (header bytes 16..<20, ICC.1 §7.2.6) is 'RGB '.
    static func describesRGB(_ ordered: [JPEGHeaderSegment]) -> Bool {
        let profile = ordered.flatMap { $0.payload.dropFirst(iccSignature.count + 2) }
        return profile.count >= 20 && Array(profile[16..<20]) == Array("RGB ".utf8)
    }

    /// The ICC chunks sorted by their sequence number (byte 12, from 1), or nil unless they are
    /// exactly chunks 1…n of n (byte 13) with n at least 1.
    static func orderedICCChunks(_ chunks: [JPEGHeaderSegment]) -> [JPEGHeaderSegment]? {
        let header = iccSignature.count + 2
        guard chunks.allSatisfy({ $0.payload.count > header }) else { return nil }
        let count = chunks[0].payload[chunks[0].payload.startIndex + iccSignature.count + 1]
        guard count >= 1, Int(count) == chunks.count,
              chunks.allSatisfy({ $0.payload[$0.payload.startIndex + iccSignature.count + 1] == count }) else { return nil }
        let sorted = chunks.sorted {
            $0.payload[$0.payload.startIndex + iccSignature.count] < $1.payload[$1.payload.startIndex + iccSignature.count]
        }
        for (index, chunk) in sorted.enumerated() where Int(chunk.payload[chunk.payload.startIndex + iccSignature.count]) != index + 1 {
            return nil
        }
        return sorted
    }
}
