/// The payload's `metadata` object: the size and orientation of the image Photos edited.
///
/// What `masterWidth`/`masterHeight` measure varies between samples (the stored size, the oriented
/// size, or the oriented size of a capture-time crop; spec §2), so they are only a check that the
/// edit belongs to the photo (`AAEMasterSizeCheck`), never geometry.
package struct AAEMetadata: Sendable, Equatable {
    /// `masterWidth`, in pixels (0 in some capture-time files, e.g. a portrait video's).
    package var masterWidth: Int
    /// `masterHeight`, in pixels.
    package var masterHeight: Int
    /// `orientation`: EXIF 1–8 as Photos saw the original, or 0 (capture-time files).
    package var orientation: Int
    /// `pipelineVersion` (e.g. `OSX.4`), present in some macOS files.
    package var pipelineVersion: String?

    package init(masterWidth: Int, masterHeight: Int, orientation: Int, pipelineVersion: String? = nil) {
        self.masterWidth = masterWidth
        self.masterHeight = masterHeight
        self.orientation = orientation
        self.pipelineVersion = pipelineVersion
    }
}
