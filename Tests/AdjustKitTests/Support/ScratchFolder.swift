import Foundation

/// A fresh folder under the temporary directory for one test, and its removal: the setUp and
/// tearDown every file-writing test shares.
enum ScratchFolder {
    /// Creates `TMP/prefix-UUID` and returns it.
    static func make(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Removes `folder` and everything in it, if it is there.
    static func remove(_ folder: URL?) {
        guard let folder else { return }
        try? FileManager.default.removeItem(at: folder)
    }
}
