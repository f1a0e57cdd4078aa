import Foundation

/// An iPhone's file system or an extracted Finder/iTunes backup (docs/spec/aae-format.md §1):
/// `Media/DCIM/1xxAPPLE/IMG_n.EXT`, its edit `Media/PhotoData/Mutations/DCIM/1xxAPPLE/IMG_n/
/// Adjustments/Adjustments.plist`, Apple's render `FullSizeRender.jpg|heic` (and an edited
/// motion or video `FullSizeRender.mov`) in that folder; failing those, the DCIM names beside the
/// photo (a DCIM folder copied with its sidecars).
package enum IPhoneBackupLayout {
    /// Whether `folder` is an iPhone's `Media` folder: it holds `DCIM/` and `PhotoData/Mutations/DCIM/`.
    package static func isMediaRoot(_ folder: String) -> Bool {
        LayoutPath.isFolder(LayoutPath.join(folder, LayoutNames.dcim))
            && LayoutPath.isFolder(LayoutPath.join(folder, LayoutNames.mutations))
    }

    /// The `Media` folder of the photo at `path` when it lies in `Media/DCIM/1xxAPPLE/`; nil otherwise.
    static func mediaRoot(ofOriginal path: String) -> String? {
        let album = LayoutPath.folder(of: path), dcim = LayoutPath.folder(of: album)
        guard LayoutPath.name(of: dcim) == LayoutNames.dcim else { return nil }
        let root = LayoutPath.folder(of: dcim)
        return isMediaRoot(root) ? root : nil
    }

    /// `Media/PhotoData/Mutations/DCIM/1xxAPPLE/IMG_n/Adjustments` for `Media/DCIM/1xxAPPLE/IMG_n.EXT`.
    static func adjustmentsFolder(ofOriginal path: String, mediaRoot root: String) -> String {
        let album = LayoutPath.name(of: LayoutPath.folder(of: path))
        return LayoutPath.join(root, LayoutNames.mutations + "/" + album + "/" + LayoutNames.stem(path) + "/" + LayoutNames.adjustmentsFolder)
    }

    /// The companions of the photo at `path` (in `Media/DCIM/…`), `names` its folder's entries.
    static func companions(ofOriginal path: String, mediaRoot root: String, names: FolderNames) -> Companions {
        var beside = DCIMLayout.companions(ofOriginal: path, names: names)
        let adjustments = adjustmentsFolder(ofOriginal: path, mediaRoot: root)
        guard LayoutPath.isFolder(adjustments) else { return beside }
        let inMutation = DCIMLayout.adjustmentsCompanions(in: adjustments, names: LayoutPath.names(in: adjustments))
        beside.edit = inMutation.edit ?? beside.edit
        beside.appleRender = inMutation.appleRender ?? beside.appleRender
        beside.editedMotion = inMutation.editedMotion ?? beside.editedMotion
        return beside
    }

    /// The `Media` folder: the photos of `DCIM/` as a folder walk finds them, then `PhotoData/
    /// Mutations` counted (edits, renders) and its edits whose photo is not in `DCIM/` listed;
    /// the rest of `PhotoData` is the phone's own, and is not walked.
    static func walk(_ root: String, relative: String, into walk: inout PhotoWalker.State) {
        walk.folder(LayoutPath.join(root, LayoutNames.dcim), relative: LayoutPath.under(relative, LayoutNames.dcim))
        let mutations = LayoutPath.join(root, LayoutNames.mutations)
        for album in LayoutPath.names(in: mutations) {
            let originals = LayoutPath.names(in: LayoutPath.join(root, LayoutNames.dcim + "/" + album))
            for stem in LayoutPath.names(in: LayoutPath.join(mutations, album)) {
                let adjustments = LayoutPath.join(mutations, album + "/" + stem + "/" + LayoutNames.adjustmentsFolder)
                let files = LayoutPath.names(in: adjustments)
                let hasOriginal = originals.contains {
                    (LayoutNames.isPhotoName($0) || LayoutNames.isVideoName($0)) && LayoutNames.stem($0) == stem
                }
                for name in files {
                    if LayoutNames.isFullSizeRenderName(name) || LayoutNames.isVideoName(name) {
                        walk.result.counts.appleRenders += 1
                    } else if name.lowercased() == LayoutNames.adjustmentsPlist, !hasOriginal {
                        walk.result.counts.editsWithoutOriginal += 1
                        let companions = DCIMLayout.adjustmentsCompanions(in: adjustments, names: files)
                        walk.result.photos.append(FoundPhoto(
                            original: nil, edit: LayoutPath.join(adjustments, name), appleRender: companions.appleRender,
                            layout: .iPhone, note: "the original is not in \(LayoutNames.dcim)/\(album)/",
                            relativePath: LayoutPath.under(relative, LayoutNames.dcim + "/" + album + "/" + stem), name: stem))
                    } else if LayoutNames.isEditName(name) {
                        walk.result.counts.edits += 1
                    } else {
                        walk.result.counts.other += 1
                    }
                }
            }
        }
    }
}
