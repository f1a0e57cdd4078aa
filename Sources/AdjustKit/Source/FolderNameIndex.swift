import Foundation

/// The `.aae` file names of folders, listed once each and kept, so that finding a photo's AAE
/// sidecar in any case costs a dictionary lookup. Listing the folder again for every photo in it,
/// as a batch over one folder of n photos would, reads and sorts n² names.
/// An `EditSource` keeps one for its lifetime (one batch run); a sidecar added to a folder after
/// it was listed is not seen by that source.
package final class FolderNameIndex: Sendable {
    /// Folder path → lower-cased name → the name as it is (the first in sorted order when several
    /// differ only in case).
    private let folders = Locked<[String: [String: String]]>([:])

    package init() {}

    /// The `.aae` file in `folder` whose name, lower-cased, is `lowercased`; nil if none or the
    /// folder cannot be read.
    package func aaeName(matching lowercased: String, in folder: String) -> String? {
        if let names = folders.withLock({ $0[folder] }) { return names[lowercased] }
        var names: [String: String] = [:]
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
            let key = name.lowercased()
            if key.hasSuffix(".aae"), names[key] == nil { names[key] = name }
        }
        folders.withLock { $0[folder] = names }
        return names[lowercased]
    }
}
