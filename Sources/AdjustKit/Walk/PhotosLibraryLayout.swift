import Foundation

/// A macOS Photos 5+ library (docs/spec/aae-format.md §1, docs/spec/photos-library.md): the
/// database lists every asset; `originals/H/UUID.ext` holds each original (H: the UUID's first
/// character), `originals/H/UUID_3.mov` a Live Photo's motion, `originals/H/UUID_5.aae` the
/// camera-time adjustments; `resources/renders/H/UUID.plist` is the user's edit, beside Photos'
/// renders of it (`UUID_1_201_a.jpeg|heic` for a photo, `UUID_2_0_a.mov` for a video,
/// `UUID_2_100_a.mov` for a Live Photo's motion).
package enum PhotosLibraryLayout {
    /// Whether `folder` is a library's root: it holds `database/Photos.sqlite` (a library in which
    /// nothing was ever edited has no `resources/renders/`), or `originals/` with
    /// `resources/renders/` (one copied without its database), or it is a `.photoslibrary`
    /// package with `originals/`.
    package static func isLibraryRoot(_ folder: String) -> Bool {
        let originals = LayoutPath.isFolder(LayoutPath.join(folder, LayoutNames.libraryOriginals))
        if LayoutPath.isFile(LayoutPath.join(folder, LayoutNames.libraryDatabase)) { return true }
        if originals, LayoutPath.isFolder(LayoutPath.join(folder, LayoutNames.libraryRenders)) { return true }
        return originals && LayoutNames.lowerExtension(folder) == LayoutNames.libraryExtension
    }

    /// The library root of the original at `path` when it lies in `originals/H/`; nil otherwise.
    static func libraryRoot(ofOriginal path: String) -> String? {
        let hash = LayoutPath.folder(of: path), originals = LayoutPath.folder(of: hash)
        guard LayoutPath.name(of: originals) == LayoutNames.libraryOriginals else { return nil }
        let root = LayoutPath.folder(of: originals)
        return isLibraryRoot(root) ? root : nil
    }

    /// The companions of the asset `uuid` whose original lies in `root`'s `originals/H/`: its
    /// edit (`UUID.plist`, else the camera-time `UUID_5.aae`), Photos' render, its motion and
    /// edited motion.
    static func companions(ofUUID uuid: String, root: String) -> Companions {
        var folders = FolderIndex()
        return companions(ofUUID: uuid, root: root, folders: &folders)
    }

    static func companions(ofUUID uuid: String, root: String, folders: inout FolderIndex) -> Companions {
        let hash = String(uuid.prefix(1))
        let renders = LayoutPath.join(root, LayoutNames.libraryRenders + "/" + hash)
        let originals = LayoutPath.join(root, LayoutNames.libraryOriginals + "/" + hash)
        let renderNames = folders.names(in: renders, of: uuid), originalNames = folders.names(in: originals, of: uuid)
        func render(_ suffix: String, _ accepts: (String) -> Bool) -> String? {
            renderNames.first { accepts($0) && LayoutNames.stem($0) == uuid + suffix }.map { LayoutPath.join(renders, $0) }
        }
        let userEdit = renderNames.first { $0 == uuid + ".plist" }.map { LayoutPath.join(renders, $0) }
        let cameraTime = originalNames.first {
            LayoutNames.lowerExtension($0) == LayoutNames.aaeExtension && LayoutNames.stem($0) == uuid + LayoutNames.libraryCameraAdjustmentsSuffix
        }.map { LayoutPath.join(originals, $0) }
        let motion = originalNames.first {
            LayoutNames.isVideoName($0) && LayoutNames.stem($0) == uuid + LayoutNames.libraryMotionSuffix
        }.map { LayoutPath.join(originals, $0) }
        return Companions(edit: userEdit ?? cameraTime,
                          appleRender: render(LayoutNames.libraryPhotoRenderSuffix, LayoutNames.isPhotoName)
                            ?? render(LayoutNames.libraryVideoRenderSuffix, LayoutNames.isVideoName),
                          motion: motion,
                          editedMotion: render(LayoutNames.libraryEditedMotionSuffix, LayoutNames.isVideoName))
    }

    /// The library at `root`: every asset of its database, named by its original file name
    /// (`PhotosOutputNames`, over every row, so that no later run renames an output); photos to
    /// render, videos, Live Photo motion and other pictures to copy, assets whose original is not
    /// on disk listed; the files of `originals/` no row names, by their UUID names. Without a
    /// readable database, the files of `originals/` by their UUID names (said once).
    static func walk(_ root: String, relative: String, into walk: inout PhotoWalker.State) {
        var folders = FolderIndex()
        var covered = Set<String>()   // originals/H/NAME already accounted for
        var withOriginal = Set<String>()   // UUIDs whose original is on disk (in the trash or not)
        do {
            let database = try PhotosLibraryDatabase(libraryPath: root)
            let names = database.outputNames()
            if let note = database.metadataNote { walk.result.remarks.append("\(root): \(note)") }
            var comesOut = Set<String>()
            for asset in database.assets() {
                if let path = asset.originalPath(inLibrary: root) { covered.insert(path) }
                if case .inLibrary = asset.original {
                    let hash = String(asset.uuid.prefix(1)), folder = LayoutPath.join(root, LayoutNames.libraryOriginals + "/" + hash)
                    for name in folders.names(in: folder, of: asset.uuid) where LayoutNames.stem(name).hasPrefix(asset.uuid + "_") {
                        covered.insert(LayoutPath.join(folder, name))   // its motion and camera-time adjustments
                    }
                }
                switch add(asset, stem: names.stem(forUUID: asset.uuid), root: root, relative: relative, folders: &folders, into: &walk) {
                case .comesOut: (_, _) = (comesOut.insert(asset.uuid), withOriginal.insert(asset.uuid))
                case .leftOut: withOriginal.insert(asset.uuid)
                case .missing: break
                }
            }
            for collision in names.collisions where collision.uuids.contains(where: {
                comesOut.contains($0) && names.stem(forUUID: $0) != collision.name }) {
                walk.result.remarks.append("\(root): \(collision.uuids.count) assets are named \"\(collision.name)\": "
                    + collision.uuids.map { "\($0.prefix(8)) → \(names.stem(forUUID: $0))" }.joined(separator: ", "))
            }
        } catch {
            walk.result.remarks.append("\(error.description); outputs are named by Photos' internal UUIDs")
        }
        // Files of originals/ the database does not name (or no database): by their UUID names.
        let originals = LayoutPath.join(root, LayoutNames.libraryOriginals)
        for hash in LayoutPath.names(in: originals) where LayoutPath.isFolder(LayoutPath.join(originals, hash)) {
            let folder = LayoutPath.join(originals, hash)
            for name in LayoutPath.names(in: folder) where !covered.contains(LayoutPath.join(folder, name)) {
                let path = LayoutPath.join(folder, name), stem = LayoutNames.stem(name)
                if stem.contains("_") {   // UUID_3.mov, UUID_5.aae: found with their asset
                    if LayoutNames.isEditName(name) { walk.result.counts.edits += 1 }
                    continue
                }
                let rel = LayoutPath.under(relative, name)
                withOriginal.insert(stem)
                if LayoutNames.isPhotoName(name) {
                    var photo = found(photoAt: path, uuid: stem, root: root, folders: &folders)
                    (photo.relativePath, photo.name) = (rel, path)
                    walk.add(photo)
                } else if LayoutNames.isVideoName(name) || LayoutNames.isOtherPictureName(name) {
                    let companions = companions(ofUUID: stem, root: root, folders: &folders)
                    walk.add(FoundFile(path: path, kind: LayoutNames.isVideoName(name) ? .video : .otherPicture, relativePath: rel,
                                       name: path, appleRender: companions.appleRender, edit: companions.edit))
                } else {
                    walk.result.counts.other += 1
                }
            }
        }
        countRenders(root, withOriginal: withOriginal, walk: &walk)
    }

    /// What became of one asset row.
    private enum Outcome { case comesOut, leftOut, missing }

    /// One asset row: it comes out, or is left out (the trash), or its original is missing.
    private static func add(_ asset: PhotosLibraryAsset, stem: String, root: String, relative: String,
                            folders: inout FolderIndex, into walk: inout PhotoWalker.State) -> Outcome {
        let userName = asset.originalFileName ?? asset.fileName ?? asset.uuid
        guard let path = asset.originalPath(inLibrary: root), LayoutPath.isFile(path) else {
            // A trashed asset without its original is nothing the user would miss.
            guard !asset.isTrashed || walk.includeTrashed else { return .missing }
            walk.result.missing.append(MissingOriginal(name: userName, uuid: asset.uuid, expected: asset.originalPath(inLibrary: root),
                                                       edited: asset.hasAdjustments, isVideo: asset.kind == .video))
            return .missing
        }
        if asset.isTrashed, !walk.includeTrashed { walk.result.counts.trashed += 1; return .leftOut }
        let ext = (path as NSString).pathExtension
        let rel = LayoutPath.under(relative, stem + (ext.isEmpty ? "" : "." + ext))
        let companions = companions(ofUUID: asset.uuid, root: root, folders: &folders)
        if asset.kind == .video || LayoutNames.isVideoName(path) {
            walk.add(FoundFile(path: path, kind: .video, relativePath: rel, name: userName,
                               appleRender: companions.appleRender.flatMap { LayoutNames.isVideoName($0) ? $0 : nil },
                               edit: companions.edit, libraryAsset: asset))
            return .comesOut
        }
        guard LayoutNames.isPhotoName(path) else {
            walk.add(FoundFile(path: path, kind: .otherPicture, relativePath: rel, name: userName, libraryAsset: asset))
            return .comesOut
        }
        var photo = found(photoAt: path, uuid: asset.uuid, root: root, folders: &folders)
        (photo.relativePath, photo.name, photo.libraryAsset) = (rel, userName, asset)
        walk.add(photo)
        if let motion = photo.motion {
            let motionExt = (motion as NSString).pathExtension
            walk.add(FoundFile(path: motion, kind: .motion, relativePath: LayoutPath.under(relative, stem + "." + motionExt),
                               name: userName + " (Live Photo motion)", appleRender: photo.editedMotion,
                               edit: photo.edit.flatMap { LayoutNames.lowerExtension($0) == "plist" ? $0 : nil },
                               libraryAsset: asset))
        }
        return .comesOut
    }

    /// The photo at `path`, the original of asset `uuid`, with its companions.
    static func found(photoAt path: String, uuid: String, root: String) -> FoundPhoto {
        var folders = FolderIndex()
        return found(photoAt: path, uuid: uuid, root: root, folders: &folders)
    }

    static func found(photoAt path: String, uuid: String, root: String, folders: inout FolderIndex) -> FoundPhoto {
        let companions = companions(ofUUID: uuid, root: root, folders: &folders)
        var photo = FoundPhoto(original: path, edit: companions.edit,
                               appleRender: companions.appleRender.flatMap { LayoutNames.isPhotoName($0) ? $0 : nil },
                               layout: .photosLibrary)
        (photo.motion, photo.editedMotion) = (companions.motion, companions.editedMotion)
        return photo
    }

    /// `resources/renders/`: each plist is an edit (or one whose original is not there), every
    /// image Photos' render or a derivative: counted, never walked as photos.
    private static func countRenders(_ root: String, withOriginal: Set<String>, walk: inout PhotoWalker.State) {
        let renders = LayoutPath.join(root, LayoutNames.libraryRenders)
        for hash in LayoutPath.names(in: renders) {
            let folderNames = LayoutPath.names(in: LayoutPath.join(renders, hash))
            for name in folderNames {
                let stem = LayoutNames.stem(name)
                if LayoutNames.lowerExtension(name) == "plist" {
                    if !stem.contains("_"), !withOriginal.contains(stem) {
                        walk.result.counts.editsWithoutOriginal += 1
                        let folder = LayoutPath.join(renders, hash)
                        let render = folderNames.first {
                            LayoutNames.isPhotoName($0) && LayoutNames.stem($0) == stem + LayoutNames.libraryPhotoRenderSuffix
                        }
                        // Named among the missing assets already when the database lists it.
                        walk.result.photos.append(FoundPhoto(
                            original: nil, edit: LayoutPath.join(folder, name), appleRender: render.map { LayoutPath.join(folder, $0) },
                            layout: .photosLibrary, note: "the original is not in the library (originals/\(hash)/\(stem).*)",
                            relativePath: stem, name: walk.result.missing.first { $0.uuid == stem }?.name ?? stem))
                    } else {
                        walk.result.counts.edits += 1
                    }
                } else if LayoutNames.isPhotoName(name) || LayoutNames.isVideoName(name) {
                    walk.result.counts.appleRenders += 1
                } else {
                    walk.result.counts.other += 1
                }
            }
        }
    }
}

/// The files of a library's `originals/H/` and `resources/renders/H/` folders, each folder listed
/// once and its names grouped by the UUID they start with (`UUID.jpeg`, `UUID_3.mov`,
/// `UUID_1_201_a.jpeg`): a walk of 20 000 assets lists 32 folders, not 40 000.
struct FolderIndex {
    private var folders: [String: [Substring: [String]]] = [:]

    /// The names in `folder` that start with `uuid` (then `.` or `_`), sorted.
    mutating func names(in folder: String, of uuid: String) -> [String] {
        if let groups = folders[folder] { return groups[Substring(uuid)] ?? [] }
        var groups: [Substring: [String]] = [:]
        for name in LayoutPath.names(in: folder) {
            groups[name.prefix { $0 != "_" && $0 != "." }, default: []].append(name)
        }
        folders[folder] = groups
        return groups[Substring(uuid)] ?? []
    }
}
