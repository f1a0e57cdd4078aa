import Foundation

/// The one walk over where users keep their photos (docs/spec/aae-format.md §1): `batch`,
/// `fidelity`, `render`, `inspect` and the importer API (`PhotoDiscovery`) all find photos, their
/// edits and Apple's renders through it; what each does with them is its own policy.
///
/// Inputs are files and folders, in the order given. Folders are walked recursively, by name,
/// hidden entries, dangling links and the `excluding` folders skipped; on the way:
/// - a Photos library (`PhotosLibraryLayout.isLibraryRoot`) is read through its database;
/// - an iPhone `Media` folder (`IPhoneBackupLayout`) gives the photos of `DCIM/` with the edits of
///   `PhotoData/Mutations`;
/// - a `Mutations/…/Adjustments` folder copied out pairs `Adjustments.plist` and
///   `FullSizeRender.*` with its one other photo (`DCIMLayout`);
/// - in any other folder, a photo is an original with the `.AAE`, `IMG_E…` render and motion
///   beside it (`DCIMLayout`), unless it is itself Apple's render of a photo beside it; videos and
///   other pictures are files to copy (a video with a photo's stem is that Live Photo's motion);
///   sidecars are counted.
/// A file named directly is classified by where it lies, so naming a file, or a subfolder of a
/// library or of `DCIM/`, finds the same edit and render as walking from the top. Each file is
/// listed once (by device and inode), whatever path names it.
package struct PhotoWalker: Sendable {
    /// Whether a library's trashed assets come out.
    package var includeTrashed: Bool
    /// Folders never walked (a batch's output folder).
    package var excluded: Set<FileIdentity>

    package init(includeTrashed: Bool = false, excluding folders: [String] = []) {
        self.includeTrashed = includeTrashed
        excluded = Set(folders.compactMap(FileIdentity.init(path:)))
    }

    /// Everything under `inputs`.
    package func walk(_ inputs: [String]) -> PhotoWalk {
        var state = State(includeTrashed: includeTrashed, excluded: excluded)
        let named = Set(inputs.map(LayoutPath.name(of:)))
        for input in inputs {
            var status = stat()
            guard stat(input, &status) == 0 else {
                let problem = errno == ENOENT ? "no such file or folder" : "cannot open: \(String(cString: strerror(errno)))"
                state.result.photos.append(FoundPhoto(original: input, edit: nil, appleRender: nil, layout: .sidecar,
                                                      failure: FileError(path: input, kind: .unreadable, problem: problem),
                                                      relativePath: ""))
                continue
            }
            if status.st_mode & S_IFMT == S_IFDIR {
                var root = input
                while root.count > 1, root.hasSuffix("/") { root.removeLast() }
                state.folder(root, relative: "")
            } else {
                state.namedFile(input, among: named)
            }
        }
        return state.result
    }

    /// The photo at `path` with its edit, Apple's render and motion, by the layout its place on
    /// disk says: a library's `originals/H/`, an iPhone's `DCIM/1xxAPPLE/` with its `Mutations`
    /// folder, an `Adjustments` folder, or else the names beside it.
    package static func photo(forOriginal path: String) -> FoundPhoto {
        photo(forOriginal: path, names: FolderNames(LayoutPath.names(in: LayoutPath.folder(of: path))))
    }

    /// The edit a library or an iPhone backup keeps for the original at `path` away from it (a
    /// library's `UUID.plist` or camera-time `UUID_5.aae`, a backup's `Mutations/…/Adjustments.plist`),
    /// found from the path alone; nil elsewhere, where the edit lies beside the photo (`EditSource`
    /// looks there, after the photo's own XMP).
    package static func layoutEdit(ofOriginal path: String) -> String? {
        if let root = PhotosLibraryLayout.libraryRoot(ofOriginal: path) {
            return PhotosLibraryLayout.companions(ofUUID: LayoutNames.stem(path), root: root).edit
        }
        if let root = IPhoneBackupLayout.mediaRoot(ofOriginal: path) {
            let adjustments = IPhoneBackupLayout.adjustmentsFolder(ofOriginal: path, mediaRoot: root)
            return DCIMLayout.adjustmentsCompanions(in: adjustments, names: LayoutPath.names(in: adjustments)).edit
        }
        return nil
    }

    static func photo(forOriginal path: String, names: FolderNames) -> FoundPhoto {
        if let root = PhotosLibraryLayout.libraryRoot(ofOriginal: path) {
            return PhotosLibraryLayout.found(photoAt: path, uuid: LayoutNames.stem(path), root: root)
        }
        let companions: Companions, layout: PhotoLayout
        if let root = IPhoneBackupLayout.mediaRoot(ofOriginal: path) {
            (companions, layout) = (IPhoneBackupLayout.companions(ofOriginal: path, mediaRoot: root, names: names), .iPhone)
        } else if names.named(LayoutNames.adjustmentsPlist) != nil, DCIMLayout.isAdjustmentsFolder(names.names),
                  names.names.filter({ LayoutNames.isPhotoName($0) && !LayoutNames.isFullSizeRenderName($0) }).count == 1 {
            (companions, layout) = (DCIMLayout.adjustmentsCompanions(in: LayoutPath.folder(of: path), names: names.names),
                                    .adjustmentsFolder)
        } else {
            (companions, layout) = (DCIMLayout.companions(ofOriginal: path, names: names), .sidecar)
        }
        var photo = FoundPhoto(original: path, edit: companions.edit, appleRender: companions.appleRender, layout: layout)
        (photo.motion, photo.editedMotion) = (companions.motion, companions.editedMotion)
        return photo
    }

    /// The walk's state: what was found, and what was listed already.
    package struct State {
        package var result = PhotoWalk()
        let includeTrashed: Bool
        let excluded: Set<FileIdentity>
        private var seen = Set<FileIdentity>()
        private var visited = Set<FileIdentity>()
        /// The folders of files named on the command line, each indexed once with the names given.
        private var namedFolders: [String: FolderNames] = [:]

        init(includeTrashed: Bool, excluded: Set<FileIdentity>) {
            (self.includeTrashed, self.excluded) = (includeTrashed, excluded)
        }

        /// A photo, unless its file was listed already.
        mutating func add(_ photo: FoundPhoto) {
            var photo = photo
            if let original = photo.original, photo.failure == nil {
                guard let identity = photo.identity ?? FileIdentity(path: original) else {
                    photo.failure = FileError(path: original, kind: .unreadable, problem: "cannot open: \(String(cString: strerror(errno)))")
                    result.photos.append(photo)
                    return
                }
                guard seen.insert(identity).inserted else { return }
                photo.identity = identity
            }
            result.photos.append(photo)
        }

        /// A file to copy, unless it was listed already.
        mutating func add(_ file: FoundFile) {
            var file = file
            guard let identity = file.identity ?? FileIdentity(path: file.path), seen.insert(identity).inserted else { return }
            file.identity = identity
            result.files.append(file)
        }

        /// A file named on the command line: a photo (unless it is Apple's render of another photo
        /// named or beside it), a file to copy, or counted by kind — so `batch *` in a DCIM folder
        /// is `batch .`.
        mutating func namedFile(_ path: String, among named: Set<String>) {
            let folder = LayoutPath.folder(of: path)
            let names = namedFolders[folder] ?? FolderNames(Array(Set(LayoutPath.names(in: folder)).union(named)).sorted())
            namedFolders[folder] = names
            file(path, relative: LayoutPath.name(of: path), names: names)
        }

        /// A folder, walked; a library or an iPhone `Media` folder by its own rules.
        mutating func folder(_ folder: String, relative: String) {
            guard let identity = FileIdentity(path: folder), !excluded.contains(identity), visited.insert(identity).inserted else { return }
            if PhotosLibraryLayout.isLibraryRoot(folder) { return PhotosLibraryLayout.walk(folder, relative: relative, into: &self) }
            if IPhoneBackupLayout.isMediaRoot(folder) { return IPhoneBackupLayout.walk(folder, relative: relative, into: &self) }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: LayoutPath.forSystem(folder))
                    .filter { !$0.hasPrefix(".") }.sorted()
            } catch {
                result.photos.append(FoundPhoto(original: nil, edit: nil, appleRender: nil, layout: .sidecar,
                                                failure: FileError(path: folder, kind: .unreadable, problem: "cannot read the folder"),
                                                relativePath: relative, name: folder))
                return
            }
            var files: [String] = [], folders: [String] = []
            for name in names {
                var status = stat()
                guard stat(LayoutPath.join(folder, name), &status) == 0 else { continue }   // a dangling link
                if status.st_mode & S_IFMT == S_IFDIR { folders.append(name) } else if status.st_mode & S_IFMT == S_IFREG { files.append(name) }
            }
            if DCIMLayout.isAdjustmentsFolder(files) { adjustmentsFolder(folder, relative: relative, files: files) } else {
                let names = FolderNames(files)
                for name in files { file(LayoutPath.join(folder, name), relative: LayoutPath.under(relative, name), names: names) }
            }
            for name in folders { self.folder(LayoutPath.join(folder, name), relative: LayoutPath.under(relative, name)) }
        }

        /// One file of a plain folder (or named): `names` its folder's entries (and, for a file
        /// named, those named with it), which it is paired and judged against.
        private mutating func file(_ path: String, relative: String, names: FolderNames) {
            let name = LayoutPath.name(of: path)
            if LayoutNames.isPhotoName(name) {
                if DCIMLayout.isRender(name, among: names) { result.counts.appleRenders += 1; return }
                var photo = PhotoWalker.photo(forOriginal: path, names: names)
                photo.relativePath = relative
                add(photo)
            } else if LayoutNames.isVideoName(name) {
                if LayoutNames.isAppleRenderName(name), DCIMLayout.isRender(name, among: names)
                    || DCIMLayout.isMotion(LayoutNames.cameraPrefix + name.dropFirst(LayoutNames.renderPrefix.count), among: names) {
                    result.counts.appleRenders += 1   // IMG_E1234.MOV: the edited motion or video
                    return
                }
                let motion = DCIMLayout.isMotion(name, among: names)
                let render = DCIMLayout.renderStem(of: LayoutNames.stem(name).lowercased())
                    .flatMap { names.withStem($0).first(where: LayoutNames.isVideoName) }
                add(FoundFile(path: path, kind: motion ? .motion : .video, relativePath: relative, name: path,
                              appleRender: render.map { LayoutPath.join(LayoutPath.folder(of: path), $0) },
                              edit: motion ? nil : DCIMLayout.companions(ofOriginal: path, names: names).edit))
            } else if LayoutNames.isOtherPictureName(name) {
                add(FoundFile(path: path, kind: .otherPicture, relativePath: relative, name: path))
            } else if LayoutNames.isEditName(name) {
                result.counts.edits += 1
            } else {
                result.counts.other += 1
            }
        }

        /// A `Mutations/…/Adjustments` folder copied out: its one original with the edit and render.
        private mutating func adjustmentsFolder(_ folder: String, relative: String, files: [String]) {
            let photos = files.filter { LayoutNames.isPhotoName($0) && !LayoutNames.isFullSizeRenderName($0) }
            let companions = DCIMLayout.adjustmentsCompanions(in: folder, names: files)
            for name in files where !photos.contains(name) {
                if LayoutNames.isEditName(name) { result.counts.edits += 1 } else if LayoutNames.isFullSizeRenderName(name)
                    || LayoutNames.isVideoName(name) { result.counts.appleRenders += 1 } else { result.counts.other += 1 }
            }
            guard photos.count == 1 else {
                result.photos.append(FoundPhoto(original: nil, edit: companions.edit, appleRender: companions.appleRender,
                                                layout: .adjustmentsFolder, note: photos.isEmpty
                    ? "no original photo in the folder: copy it beside Adjustments.plist"
                    : "\(photos.count) photos beside Adjustments.plist: cannot tell which is the original",
                                                relativePath: relative, name: folder))
                if photos.count > 1 { for name in photos { file(LayoutPath.join(folder, name), relative: LayoutPath.under(relative, name),
                                                                 names: FolderNames([])) } }
                return
            }
            var photo = FoundPhoto(original: LayoutPath.join(folder, photos[0]), edit: companions.edit,
                                   appleRender: companions.appleRender, layout: .adjustmentsFolder,
                                   relativePath: LayoutPath.under(relative, photos[0]))
            photo.editedMotion = companions.editedMotion
            add(photo)
        }
    }
}
