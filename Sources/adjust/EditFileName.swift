import Foundation

/// Names that hold edits, not photos, so that a photo's place given one gets a suggestion rather
/// than "not a JPEG file".
enum EditFileName {
    /// `.AAE` (any case), `Adjustments.plist`, a Photos library's `UUID.plist`, an `.xmp` sidecar.
    static func isEdit(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return ["aae", "xmp", "plist"].contains((name as NSString).pathExtension)
    }
}
