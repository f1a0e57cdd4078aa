/// A photo's original file, by what its bytes are (never by its name): a JPEG, or a HEIC/HEIF
/// with its header already read (size limits checked, orientation and metadata known).
public enum OriginalImage: Sendable {
    case jpeg([UInt8])
    case heic([UInt8], HEICHeader)

    /// Sniffs `bytes`: an ISO BMFF `ftyp` with a HEIF brand is read as a HEIC through `heic`
    /// (which checks the size limits); anything else is left for the JPEG decoder to accept or
    /// refuse.
    public init(bytes: [UInt8], heic: HEICDecoder = HEICDecoder()) throws(HEICError) {
        self = HEICDecoder.isHEIF(bytes) ? .heic(bytes, try heic.header(of: bytes)) : .jpeg(bytes)
    }

    /// The whole file.
    public var bytes: [UInt8] {
        switch self {
        case .jpeg(let bytes), .heic(let bytes, _): return bytes
        }
    }

    /// "JPEG" or "HEIC", for messages and reports.
    public var formatName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .heic: return "HEIC"
        }
    }

    /// The original's metadata as a JPEG header: the JPEG itself, or a HEIC's EXIF, XMP and ICC
    /// profile laid out as APPn segments (`HEICMetadata.jpegHeader`), so that orientation,
    /// embedded-edit and carry-over code written for JPEG reads both.
    public var metadataJPEG: [UInt8] {
        switch self {
        case .jpeg(let bytes): return bytes
        case .heic(_, let header): return header.metadata.jpegHeader
        }
    }

    /// Whether the decoder can decode at a reduced DCT scale (JPEG) or decodes whole (HEIC).
    public var hasScaledDecode: Bool {
        if case .jpeg = self { return true }
        return false
    }
}
