import Foundation

/// Lists the photos under folders as (original, edit?, Apple's render?) with the layout each came
/// from (`PhotoLayout`, docs/spec/aae-format.md §1). `adjust fidelity` uses it; it is meant to be
/// the one discovery of every command that looks for modern edits.
///
/// Folders are walked recursively, hidden entries skipped, by name within a folder. On the way:
/// - a Photos 5+ library (a folder holding `originals/` and `resources/renders/`) gives each photo
///   of `originals/` (JPEG, HEIC; videos and other files are not photos), then each
///   `resources/renders/H/UUID.plist` whose original is not in the library, with `original` nil;
///   nothing else under `resources/` is walked;
/// - an iPhone `Media` folder (holding `DCIM/` and `PhotoData/Mutations/DCIM/`) gives each photo of
///   `DCIM/`, then each `Mutations/…/IMG_n/Adjustments/Adjustments.plist` whose original is not in
///   `DCIM/`; nothing else under `PhotoData/` is walked;
/// - a folder holding `Adjustments.plist` and `FullSizeRender.*` pairs them with its one other photo;
/// - any other photo is an original, except `IMG_E…` (Apple's renders) and `FullSizeRender.*`.
///
/// An original is classified by where it lies, so naming a file, or a subfolder of a library or of
/// `DCIM/`, finds the same edit and render as walking from the top. Each original is listed once.
public enum PhotoDiscovery {
    /// Every photo under `inputs` (folders walked; a file is taken as an original), in the order given.
    public static func find(in inputs: [String]) -> [FoundPhoto] {
        var walk = Walk()
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                walk.add(FoundPhoto(original: input, edit: nil, appleRender: nil, layout: .sidecar,
                                    failure: FileError(path: input, kind: .unreadable, problem: "no such file or folder")))
                continue
            }
            if isDirectory.boolValue {
                var folder = input
                while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
                walk.folder(folder)
            } else {
                walk.add(photo(forOriginal: input))
            }
        }
        return walk.found
    }

    /// The edit and Apple's render of the original at `path`, by the layout its place on disk
    /// says: a Photos library's `originals/H/`, an iPhone's `DCIM/1xxAPPLE/` with its `Mutations`
    /// folder, or else beside it (sidecar).
    public static func photo(forOriginal path: String) -> FoundPhoto {
        photo(forOriginal: path, folderNames: nil)
    }

    static func photo(forOriginal path: String, folderNames: [String]?) -> FoundPhoto {
        let layout: PhotoLayout
        let parent = PhotoLayout.folder(of: path), grandparent = PhotoLayout.folder(of: parent)
        let root = PhotoLayout.folder(of: grandparent)
        if (grandparent as NSString).lastPathComponent == "originals", PhotoLayout.isLibraryRoot(root) {
            layout = .photosLibrary
        } else if (grandparent as NSString).lastPathComponent == "DCIM", PhotoLayout.isIPhoneMediaRoot(root) {
            layout = .iPhone
        } else {
            layout = .sidecar
        }
        let (edit, render) = layout.companions(ofOriginal: path, folderNames: folderNames)
        return FoundPhoto(original: path, edit: edit, appleRender: render, layout: layout)
    }

    /// The walk's state: what was found, and which originals were listed already.
    private struct Walk {
        var found: [FoundPhoto] = []
        private var seen = Set<String>()

        mutating func add(_ photo: FoundPhoto) {
            if let original = photo.original {
                let key = URL(fileURLWithPath: original).standardizedFileURL.resolvingSymlinksInPath().path
                guard seen.insert(key).inserted else { return }
            }
            found.append(photo)
        }

        mutating func folder(_ folder: String) {
            if PhotoLayout.isLibraryRoot(folder) { return library(folder) }
            if PhotoLayout.isIPhoneMediaRoot(folder) { return iPhoneMedia(folder) }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
            } catch {
                add(FoundPhoto(original: nil, edit: nil, appleRender: nil, layout: .sidecar,
                               failure: FileError(path: folder, kind: .unreadable, problem: "cannot read the folder")))
                return
            }
            var files: [String] = [], folders: [String] = []
            for name in names {
                if PhotoLayout.isFolder(PhotoLayout.join(folder, name)) { folders.append(name) } else { files.append(name) }
            }
            photos(in: folder, files: files)
            for name in folders { self.folder(PhotoLayout.join(folder, name)) }
        }

        /// The photos among `files`, the entries of `folder` that are not folders.
        private mutating func photos(in folder: String, files: [String]) {
            let photos = files.filter {
                PhotoLayout.isPhotoName($0) && !PhotoLayout.isAppleRenderName($0) && !PhotoLayout.isFullSizeRenderName($0)
            }
            if files.contains(where: { $0.lowercased() == "adjustments.plist" }),
               files.contains(where: PhotoLayout.isFullSizeRenderName) {
                if photos.count == 1 {
                    let original = PhotoLayout.join(folder, photos[0])
                    let (edit, render) = PhotoLayout.adjustmentsFolder.companions(ofOriginal: original, folderNames: files)
                    add(FoundPhoto(original: original, edit: edit, appleRender: render, layout: .adjustmentsFolder))
                    return
                }
                let (edit, render) = PhotoLayout.adjustmentsFolder.companions(ofOriginal: PhotoLayout.join(folder, "_"),
                                                                            folderNames: files)
                add(FoundPhoto(original: nil, edit: edit, appleRender: render, layout: .adjustmentsFolder, note: photos.isEmpty
                    ? "no original photo in the folder: copy it beside Adjustments.plist"
                    : "\(photos.count) photos beside Adjustments.plist: cannot tell which is the original"))
            }
            for name in photos { add(PhotoDiscovery.photo(forOriginal: PhotoLayout.join(folder, name), folderNames: files)) }
        }

        /// A Photos 5+ library: its originals, then the edits whose original is missing.
        private mutating func library(_ root: String) {
            let originals = PhotoLayout.join(root, "originals"), renders = PhotoLayout.join(root, "resources/renders")
            var stems = Set<String>()
            for hash in PhotoLayout.names(in: originals) where PhotoLayout.isFolder(PhotoLayout.join(originals, hash)) {
                let folder = PhotoLayout.join(originals, hash)
                for name in PhotoLayout.names(in: folder) where PhotoLayout.isPhotoName(name) {
                    stems.insert(hash + "/" + (name as NSString).deletingPathExtension)
                    add(PhotoDiscovery.photo(forOriginal: PhotoLayout.join(folder, name)))
                }
            }
            for hash in PhotoLayout.names(in: renders) where PhotoLayout.isFolder(PhotoLayout.join(renders, hash)) {
                let folder = PhotoLayout.join(renders, hash)
                let names = PhotoLayout.names(in: folder)
                for name in names where (name as NSString).pathExtension == "plist" {
                    let stem = (name as NSString).deletingPathExtension
                    guard !stem.contains("_"), !stems.contains(hash + "/" + stem) else { continue }
                    let render = names.first {
                        PhotoLayout.isPhotoName($0) && ($0 as NSString).deletingPathExtension == stem + "_1_201_a"
                    }
                    add(FoundPhoto(original: nil, edit: PhotoLayout.join(folder, name),
                                   appleRender: render.map { PhotoLayout.join(folder, $0) }, layout: .photosLibrary,
                                   note: "the original is not in the library (originals/\(hash)/\(stem).*)"))
                }
            }
        }

        /// An iPhone's `Media` folder: the photos of `DCIM/`, then the edits whose original is missing.
        private mutating func iPhoneMedia(_ root: String) {
            let dcim = PhotoLayout.join(root, "DCIM"), mutations = PhotoLayout.join(root, "PhotoData/Mutations/DCIM")
            folder(dcim)
            for album in PhotoLayout.names(in: mutations) where PhotoLayout.isFolder(PhotoLayout.join(mutations, album)) {
                let originals = PhotoLayout.names(in: PhotoLayout.join(dcim, album))
                for photo in PhotoLayout.names(in: PhotoLayout.join(mutations, album)) {
                    let adjustments = PhotoLayout.join(mutations, album + "/" + photo + "/Adjustments")
                    guard PhotoLayout.isFolder(adjustments),
                          !originals.contains(where: { PhotoLayout.isPhotoName($0) && ($0 as NSString).deletingPathExtension == photo })
                    else { continue }
                    let names = PhotoLayout.names(in: adjustments)
                    guard let plist = names.first(where: { $0.lowercased() == "adjustments.plist" }) else { continue }
                    let render = names.first(where: PhotoLayout.isFullSizeRenderName)
                    add(FoundPhoto(original: nil, edit: PhotoLayout.join(adjustments, plist),
                                   appleRender: render.map { PhotoLayout.join(adjustments, $0) }, layout: .iPhone,
                                   note: "the original is not in DCIM/\(album)/"))
                }
            }
        }
    }
}
