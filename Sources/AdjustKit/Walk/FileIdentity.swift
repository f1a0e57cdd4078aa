import Foundation

/// Device and inode: the identity of a file, whatever path (link, `./`, symlink) names it. The
/// walk lists a file once by it; the CLI refuses to write an output over an input by it.
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64

    package init(_ status: stat) { (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino)) }

    /// nil when `path` does not exist.
    package init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// True when both paths exist and name the same file.
    package static func same(_ a: String, _ b: String) -> Bool {
        guard let a = FileIdentity(path: a), let b = FileIdentity(path: b) else { return false }
        return a == b
    }
}
