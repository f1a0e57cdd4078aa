/// The photos under folders, as (original, edit?, Apple's render?) with the layout each came from,
/// for any program that wants the pairing `adjust` uses: the importer's face of `PhotoWalker`,
/// the one walk (its comment has the rules). A library's trashed assets are left out.
public enum PhotoDiscovery {
    /// Every photo under `inputs` (folders walked; a file is taken as an original), in the order
    /// given; an edit whose original is not there has `original` nil and a `note`.
    public static func find(in inputs: [String]) -> [FoundPhoto] {
        PhotoWalker().walk(inputs).photos
    }

    /// The edit, Apple's render and motion of the original at `path`, by the layout its place on
    /// disk says: a Photos library's `originals/H/`, an iPhone's `DCIM/1xxAPPLE/` with its
    /// `Mutations` folder, or else beside it.
    public static func photo(forOriginal path: String) -> FoundPhoto {
        PhotoWalker.photo(forOriginal: path)
    }
}
