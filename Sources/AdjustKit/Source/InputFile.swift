import Foundation

/// Reads whole input files, refusing anything larger than a limit before reading it.
public enum InputFile {
    /// 256 MiB, the default `--max-input-bytes`.
    public static let defaultLimit = 256 << 20

    /// The whole file at `path`; a missing file, a directory, or one over `limit` bytes is refused
    /// before anything is read.
    public static func read(_ path: String, limit: Int = defaultLimit) throws(FileError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError(path: path, kind: .unreadable, problem: "no such file")
        }
        guard !isDirectory.boolValue else { throw FileError(path: path, kind: .unreadable, problem: "is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FileError(path: path, kind: .unreadable, problem: "cannot open (permission denied?)")
        }
        defer { try? handle.close() }
        do {
            let size = try handle.seekToEnd()
            guard size <= UInt64(limit) else {
                throw FileError(path: path, kind: .invalidContent,
                                problem: "file is \(size) bytes, over the \(limit)-byte input limit")
            }
            try handle.seek(toOffset: 0)
            return [UInt8](try handle.readToEnd() ?? Data())
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(path: path, kind: .unreadable, problem: "cannot read: \(error.localizedDescription)")
        }
    }
}
