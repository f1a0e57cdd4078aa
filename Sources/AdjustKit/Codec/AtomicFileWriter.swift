import Foundation

/// Why an output file could not be written.
package struct OutputError: Error, Equatable, CustomStringConvertible {
    /// One line, without the file name: the step that failed and the system's reason.
    package var description: String
}

/// Writes a whole file or nothing: the bytes (given whole, or written by the caller as it makes
/// them: a streamed PNG) go to a temporary file in the target's directory, which is renamed over
/// the target only once complete. A failure (or a kill) leaves no file
/// with the target's name and an existing file untouched.
///
/// Hand-written rather than `Data.write(options: .atomic)`: that call reports failures as
/// Cocoa errors with multi-line descriptions and does not say which step failed; this says
/// "cannot create", "cannot write" or "cannot rename" with the system's reason.
///
/// The temporary file is `.adjust-tmp-NAME.XXXXXX` beside `NAME`: hidden, recognisable, and tied
/// to the one output it becomes, so that whoever alone writes that output (a batch shard) can
/// tell a temporary file a killed run left behind from one another process is writing now.
package enum AtomicFileWriter {
    /// The fixed start of every temporary file's name.
    package static let temporaryPrefix = ".adjust-tmp-"

    /// The name of the file a temporary file named `name` was to become, or nil when `name` is not
    /// one of ours.
    package static func target(ofTemporary name: String) -> String? {
        guard name.hasPrefix(temporaryPrefix), let dot = name.lastIndex(of: "."),
              name.distance(from: dot, to: name.endIndex) == 7 else { return nil }
        let target = String(name[name.index(name.startIndex, offsetBy: temporaryPrefix.count)..<dot])
        return target.isEmpty ? nil : target
    }

    /// Writes `bytes` to `path` whole or not at all, readable as the umask allows (not mkstemp's 0600).
    /// Throws without leaving a temporary file behind.
    package static func write(_ bytes: [UInt8], to path: String) throws(OutputError) {
        let file = try TemporaryFile(beside: path)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(file.fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let why = reason()
                file.abandon()
                throw OutputError(description: "cannot write: \(why)")
            }
            offset += written
        }
        try file.commit(to: path)
    }

    /// Writes `path` whole or not at all as `body` writes the temporary file through its descriptor
    /// (open for writing, at offset 0; `body` must not close it), so that the file need never be
    /// whole in memory (a streamed PNG). Whatever `body` throws is rethrown; what fails here is an
    /// `OutputError`. Either way no temporary file is left behind and `path` is untouched.
    package static func write(to path: String, with body: (_ fd: Int32) throws -> Void) throws {
        let file = try TemporaryFile(beside: path)
        do {
            try body(file.fd)
        } catch {
            file.abandon()
            throw error
        }
        try file.commit(to: path)
    }

    /// Copies the file at `source` to `path` whole or not at all, 1 MiB at a time (a video may be
    /// gigabytes: never held whole). `source` failing to read is said as "cannot read SOURCE: …".
    package static func copy(from source: String, to path: String) throws(OutputError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw OutputError(description: "cannot read \(source): \(reason())") }
        defer { close(input) }
        let file = try TemporaryFile(beside: path)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                let why = reason()
                file.abandon()
                throw OutputError(description: "cannot read \(source): \(why)")
            }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { Glibc.write(file.fd, $0.baseAddress! + offset, count - offset) }
                if written < 0, errno == EINTR { continue }
                if written < 0 {
                    let why = reason()
                    file.abandon()
                    throw OutputError(description: "cannot write: \(why)")
                }
                offset += written
            }
        }
        try file.commit(to: path)
    }

    /// The temporary file beside a target, open until committed or abandoned.
    private struct TemporaryFile {
        let fd: Int32
        let path: String

        init(beside target: String) throws(OutputError) {
            // A path's parts as strings (`LayoutPath`), where URL(fileURLWithPath:) also asks the
            // file system whether the path is a folder and reads the working directory (0.3 ms of
            // a render's start; docs/benchmark.md, twenty-sixth part).
            let directory = LayoutPath.forSystem(LayoutPath.folder(of: target))
            var template = Array("\(directory)/\(temporaryPrefix)\(LayoutPath.name(of: target)).XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw OutputError(description: "cannot create a file in \(directory): \(reason())") }
            (self.fd, path) = (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }

        /// Makes the file readable like any file the user creates (not mkstemp's 0600), syncs and
        /// closes it, and renames it over `target`; on failure the file is removed (abandoned).
        func commit(to target: String) throws(OutputError) {
            fchmod(fd, 0o666 & ~processUmask)
            let synced = fsync(fd) == 0
            let syncReason = reason()
            guard close(fd) == 0, synced else {
                unlink(path)
                throw OutputError(description: "cannot write: \(synced ? reason() : syncReason)")
            }
            guard rename(path, target) == 0 else {
                let why = reason()
                unlink(path)
                throw OutputError(description: "cannot rename into place: \(why)")
            }
        }

        /// Closes and removes the file, before `commit`.
        func abandon() {
            close(fd)
            unlink(path)
        }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

    /// Read from /proc rather than with umask(2), which can only be read by setting it: that
    /// would race with other threads creating files. The value is split off at the blanks, not
    /// trimmed with Foundation's `trimmingCharacters(in:)`, whose bridging made the Swift runtime
    /// look up conformances for 0.4 ms of every render (docs/benchmark.md, fourteenth part).
    private static let processUmask: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let field = line.dropFirst("Umask:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
              let value = mode_t(field, radix: 8)
        else { return 0o022 }
        return value
    }()
}
