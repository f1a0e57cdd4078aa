/// One photo as the walk (`PhotoDiscovery`) found it on disk: an original, its modern edit and
/// Apple's own render of it, any of which may be missing, and the layout they were found in
/// (docs/spec/aae-format.md §1).
public struct FoundPhoto: Sendable {
    /// The untouched photo; nil for an edit (and render) whose original is not there.
    public var original: String?
    /// The `.AAE`, `Adjustments.plist`, library `UUID.plist`, or the camera-time adjustments
    /// (`IMG_O1234.AAE`, a library's `UUID_5.aae`) of a photo the user did not edit.
    public var edit: String?
    /// `IMG_E1234.*`, `FullSizeRender.*` or the library's `UUID_1_201_a.jpeg`.
    public var appleRender: String?
    /// The layout whose rules paired the three.
    public var layout: PhotoLayout
    /// Why this entry cannot be used before anything is read (a missing input, an unreadable folder).
    public var failure: FileError?
    /// Why `original` is nil, when it is.
    public var note: String?
    /// Where an output of this photo goes under its input's root, with the original's extension:
    /// `sub/IMG_0001.JPG`; in a Photos library the name the user knows (`IMG_3092.heic`, from the
    /// database), never Photos' internal UUID. Empty for a file named alone with no root.
    public var relativePath: String
    /// The photo as the user knows it, for messages: the library's original file name, else the path.
    public var name: String
    /// A Live Photo's motion (`originals/H/UUID_3.mov`, `IMG_1234.MOV` beside `IMG_1234.HEIC`).
    public var motion: String?
    /// Photos' render of the edited motion (`UUID_2_100_a.mov`, a backup's `FullSizeRender.mov`).
    public var editedMotion: String?
    /// The Photos library asset, when the photo is one.
    package var libraryAsset: PhotosLibraryAsset?
    /// The file's device and inode, when it was looked at (the walk's duplicate check).
    package var identity: FileIdentity?

    package init(original: String?, edit: String?, appleRender: String?, layout: PhotoLayout,
                 failure: FileError? = nil, note: String? = nil, relativePath: String? = nil, name: String? = nil) {
        (self.original, self.edit, self.appleRender, self.layout, self.failure, self.note)
            = (original, edit, appleRender, layout, failure, note)
        self.relativePath = relativePath ?? original.map(LayoutPath.name(of:)) ?? ""
        self.name = name ?? original ?? edit ?? ""
    }
}

/// A file the walk found that is not a photo adjust renders: a video, a screenshot, a RAW file.
/// It comes out copied as it is (or, for an edited video, as Photos' render of it).
package struct FoundFile: Sendable {
    package enum Kind: String, Sendable {
        /// A video asset, or a video file in a folder.
        case video
        /// A Live Photo's motion, copied beside its still under the still's name.
        case motion
        /// A picture adjust does not render (PNG, GIF, TIFF, RAW): copied.
        case otherPicture = "other-picture"
    }

    package var path: String
    package var kind: Kind
    /// Where its output goes under the input's root (its own extension kept).
    package var relativePath: String
    /// As the user knows it.
    package var name: String
    /// Photos' render of an edited video (`UUID_2_0_a.mov`, `FullSizeRender.mov`).
    package var appleRender: String?
    /// The edit that render shows (`UUID.plist`), when there is one.
    package var edit: String?
    package var identity: FileIdentity?
    /// The Photos library asset it is (or, for a Live Photo's motion, whose motion it is).
    package var libraryAsset: PhotosLibraryAsset?

    package init(path: String, kind: Kind, relativePath: String, name: String, appleRender: String? = nil,
                 edit: String? = nil, identity: FileIdentity? = nil, libraryAsset: PhotosLibraryAsset? = nil) {
        (self.path, self.kind, self.relativePath, self.name) = (path, kind, relativePath, name)
        (self.appleRender, self.edit, self.identity, self.libraryAsset) = (appleRender, edit, identity, libraryAsset)
    }
}

/// An asset the database lists whose original is not on disk (an iCloud library with "Optimize
/// Mac Storage", a trimmed copy): named, never a silent gap.
package struct MissingOriginal: Sendable, Equatable {
    /// As the user knows it (the original file name), with Photos' UUID.
    package var name: String
    package var uuid: String
    /// Where the original should be.
    package var expected: String?
    /// Whether the database says it was edited.
    package var edited: Bool
    /// Photo or video.
    package var isVideo: Bool
}

/// What the walk met that is neither a photo, nor a file to copy: counted, so that a run can say
/// what it left out and why.
package struct WalkCounts: Sendable, Equatable, Codable {
    /// `.AAE`, `Adjustments.plist`, a library's `UUID.plist`, `.xmp` sidecars: read with their photos.
    package var edits = 0
    /// `IMG_E1234.*`, `FullSizeRender.*`, a library's `resources/renders/…` files.
    package var appleRenders = 0
    /// Assets in a Photos library's trash (left out unless asked).
    package var trashed = 0
    /// Edits whose original is not there.
    package var editsWithoutOriginal = 0
    /// Anything else: documents, a library's database, thumbnails…
    package var other = 0

    package init() {}
}

/// Everything the walk found under its inputs.
package struct PhotoWalk: Sendable {
    /// The photos, in the order found (an edit without its original has `original` nil).
    package var photos: [FoundPhoto] = []
    /// Videos and other pictures to copy.
    package var files: [FoundFile] = []
    /// Library assets whose original is not on disk.
    package var missing: [MissingOriginal] = []
    package var counts = WalkCounts()
    /// One line each: a library read without its database, name collisions, referenced originals
    /// not found.
    package var remarks: [String] = []
}
