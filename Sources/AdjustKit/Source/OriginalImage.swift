/// A photo's original file, by what its bytes are (never by its name): a JPEG, or a HEIC/HEIF
/// with its header already read (size limits checked, orientation and metadata known).
///
/// Made from a path (`init(path:)`, what `PhotoEdit` does), only the file's head is held — a
/// JPEG's header segments, for its size, orientation, embedded edit and metadata carry-over — and
/// a render reads the rest from the file as the decoder consumes it (`OriginalBytes`). Made from
/// bytes (`init(bytes:)`), it holds them all.
package enum OriginalImage: Sendable {
    case jpeg(OriginalBytes)
    case heic(OriginalBytes, HEICHeader)

    /// Sniffs `bytes`: an ISO BMFF `ftyp` with a HEIF brand is read as a HEIC through `heic`
    /// (which checks the size limits); anything else is left for the JPEG decoder to accept or
    /// refuse.
    package init(bytes: [UInt8], heic: HEICDecoder = HEICDecoder()) throws(HEICError) {
        self = HEICDecoder.isHEIF(bytes) ? .heic(OriginalBytes(bytes), try heic.header(of: bytes)) : .jpeg(OriginalBytes(bytes))
    }

    /// Opens the file at `path` and reads its head only, sniffed as `init(bytes:)` sniffs: a
    /// HEIC's header through `heic` (libheif reading the file as it asks, the `meta` box held), or
    /// a JPEG's header segments (`OriginalBytes.head`). A missing file, a directory, or one over
    /// `limit` bytes is refused before anything is read (kind `.unreadable`, or `.invalidContent`
    /// for the limit); a HEIC libheif refuses is `.invalidContent` with the `HEICError` as cause.
    /// The file is not kept open: a render opens it again and refuses it if it changed since.
    package init(path: String, limit: Int = InputLimits.defaultMaxInputBytes,
                heic: HEICDecoder = HEICDecoder()) throws(FileError) {
        let file = try InputFile.open(path, limit: limit)
        var head: [UInt8] = []
        try file.append(upTo: 16, to: &head)
        // HEICDecoder.isHEIF reads the ftyp box (its 32-bit size, at least 16 bytes) and no further.
        if head.count >= 16, head[4..<8].elementsEqual("ftyp".utf8) {
            let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            try file.append(upTo: max(16, size), to: &head)
        }
        if HEICDecoder.isHEIF(head) {
            self = .heic(OriginalBytes(file: file, head: head), try heic.header(ofFile: file))
        } else {
            self = .jpeg(OriginalBytes(file: file, head: try Self.jpegHead(file, read: head)))
        }
    }

    /// The file's first bytes through its header (`JPEGHeaderExtent`), `read` already read.
    private static func jpegHead(_ file: OpenInputFile, read: [UInt8]) throws(FileError) -> [UInt8] {
        var head = read
        let chunk = 64 << 10
        let extent = try JPEGHeaderExtent.length(fileSize: file.size) { (i) throws(FileError) -> UInt8? in
            guard i < file.size else { return nil }
            if i >= head.count { try file.append(upTo: max(i + 1, head.count + chunk), to: &head) }
            return head[i]
        }
        try file.append(upTo: extent, to: &head)
        return head.count > extent ? Array(head[..<extent]) : head
    }

    /// Where the file's bytes come from: held, or read from the file as the decoder consumes them.
    package var source: OriginalBytes {
        switch self {
        case .jpeg(let source), .heic(let source, _): return source
        }
    }

    /// The whole file (`source.whole()`): read again from the file for an original made from a path.
    @available(*, deprecated, message: "an original made from a path holds only its head: use source.whole(), which reports a failed read")
    package var bytes: [UInt8] { (try? source.whole()) ?? [] }

    /// "JPEG" or "HEIC", for messages and reports.
    package var formatName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .heic: return "HEIC"
        }
    }

    /// The original's metadata as a JPEG header: the JPEG's header segments (`source.head`: the
    /// whole file for an original made from bytes), or a HEIC's EXIF, XMP and ICC profile laid out
    /// as APPn segments (`HEICMetadata.jpegHeader`), so that orientation, embedded-edit and
    /// carry-over code written for JPEG reads both. Every reader of it stops at SOS.
    package var metadataJPEG: [UInt8] {
        switch self {
        case .jpeg(let source): return source.head
        case .heic(_, let header): return header.metadata.jpegHeader
        }
    }

    /// Whether the decoder can decode at a reduced DCT scale (JPEG) or decodes whole (HEIC).
    package var hasScaledDecode: Bool {
        if case .jpeg = self { return true }
        return false
    }
}

/// An original's bytes: all of them in memory, or a file read as the decoder consumes it, of
/// which only the head is held.
package struct OriginalBytes: Sendable {
    private enum Storage: Sendable {
        case memory([UInt8])
        case file(path: String, stamp: FileStamp)
    }

    private let storage: Storage
    /// What is held in memory: every byte for bytes given; for a file, its head — a JPEG's first
    /// bytes through its first SOS segment (and `JPEGHeaderExtent.margin` more: the whole file
    /// when it has no SOS), a HEIC's `ftyp` box.
    package let head: [UInt8]
    /// The file's size in bytes.
    package let count: Int

    /// Bytes held in memory.
    package init(_ bytes: [UInt8]) {
        (storage, head, count) = (.memory(bytes), bytes, bytes.count)
    }

    init(file: OpenInputFile, head: [UInt8]) {
        (storage, self.head, count) = (.file(path: file.path, stamp: file.stamp), head, file.size)
    }

    /// The file the bytes are read from; nil for bytes held in memory.
    package var path: String? {
        if case .file(let path, _) = storage { return path }
        return nil
    }

    /// Every byte: those held, or the whole file read again (refused, as a file that changed while
    /// it was read, unless it is the file the head came from, unchanged).
    package func whole() throws(FileError) -> [UInt8] {
        switch storage {
        case .memory(let bytes): return bytes
        case .file:
            let file = try reopen()!
            let bytes = try file.readAll()
            guard bytes.starts(with: head) else { throw OpenInputFile.readError(file.path, code: -1) }
            return bytes
        }
    }

    /// The file, opened again for a render (nil for bytes in memory): refused, as a file that
    /// changed while it was read, unless it is the same file, unchanged.
    func reopen() throws(FileError) -> OpenInputFile? {
        guard case .file(let path, let stamp) = storage else { return nil }
        return try OpenInputFile(reopening: path, stamp: stamp)
    }

    /// The bytes in memory, nil for a file.
    var inMemory: [UInt8]? {
        if case .memory(let bytes) = storage { return bytes }
        return nil
    }
}
