import CHeifLoader
import Foundation

/// A HEIF file read as libheif asks for it (`heif_context_read_from_reader`), rather than copied
/// into memory first: positioned reads through a 64 KiB buffer (libheif reads box headers a few
/// bytes at a time), never past the size the file had when it was opened. It answers as libheif's
/// own memory reader does — a read or seek past that size fails, and the file's size is all there
/// is — so a file parses and decodes as the same bytes in memory. A read that fails, or finds the
/// file shorter, is kept in `file.readFailure` for the caller to report instead of libheif's error.
final class HEIFFileReader {
    let file: OpenInputFile
    private var position = 0
    private let buffer: UnsafeMutableRawBufferPointer
    private var bufferStart = 0, bufferCount = 0
    /// libheif may read from its decoding threads (it serialises them; this guards the buffer anyway).
    private let lock = NSLock()
    private static let bufferSize = 64 << 10

    init(file: OpenInputFile) {
        self.file = file
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Reads `count` bytes at `offset` into `destination`: all of them, or fewer at the file's end.
    func read(into destination: UnsafeMutableRawPointer, count: Int, at offset: Int) throws(FileError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let count = max(0, min(count, file.size - offset))
        if count >= Self.bufferSize { return try file.read(into: destination, count: count, at: offset) }
        if offset < bufferStart || offset + count > bufferStart + bufferCount {
            bufferStart = offset
            bufferCount = try file.read(into: buffer.baseAddress!, count: Self.bufferSize, at: offset)
        }
        destination.copyMemory(from: buffer.baseAddress! + (offset - bufferStart), byteCount: count)
        return count
    }

    /// As `read(into:count:at:)`, into the start of `bytes` (at least `count` long).
    private func read(into bytes: inout [UInt8], count: Int, at offset: Int) throws(FileError) -> Int {
        var result: Result<Int, FileError> = .success(0)
        bytes.withUnsafeMutableBytes { buffer in
            result = Result { () throws(FileError) -> Int in try read(into: buffer.baseAddress!, count: count, at: offset) }
        }
        return try result.get()
    }

    /// The reader libheif calls, with this object as its user data.
    static func functions() -> heif_reader {
        var reader = heif_reader()
        reader.reader_api_version = 1
        reader.get_position = { userData in Int64(HEIFFileReader.from(userData).position) }
        reader.read = { data, size, userData in
            let reader = HEIFFileReader.from(userData)
            guard let data, size <= reader.file.size - reader.position else { return 1 }
            do {
                guard try reader.read(into: data, count: size, at: reader.position) == size else { return 1 }
            } catch {
                return 1   // in file.readFailure
            }
            reader.position += size
            return 0
        }
        reader.seek = { position, userData in
            let reader = HEIFFileReader.from(userData)
            guard position >= 0, position <= Int64(reader.file.size) else { return 1 }
            reader.position = Int(position)
            return 0
        }
        reader.wait_for_file_size = { target, userData in
            target > Int64(HEIFFileReader.from(userData).file.size) ? heif_reader_grow_status_size_beyond_eof
                                                                     : heif_reader_grow_status_size_reached
        }
        return reader
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> HEIFFileReader {
        Unmanaged<HEIFFileReader>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// The first top-level `meta` box, whole, walked as `HEIFTransformProperties` walks the
    /// file's top level (32-bit sizes, a 64-bit size under 4 GiB when the size is 1, "to the end"
    /// when it is 0; the walk stops at a box that does not fit); empty when there is none. What
    /// `HEIFTransformProperties.read(in:itemID:)` reads from it equals what it reads from the file.
    func metaBox() throws(FileError) -> [UInt8] {
        let end = file.size
        var start = 0
        var header = [UInt8](repeating: 0, count: 16)
        while start < end {
            let got = try read(into: &header, count: 16, at: start)
            guard got >= 8 else { break }
            func u32(_ at: Int) -> Int { Int(header[at]) << 24 | Int(header[at + 1]) << 16 | Int(header[at + 2]) << 8 | Int(header[at + 3]) }
            var (size, headerLength) = (u32(0), 8)
            if size == 1 {
                guard got >= 16, u32(8) == 0 else { break }
                (size, headerLength) = (u32(12), 16)
            } else if size == 0 {
                size = end - start
            }
            guard size >= headerLength, size <= end - start else { break }
            if header[4..<8].elementsEqual("meta".utf8) {
                var meta = [UInt8](repeating: 0, count: size)
                _ = try read(into: &meta, count: size, at: start)
                return meta
            }
            start += size
        }
        return []
    }
}
