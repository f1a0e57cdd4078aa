/// The ways users have an original, its modern edit and Apple's render of it on disk
/// (docs/spec/aae-format.md §1): which one paired a `FoundPhoto`. Each layout's rules are in its
/// own file (`PhotosLibraryLayout`, `IPhoneBackupLayout`, `DCIMLayout`), its names in `LayoutNames`.
public enum PhotoLayout: String, Sendable, CaseIterable {
    /// A macOS Photos 5+ library: `X.photoslibrary/originals/H/UUID.ext`, its edit
    /// `resources/renders/H/UUID.plist` (or the camera-time `originals/H/UUID_5.aae`), Apple's
    /// render `resources/renders/H/UUID_1_201_a.jpeg|heic`.
    case photosLibrary = "photos-library"
    /// An iPhone file system or an extracted Finder/iTunes backup: `Media/DCIM/1xxAPPLE/IMG_n.EXT`,
    /// its edit `Media/PhotoData/Mutations/DCIM/1xxAPPLE/IMG_n/Adjustments/Adjustments.plist`, Apple's
    /// render `FullSizeRender.jpg|heic` in that folder (failing those, the names beside the photo).
    case iPhone = "iphone"
    /// One `Mutations/…/Adjustments` folder (`Adjustments.plist`, `FullSizeRender.*`) with its one
    /// original copied in.
    case adjustmentsFolder = "adjustments-folder"
    /// A DCIM copy, an export, an iCloud download: `IMG_n.EXT` beside `IMG_n.AAE` or the
    /// capture-time `IMG_On.AAE` (any case) and Apple's render `IMG_En.JPG|HEIC` (any case).
    case sidecar = "sidecar"
}
