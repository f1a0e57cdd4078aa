/// iOS 5–7 AdjustmentXMP beside its photo (docs/spec/xmp-format.md §8): `IMG_0001.xmp` or
/// `IMG_0001.XMP` for `IMG_0001.JPG`. The photo's own XMP comes first (`EditSource.find`); these
/// are the names looked for after it.
package enum XMPSidecarLayout {
    /// The sidecar paths to try for the photo at `imagePath`, in order: named as the photo was
    /// (relative stays relative), so that records and messages name both alike.
    package static func candidates(forImage imagePath: String) -> [String] {
        let stem = LayoutNames.stem(imagePath), folder = LayoutPath.folder(of: imagePath)
        return [LayoutPath.join(folder, stem + ".xmp"), LayoutPath.join(folder, stem + ".XMP")]
    }

}
