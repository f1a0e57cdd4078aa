/// One photo as `PhotoDiscovery` found it on disk: an original, its modern edit and Apple's own
/// render of it, any of which may be missing, and the layout they were found in
/// (docs/spec/aae-format.md §1).
public struct FoundPhoto: Sendable {
    /// The untouched photo; nil for an edit (and render) whose original is not there.
    public var original: String?
    /// The `.AAE`, `Adjustments.plist` or library `UUID.plist`.
    public var edit: String?
    /// `IMG_E1234.*`, `FullSizeRender.*` or the library's `UUID_1_201_a.jpeg`.
    public var appleRender: String?
    /// The layout whose rules paired the three.
    public var layout: PhotoLayout
    /// Why this entry cannot be used before anything is read (a missing input, an unreadable folder).
    public var failure: FileError?
    /// Why `original` is nil, when it is.
    public var note: String?

    package init(original: String?, edit: String?, appleRender: String?, layout: PhotoLayout,
                failure: FileError? = nil, note: String? = nil) {
        (self.original, self.edit, self.appleRender, self.layout, self.failure, self.note)
            = (original, edit, appleRender, layout, failure, note)
    }
}
