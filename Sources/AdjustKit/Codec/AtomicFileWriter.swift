import Foundation

/// Why an output file could not be written.
package struct OutputError: Error, Equatable, CustomStringConvertible {
    /// One line, without the file name: the step that failed and the system's reason.
    package var description: String
}

/// Writes a whole file or nothing: the bytes go to a temporary file in the target's directory,
/// which is renamed over the target only once complete. A failure (or a kill) leaves no file
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
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array("\(directory)/\(temporaryPrefix)\(url.lastPathComponent).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw OutputError(description: "cannot create a file in \(directory): \(reason())") }
        let temporary = String(cString: template)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }

        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let why = reason(); close(fd)
                throw OutputError(description: "cannot write: \(why)")
            }
            offset += written
        }
        // Readable like any file the user creates, not mkstemp's 0600.
        fchmod(fd, 0o666 & ~processUmask)
        let synced = fsync(fd) == 0
        let syncReason = reason()
        guard close(fd) == 0, synced else {
            throw OutputError(description: "cannot write: \(synced ? reason() : syncReason)")
        }
        guard rename(temporary, path) == 0 else { throw OutputError(description: "cannot rename into place: \(reason())") }
        done = true
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

    /// Read from /proc rather than with umask(2), which can only be read by setting it: that
    /// would race with other threads creating files.
    private static let processUmask: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return value
    }()
}
