import Foundation

/// Reads input files, refusing anything larger than a limit before reading it: whole (`read`), or
/// a piece at a time from an open file (`open`, `OpenInputFile`), as a streamed render does.
package enum InputFile {
    /// 256 MiB, the default `--max-input-bytes`.
    package static let defaultLimit = InputLimits.defaultMaxInputBytes

    /// The whole file at `path`; a missing file, a directory, or one over `limit` bytes is refused
    /// before anything is read.
    package static func read(_ path: String, limit: Int = defaultLimit) throws(FileError) -> [UInt8] {
        try open(path, limit: limit).readAll()
    }

    /// `path` opened for reading, refused as `read` refuses it (missing, a directory, over `limit`
    /// bytes) before anything is read.
    static func open(_ path: String, limit: Int) throws(FileError) -> OpenInputFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError(path: path, kind: .unreadable, problem: "no such file")
        }
        guard !isDirectory.boolValue else { throw FileError(path: path, kind: .unreadable, problem: "is a directory") }
        let file = try OpenInputFile(path)
        guard file.size <= limit else {
            throw FileError(path: path, kind: .invalidContent,
                            problem: "file is \(file.size) bytes, over the \(limit)-byte input limit")
        }
        return file
    }
}

/// What identifies a file's content without reading it: the same device, inode, size and
/// modification time (to the nanosecond) mean the same file, unchanged.
struct FileStamp: Equatable, Sendable {
    var device: UInt64, inode: UInt64, size: Int, modifiedSeconds: Int, modifiedNanoseconds: Int

    init(_ status: stat) {
        (device, inode, size) = (UInt64(status.st_dev), UInt64(status.st_ino), Int(status.st_size))
        (modifiedSeconds, modifiedNanoseconds) = (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
    }
}

/// An input file open for reading: its descriptor (closed when this goes), and its size and stamp
/// when it was opened, which every read keeps to. Reads are positioned (`pread`), so they need no
/// shared file position. A read that fails, or finds the file shorter than it was, is a
/// `FileError` of kind `.unreadable` ("cannot read: …"), also kept in `readFailure` for readers
/// that report through another error type (libjpeg, libheif).
final class OpenInputFile {
    let path: String
    let descriptor: Int32
    /// The size when opened; nothing past it is read.
    let size: Int
    let stamp: FileStamp
    /// The first read failure, for a caller whose reader reported it as its own error.
    var readFailure: FileError?

    /// Opens `path` (no size limit: see `InputFile.open`).
    init(_ path: String) throws(FileError) {
        // POSIX rather than FileHandle: `readToEnd` reads 4 KiB a call into a growing Data that is
        // then copied again into the array (a thousand calls and two copies for a 4 MB photo).
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileError(path: path, kind: .unreadable, problem: "cannot open: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw FileError(path: path, kind: .unreadable, problem: "cannot stat")
        }
        (self.path, descriptor, size, stamp) = (path, fd, Int(status.st_size), FileStamp(status))
    }

    /// Opens `path` again for a file read before (a render after the plan): refused, as a file
    /// that changed while it was read, unless it is the same file, unchanged (`stamp`).
    convenience init(reopening path: String, stamp: FileStamp) throws(FileError) {
        try self.init(path)
        guard self.stamp == stamp else { throw Self.changed(path) }
    }

    deinit { close(descriptor) }

    /// The error of a read that failed with `errno` `code`, or found the file changed (`code` -1).
    static func readError(_ path: String, code: Int32) -> FileError {
        code > 0 ? FileError(path: path, kind: .unreadable, problem: "cannot read: \(String(cString: strerror(code)))")
                 : changed(path)
    }

    private static func changed(_ path: String) -> FileError {
        FileError(path: path, kind: .unreadable, problem: "cannot read: the file changed while it was read")
    }

    /// Records `error` as this file's read failure (the first one stays) and returns it.
    @discardableResult
    func failed(_ error: FileError) -> FileError {
        if readFailure == nil { readFailure = error }
        return error
    }

    /// Reads `count` bytes at `offset` into `buffer`; the bytes past the file's size (as opened)
    /// are not read, so fewer may come back. Fails on a read error or a file found shorter.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws(FileError) -> Int {
        let wanted = max(0, min(count, size - offset))
        var done = 0
        while done < wanted {
            let got = pread(descriptor, buffer + done, wanted - done, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            // 0: the file shrank.
            guard got > 0 else { throw failed(Self.readError(path, code: got < 0 ? errno : -1)) }
            done += got
        }
        return wanted
    }

    /// Appends bytes from `bytes.count` on to `bytes`, up to `end` (clamped to the size).
    func append(upTo end: Int, to bytes: inout [UInt8]) throws(FileError) {
        let start = bytes.count, end = min(end, size)
        guard end > start else { return }
        var failure: FileError?
        bytes.append(contentsOf: repeatElement(0, count: end - start))
        bytes.withUnsafeMutableBytes { buffer in
            do throws(FileError) { _ = try read(into: buffer.baseAddress! + start, count: end - start, at: start) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The whole file, as it is when read.
    func readAll() throws(FileError) -> [UInt8] {
        guard size > 0 else { return [] }
        var failure: FileError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            do throws(FileError) { count = try read(into: buffer.baseAddress!, count: size, at: 0) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }
}
