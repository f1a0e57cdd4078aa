import Foundation

/// Every file and folder name by which Apple's layouts say what a file is (docs/spec/aae-format.md
/// §1, docs/spec/photos-library.md): the one place that knows them. The layouts (`PhotosLibraryLayout`,
/// `IPhoneBackupLayout`, `DCIMLayout`, `XMPSidecarLayout`) and the walk use these, never literals.
package enum LayoutNames {
    // MARK: macOS Photos 5+ library

    /// `X.photoslibrary`: the package extension of a library.
    package static let libraryExtension = "photoslibrary"
    /// The originals, `originals/H/UUID.ext` (H: the UUID's first character).
    package static let libraryOriginals = "originals"
    /// The user's edits and Photos' renders of them, `resources/renders/H/UUID.plist`.
    package static let libraryRenders = "resources/renders"
    /// The database that lists every asset: what makes a folder a library.
    package static let libraryDatabase = "database/Photos.sqlite"
    /// `UUID_1_201_a.jpeg|heic`: Photos' render of an edited photo.
    package static let libraryPhotoRenderSuffix = "_1_201_a"
    /// `UUID_2_0_a.mov`: Photos' render of an edited video.
    package static let libraryVideoRenderSuffix = "_2_0_a"
    /// `UUID_2_100_a.mov`: Photos' render of an edited Live Photo's motion.
    package static let libraryEditedMotionSuffix = "_2_100_a"
    /// `originals/H/UUID_3.mov`: a Live Photo's motion.
    package static let libraryMotionSuffix = "_3"
    /// `originals/H/UUID_5.aae`: the camera-time adjustments (a portrait's depth effect, Cinematic).
    package static let libraryCameraAdjustmentsSuffix = "_5"

    // MARK: iPhone file system, extracted backup

    /// `Media/DCIM/1xxAPPLE/IMG_n.EXT`.
    package static let dcim = "DCIM"
    /// `Media/PhotoData/Mutations/DCIM/1xxAPPLE/IMG_n/Adjustments/`: where the phone keeps an edit.
    package static let mutations = "PhotoData/Mutations/DCIM"
    /// The last folder of a mutation: `…/IMG_n/Adjustments`.
    package static let adjustmentsFolder = "Adjustments"
    /// The edit inside it (any case).
    package static let adjustmentsPlist = "adjustments.plist"
    /// `FullSizeRender.jpg|heic|mov`: the phone's render of the edit (any case).
    package static let fullSizeRenderStem = "fullsizerender"

    // MARK: DCIM copies, exports

    /// `IMG_E1234.*`: Photos' render of `IMG_1234.*` beside it.
    package static let renderPrefix = "img_e"
    /// `IMG_O1234.AAE`: the camera-time adjustments of `IMG_1234.*`.
    package static let cameraAdjustmentsPrefix = "img_o"
    /// The `IMG_` every camera file name starts with.
    package static let cameraPrefix = "img_"
    /// `.AAE`: a modern edit beside its photo.
    package static let aaeExtension = "aae"

    // MARK: kinds of file, by extension (lower case)

    /// What can be an original that adjust renders, or a render: JPEG and HEIF.
    package static let photoExtensions: Set<String> = ["jpg", "jpeg", "heic", "heif"]
    /// Videos and Live Photo motion: copied, never rendered.
    package static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "avi", "3gp", "mts", "m2ts"]
    /// Other pictures Photos keeps (screenshots, GIFs, scans, RAW files): copied, never rendered.
    package static let otherPictureExtensions: Set<String> = [
        "png", "gif", "tif", "tiff", "webp", "bmp", "dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "srw", "pef",
    ]
    /// Edits: `.AAE`, `Adjustments.plist`, a library's `UUID.plist`, AdjustmentXMP sidecars.
    package static let editExtensions: Set<String> = ["aae", "plist", "xmp"]

    // MARK: predicates

    package static func lowerExtension(_ name: String) -> String { (name as NSString).pathExtension.lowercased() }
    package static func stem(_ name: String) -> String { ((name as NSString).lastPathComponent as NSString).deletingPathExtension }

    /// A JPEG or HEIC/HEIF file name (any case): what can be an original or a render.
    package static func isPhotoName(_ name: String) -> Bool { photoExtensions.contains(lowerExtension(name)) }
    package static func isVideoName(_ name: String) -> Bool { videoExtensions.contains(lowerExtension(name)) }
    package static func isOtherPictureName(_ name: String) -> Bool { otherPictureExtensions.contains(lowerExtension(name)) }
    package static func isEditName(_ name: String) -> Bool { editExtensions.contains(lowerExtension(name)) }

    /// `IMG_E` followed by a digit: Photos' name for its render of `IMG_…`.
    package static func isAppleRenderName(_ name: String) -> Bool {
        let lower = name.lowercased()
        guard isPhotoName(name) || isVideoName(name), lower.hasPrefix(renderPrefix),
              let next = lower.dropFirst(renderPrefix.count).first else { return false }
        return next.isASCII && next.isNumber
    }

    /// The name of the photo `IMG_E1234.*` renders (`img_1234`, lower case), or nil.
    package static func renderedStem(ofRender name: String) -> String? {
        guard isAppleRenderName(name) else { return nil }
        return cameraPrefix + stem(name).lowercased().dropFirst(renderPrefix.count)
    }

    /// `FullSizeRender.jpg` / `.jpeg` / `.heic` (any case): the iPhone's render.
    package static func isFullSizeRenderName(_ name: String) -> Bool {
        isPhotoName(name) && stem(name).lowercased() == fullSizeRenderStem
    }

    /// `UUID_1_201_a.jpeg`, `UUID_4_5005_c.jpeg`: Photos' renders and thumbnails, met outside
    /// their library (a renders folder copied out).
    package static func isLibraryDerivative(_ name: String) -> Bool {
        let parts = stem(name).split(separator: "_")
        return parts.count == 4 && parts[0].count == 36 && parts[0].filter({ $0 == "-" }).count == 4
    }
}

/// Paths built the same way everywhere the walk goes: relative stays relative, "" is the working
/// folder. Foundation's `NSString` path methods trap on "." and "" on Linux, hence these.
package enum LayoutPath {
    /// `path` as a system call takes it: "" (the working folder) is ".".
    package static func forSystem(_ path: String) -> String { path.isEmpty ? "." : path }

    package static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: forSystem(path), isDirectory: &isDirectory) && isDirectory.boolValue
    }

    package static func isFile(_ path: String) -> Bool {
        var status = stat()
        return stat(forSystem(path), &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The visible entries of `folder`, sorted; empty when it cannot be read.
    package static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: forSystem(folder))) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The folder part of `path`: "" for a bare name, "/" for a name in the root.
    /// `deletingLastPathComponent` traps on a one-character name ("a", "a/", ".") on Linux, so a
    /// path without a folder part (its trailing slashes left out) never reaches it.
    package static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        // A Character: Foundation's `contains` of a string took 0.6 ms of a render's start at
        // its first use.
        guard trimmed.contains("/" as Character) else { return "" }
        return (String(trimmed) as NSString).deletingLastPathComponent
    }

    /// The last part of `path`.
    package static func name(of path: String) -> String { (path as NSString).lastPathComponent }

    /// `folder/name`; `name` alone when `folder` is "" (a path relative to the working folder).
    package static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `relative/name`, or `name` when `relative` is "" (the input root itself).
    package static func under(_ relative: String, _ name: String) -> String {
        relative.isEmpty ? name : relative + "/" + name
    }
}
