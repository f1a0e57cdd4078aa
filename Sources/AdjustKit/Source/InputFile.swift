import Foundation

/// Reads whole input files, refusing anything larger than a limit before reading it.
package enum InputFile {
    /// 256 MiB, the default `--max-input-bytes`.
    package static let defaultLimit = InputLimits.defaultMaxInputBytes

    /// The whole file at `path`; a missing file, a directory, or one over `limit` bytes is refused
    /// before anything is read.
    package static func read(_ path: String, limit: Int = defaultLimit) throws(FileError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError(path: path, kind: .unreadable, problem: "no such file")
        }
        guard !isDirectory.boolValue else { throw FileError(path: path, kind: .unreadable, problem: "is a directory") }
        // POSIX rather than FileHandle: `readToEnd` reads 4 KiB a call into a growing Data that is
        // then copied again into the array (a thousand calls and two copies for a 4 MB photo).
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileError(path: path, kind: .unreadable, problem: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw FileError(path: path, kind: .unreadable, problem: "cannot stat") }
        let size = Int(status.st_size)
        guard size <= limit else {
            throw FileError(path: path, kind: .invalidContent,
                            problem: "file is \(size) bytes, over the \(limit)-byte input limit")
        }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let got = Foundation.read(fd, buffer.baseAddress! + count, size - count)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { failure = got < 0 ? errno : 0; break }   // 0: the file shrank
                count += got
            }
        }
        guard bytes.count == size else {
            let reason = failure != 0 ? String(cString: strerror(failure)) : "the file changed while it was read"
            throw FileError(path: path, kind: .unreadable, problem: "cannot read: \(reason)")
        }
        return bytes
    }
}
