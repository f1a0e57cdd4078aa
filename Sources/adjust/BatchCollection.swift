import AdjustKit
import Foundation

/// What a batch found under its inputs besides the photos: every file met is either a photo to
/// render or counted here by kind (issue 20: "12 videos, 40 edits, 38 Apple renders ignored"), and
/// takes no output name.
struct BatchIgnored: Codable, Sendable, Equatable {
    var videos = 0
    /// `.AAE`, `Adjustments.plist`, a library's `UUID.plist`, `.xmp` sidecars: read with their
    /// photos, never rendered as photos.
    var edits = 0
    /// `IMG_E1234.*`, `FullSizeRender.*`, a library's `resources/renders/…` files.
    var appleRenders = 0
    /// Assets in a Photos library's trash (`--include-trashed` renders them).
    var trashed = 0
    /// Edits whose original is not there (a library edit without its `originals/` file, an iPhone
    /// `Mutations` folder without its `DCIM` photo).
    var editsWithoutOriginal = 0
    /// Anything else: PNG screenshots, documents, a library's database…
    var other = 0

    var total: Int { videos + edits + appleRenders + trashed + editsWithoutOriginal + other }

    /// "12 videos, 40 edits, 38 Apple renders ignored", or nil when nothing was.
    var sentence: String? {
        let parts: [(Int, String, String)] = [
            (videos, "video", "videos"), (edits, "edit file", "edit files"), (appleRenders, "Apple render", "Apple renders"),
            (trashed, "photo in the trash", "photos in the trash"),
            (editsWithoutOriginal, "edit without its original", "edits without their original"),
            (other, "other file", "other files"),
        ]
        let named = parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
        return named.isEmpty ? nil : named.joined(separator: ", ") + " ignored"
    }

    static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "avi", "3gp", "mts", "m2ts"]
    static let editExtensions: Set<String> = ["aae", "plist", "xmp"]
}

/// Finding the photos of a batch where users keep them (docs/spec/aae-format.md §1): a Photos 5+
/// library (outputs named by each asset's original file name from `Photos.sqlite`), an iPhone's
/// `Media` folder, DCIM copies and exports. Each photo's edit and Apple's render come from
/// `PhotoLayout`'s rules; every other file is counted in `BatchIgnored`.
struct BatchCollection {
    var items: [BatchItem] = []
    var ignored = BatchIgnored()
    /// One line each: a library read without its database, name collisions, edits without their
    /// original, referenced originals not found.
    var remarks: [String] = []

    let includeTrashed: Bool
    private var seen = Set<BatchFiles.Key>()
    private var visitedFolders = Set<BatchFiles.Key>()
    private let outKey: BatchFiles.Key?

    init(includeTrashed: Bool, out: String) {
        self.includeTrashed = includeTrashed
        outKey = BatchFiles.key(out)
    }

    // MARK: inputs

    /// A file named on the command line: a photo (unless it is Apple's render of another photo
    /// named or beside it), or counted by kind — so `batch *` in a DCIM folder is `batch .`.
    mutating func addNamedFile(_ path: String, among named: Set<String>) {
        let name = (path as NSString).lastPathComponent
        let folderNames = Set(PhotoLayout.names(in: PhotoLayout.folder(of: path))).union(named)
        guard classify(name, among: folderNames) == nil else { return }
        addPhoto(path, relative: name, found: PhotoDiscovery.photo(forOriginal: path))
    }

    /// A folder, walked; a library or an iPhone `Media` folder by its own rules.
    mutating func addFolder(_ folder: String, relative: String) {
        guard let key = BatchFiles.key(folder), key != outKey, visitedFolders.insert(key).inserted else { return }
        if PhotoLayout.isLibraryRoot(folder) { return library(folder, relative: relative) }
        if PhotoLayout.isIPhoneMediaRoot(folder) { return iPhoneMedia(folder, relative: relative) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            items.append(BatchItem(input: folder, relative: relative, failure: FileError(
                path: folder, kind: .unreadable, problem: "cannot read the folder: \(BatchFiles.oneLine(error))")))
            return
        }
        let nameSet = Set(names)
        var folders: [String] = []
        for name in names {
            let path = PhotoLayout.join(folder, name), rel = relative.isEmpty ? name : relative + "/" + name
            var s = stat()
            guard stat(path, &s) == 0 else { continue }   // a dangling link
            if s.st_mode & S_IFMT == S_IFDIR { folders.append(name); continue }
            guard s.st_mode & S_IFMT == S_IFREG, classify(name, among: nameSet) == nil else { continue }
            addPhoto(path, relative: rel, found: PhotoDiscovery.photo(forOriginal: path), key: BatchFiles.Key(s))
        }
        for name in folders {
            addFolder(PhotoLayout.join(folder, name), relative: relative.isEmpty ? name : relative + "/" + name)
        }
    }

    // MARK: layouts

    /// A Photos 5+ library: the photos of `originals/` (trashed ones left out unless asked),
    /// named by their original file names when the database can be read, then the referenced
    /// originals outside the library; `resources/` holds edits and Apple's renders, counted.
    private mutating func library(_ root: String, relative: String) {
        var assets: [String: PhotosLibraryAsset] = [:]
        var names = PhotosOutputNames.uuidOnly
        do {
            let database = try PhotosLibraryDatabase(libraryPath: root)
            let all = database.assets()
            for asset in all { assets[asset.uuid.uppercased()] = asset }
            // Names are shared out among the assets this library can render (their originals are
            // here, or found where a referenced one points): a name taken by an asset whose
            // original was never downloaded does not push a present photo to "Name (UUID)".
            let renderable = all.filter { asset in
                guard asset.kind == .photo, includeTrashed || !asset.isTrashed else { return false }
                return asset.originalPath(inLibrary: root).map { FileManager.default.fileExists(atPath: $0) } ?? false
            }
            names = PhotosOutputNames(assets: renderable)
            for collision in names.collisions {
                remarks.append("\(root): \(collision.uuids.count) photos are named \"\(collision.name)\": "
                    + collision.uuids.map { "\($0.prefix(8)) → \(names.stem(forUUID: $0))" }.joined(separator: ", "))
            }
        } catch {
            remarks.append("\(error.description); outputs are named by Photos' internal UUIDs")
        }

        let originals = PhotoLayout.join(root, "originals")
        var uuidsWithOriginal = Set<String>()
        for hash in PhotoLayout.names(in: originals) where PhotoLayout.isFolder(PhotoLayout.join(originals, hash)) {
            let folder = PhotoLayout.join(originals, hash)
            for name in PhotoLayout.names(in: folder) {
                let path = PhotoLayout.join(folder, name)
                let uuid = (name as NSString).deletingPathExtension.uppercased()
                uuidsWithOriginal.insert(uuid)
                let asset = assets[uuid]
                if let asset, asset.isTrashed, !includeTrashed { ignored.trashed += 1; continue }
                guard classify(name, among: []) == nil else { continue }
                let stem = names.stem(forUUID: asset?.uuid ?? (name as NSString).deletingPathExtension)
                let rel = (relative.isEmpty ? "" : relative + "/") + stem + "." + (name as NSString).pathExtension
                addPhoto(path, relative: rel, found: PhotoDiscovery.photo(forOriginal: path))
            }
        }
        // Referenced originals (imported without copying into the library): found where the
        // database says, with the edit from the library's renders folder.
        for asset in assets.values.sorted(by: { $0.uuid < $1.uuid })
        where asset.kind == .photo && (includeTrashed || !asset.isTrashed) && !uuidsWithOriginal.contains(asset.uuid.uppercased()) {
            guard case .referenced(let path?) = asset.original else { continue }
            let stem = names.stem(forUUID: asset.uuid)
            let hash = String(asset.uuid.prefix(1))
            let renders = PhotoLayout.join(root, "resources/renders/" + hash)
            let edit = PhotoLayout.names(in: renders).first { $0 == asset.uuid + ".plist" }.map { PhotoLayout.join(renders, $0) }
            guard FileManager.default.fileExists(atPath: path) else {
                if asset.hasAdjustments || edit != nil {
                    remarks.append("\(asset.originalFileName ?? asset.uuid): its original is referenced at \(path), which is not there")
                }
                continue
            }
            let render = PhotoLayout.names(in: renders).first {
                PhotoLayout.isPhotoName($0) && ($0 as NSString).deletingPathExtension == asset.uuid + "_1_201_a"
            }.map { PhotoLayout.join(renders, $0) }
            let rel = (relative.isEmpty ? "" : relative + "/") + stem + "." + (path as NSString).pathExtension
            addPhoto(path, relative: rel, found: FoundPhoto(original: path, edit: edit, appleRender: render, layout: .photosLibrary))
        }
        // resources/renders: each plist is an edit, every image Apple's render or a derivative.
        let rendersRoot = PhotoLayout.join(root, "resources/renders")
        for hash in PhotoLayout.names(in: rendersRoot) {
            for name in PhotoLayout.names(in: PhotoLayout.join(rendersRoot, hash)) {
                let stem = (name as NSString).deletingPathExtension
                if (name as NSString).pathExtension.lowercased() == "plist" {
                    if !stem.contains("_"), !uuidsWithOriginal.contains(stem.uppercased()),
                       !(assets[stem.uppercased()].map { if case .referenced = $0.original { true } else { false } } ?? false) {
                        ignored.editsWithoutOriginal += 1
                        let title = assets[stem.uppercased()]?.originalFileName.map { "\($0) (\(stem))" } ?? stem
                        remarks.append("\(title): an edit in the library whose original is not there (not downloaded?)")
                    } else {
                        ignored.edits += 1
                    }
                } else if PhotoLayout.isPhotoName(name) {
                    ignored.appleRenders += 1
                } else {
                    ignored.other += 1
                }
            }
        }
    }

    /// An iPhone's `Media` folder: the photos of `DCIM/` (their edits and renders are in
    /// `PhotoData/Mutations`); the rest of `PhotoData` is the phone's own, and is not walked.
    private mutating func iPhoneMedia(_ root: String, relative: String) {
        addFolder(PhotoLayout.join(root, "DCIM"), relative: (relative.isEmpty ? "" : relative + "/") + "DCIM")
        let mutations = PhotoLayout.join(root, "PhotoData/Mutations/DCIM")
        for album in PhotoLayout.names(in: mutations) {
            for stem in PhotoLayout.names(in: PhotoLayout.join(mutations, album)) {
                let adjustments = PhotoLayout.join(mutations, album + "/" + stem + "/Adjustments")
                let files = PhotoLayout.names(in: adjustments)
                let hasOriginal = PhotoLayout.names(in: PhotoLayout.join(root, "DCIM/" + album)).contains {
                    PhotoLayout.isPhotoName($0) && ($0 as NSString).deletingPathExtension == stem
                }
                for name in files {
                    if PhotoLayout.isFullSizeRenderName(name) {
                        ignored.appleRenders += 1
                    } else if name.lowercased() == "adjustments.plist", !hasOriginal {
                        ignored.editsWithoutOriginal += 1
                        remarks.append("\(PhotoLayout.join(adjustments, name)): an edit whose photo is not in DCIM/\(album)")
                    } else if BatchIgnored.editExtensions.contains((name as NSString).pathExtension.lowercased()) {
                        ignored.edits += 1
                    } else {
                        ignored.other += 1
                    }
                }
            }
        }
    }

    // MARK: one file

    /// nil for a photo to render; otherwise the file is counted by kind here.
    private mutating func classify(_ name: String, among names: Set<String>) -> Void? {
        let ext = (name as NSString).pathExtension.lowercased()
        if BatchIgnored.videoExtensions.contains(ext) { ignored.videos += 1; return () }
        if BatchIgnored.editExtensions.contains(ext) { ignored.edits += 1; return () }
        guard BatchFiles.isInputName(name) else { ignored.other += 1; return () }
        if PhotoLayout.isFullSizeRenderName(name) || BatchFiles.isAppleRender(name, among: names)
            || Self.isLibraryDerivative(name) {
            ignored.appleRenders += 1
            return ()
        }
        return nil
    }

    /// `UUID_1_201_a.jpeg`, `UUID_4_5005_c.jpeg`: Photos' renders and thumbnails, met outside their
    /// library (a renders folder copied out).
    static func isLibraryDerivative(_ name: String) -> Bool {
        let stem = (name as NSString).deletingPathExtension
        let parts = stem.split(separator: "_")
        return parts.count == 4 && parts[0].count == 36 && parts[0].filter({ $0 == "-" }).count == 4
    }

    private mutating func addPhoto(_ path: String, relative: String, found: FoundPhoto, key: BatchFiles.Key? = nil) {
        guard let key = key ?? BatchFiles.key(path) else {
            items.append(BatchItem(input: path, relative: relative, failure: FileError(
                path: path, kind: .unreadable, problem: "cannot open: \(String(cString: strerror(errno)))")))
            return
        }
        guard seen.insert(key).inserted else { return }   // named twice: rendered once
        items.append(BatchItem(input: path, relative: relative, key: key, found: found))
    }
}
