import CPNGRows
import Foundation

/// Encodes a PNG row by row through libpng's API (`png_write_row`, behind the C shim
/// `CPNGRows`: libpng reports errors by longjmp), so that rows are compressed as they are
/// rendered instead of after the whole image exists: 8-bit RGB, or RGBA (not premultiplied),
/// not interlaced, deflated at `PNGCompression`'s level with its row filter. The file goes to
/// memory, or to an open file as it is made (the caller's temporary file: `AtomicFileWriter`),
/// so that not even the compressed image is held whole. One thread at a time.
final class PNGRowWriter {
    /// Where the file goes.
    enum Destination {
        /// Kept, and handed over by `finish()`.
        case memory
        /// Written to this open file descriptor from its current offset as it is made (through a
        /// buffer of 256 KiB); the caller keeps it open until the writer is gone.
        case file(Int32)
    }

    /// Width × height of the image being written.
    let size: PixelSize
    /// RGBA (4 bytes a pixel) rather than RGB (3).
    let hasAlpha: Bool
    /// The row the next `write` starts at.
    private(set) var nextRow = 0

    private let writer: OpaquePointer

    /// Starts a `size` image: writes the signature and IHDR.
    init(size: PixelSize, hasAlpha: Bool, compression: PNGCompression, to destination: Destination) throws(EncodeError) {
        var message = [CChar](repeating: 0, count: 256)
        let fd: Int32 = switch destination {
        case .memory: -1
        case .file(let fd): fd
        }
        guard let writer = pr_writer_open(fd, Int32(size.width), Int32(size.height), hasAlpha ? 1 : 0,
                                          Int32(compression.level), Int32(compression.filters), &message, message.count) else {
            throw EncodeError(description: "PNG encoding failed: \(CLibraryMessage.text(message))")
        }
        (self.size, self.hasAlpha, self.writer) = (size, hasAlpha, writer)
    }

    deinit { pr_writer_close(writer) }

    /// Writes a chunk right after IHDR and the chunks written before it: only before the first row.
    /// `type` is four ASCII letters.
    func writeChunk(type: String, data: [UInt8]) throws {
        precondition(nextRow == 0, "chunk \(type) after row \(nextRow)")
        guard data.withUnsafeBufferPointer({ pr_writer_chunk(writer, type, $0.baseAddress, $0.count) }) == Int32(PR_OK) else {
            throw failure()
        }
    }

    /// Compresses the next `count` rows (3 or 4 bytes a pixel as `hasAlpha` says, `size.width`
    /// a row), rows `stride` bytes apart. Throws `EncodeError`, or `OutputError` when the file
    /// cannot be written.
    func write(rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
        precondition(count >= 0 && count <= size.height - nextRow, "\(count) rows from row \(nextRow) of \(size.height)")
        precondition(stride >= size.width * (hasAlpha ? 4 : 3), "stride \(stride) under \(size.width) pixels")
        guard pr_writer_write(writer, rows, stride, Int32(count)) == Int32(PR_OK) else { throw failure() }
        nextRow += count
    }

    /// Completes the file once every row has been written: the whole file for `.memory`, nothing
    /// (empty) for `.file`, whose bytes have all been written then. Throws as `write`.
    func finish() throws -> [UInt8] {
        var bytes: UnsafePointer<UInt8>? = nil
        var count = 0
        guard pr_writer_finish(writer, &bytes, &count) == Int32(PR_OK) else { throw failure() }
        guard let bytes else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: count))
    }

    /// A failed write(2) is the output's fault (`OutputError`, as `AtomicFileWriter` says it);
    /// anything else libpng's (`EncodeError`).
    private func failure() -> any Error {
        let message = CLibraryMessage.text(pr_writer_message(writer))
        if pr_writer_errno(writer) != 0 { return OutputError(description: "cannot write: \(message)") }
        return EncodeError(description: "PNG encoding failed: \(message)")
    }
}

extension PNGRowWriter {
    /// A writer to memory whose file starts as libpng's simplified API started it (adjust's PNGs
    /// before this writer, `PNGCodec.encode`): IHDR, then `sRGB` (perceptual), which
    /// `PNGMetadata.carryOver` removes when it adds the original's ICC profile.
    static func inMemory(size: PixelSize, hasAlpha: Bool, compression: PNGCompression) throws -> PNGRowWriter {
        let writer = try PNGRowWriter(size: size, hasAlpha: hasAlpha, compression: compression, to: .memory)
        try writer.writeChunk(type: PNGMetadata.sRGB.type, data: PNGMetadata.sRGB.data)
        return writer
    }

    /// Writes every row of `raster` (whose size must be the writer's), dropping alpha for an RGB
    /// writer.
    func write(_ raster: RGBA8Image) throws {
        precondition(raster.size == size && nextRow == 0, "raster \(raster.size) for \(size)")
        let width = size.width
        try raster.pixels.withUnsafeBufferPointer { pixels in
            let rows = pixels.baseAddress!
            guard !hasAlpha else {
                try write(rows: rows, stride: width * 4, count: size.height)
                return
            }
            let rgb = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 3)
            defer { rgb.deallocate() }
            for row in 0..<size.height {
                let from = rows + row * width * 4
                for i in 0..<width { rgb[i * 3] = from[i * 4]; rgb[i * 3 + 1] = from[i * 4 + 1]; rgb[i * 3 + 2] = from[i * 4 + 2] }
                try write(rows: rgb, stride: width * 3, count: 1)
            }
        }
    }
}

extension PNGRowWriter {
    /// A whole raster as a PNG in memory, as `inMemory` starts it: RGB when every pixel is
    /// opaque, else RGBA (as `PNGCodec.encode` decides).
    static func encode(_ image: RGBA8Image, compression: PNGCompression) throws(EncodeError) -> [UInt8] {
        do {
            let writer = try inMemory(size: image.size, hasAlpha: !image.isOpaque, compression: compression)
            try writer.write(image)
            return try writer.finish()
        } catch let error as EncodeError {
            throw error
        } catch {
            // A writer to memory writes no file: nothing else is thrown.
            throw EncodeError(description: "PNG encoding failed: \(error)")
        }
    }
}
