import Foundation

/// Device and inode: the identity of a file, whatever path (link, `./`, symlink) names it. Used
/// to refuse writing an output over an input.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ status: stat) { (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino)) }

    /// nil when `path` does not exist.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// True when both paths exist and name the same file.
    static func same(_ a: String, _ b: String) -> Bool {
        guard let a = FileIdentity(path: a), let b = FileIdentity(path: b) else { return false }
        return a == b
    }
}
