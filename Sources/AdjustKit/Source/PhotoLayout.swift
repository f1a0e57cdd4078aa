import Foundation

/// The ways users have an original, its modern edit and Apple's render of it on disk
/// (docs/spec/aae-format.md §1), and, for each, where the edit and the render of an original are.
/// `PhotoDiscovery` walks folders with these rules; `FoundPhoto` records which one matched.
///
/// Only file names and folders are looked at: nothing is opened, and no database is read (the
/// Photos library's `Photos.sqlite` is not needed to pair the three files).
public enum PhotoLayout: String, Sendable, CaseIterable {
    /// A macOS Photos 5+ library: `X.photoslibrary/originals/H/UUID.ext`, its edit
    /// `resources/renders/H/UUID.plist`, Apple's render `resources/renders/H/UUID_1_201_a.jpeg`
    /// (`.jpg`/`.heic`, any case). Other files there (`UUID_4_5005_c.jpeg`, …) are derivatives.
    case photosLibrary = "photos-library"
    /// An iPhone file system or an extracted Finder/iTunes backup: `Media/DCIM/1xxAPPLE/IMG_n.EXT`,
    /// its edit `Media/PhotoData/Mutations/DCIM/1xxAPPLE/IMG_n/Adjustments/Adjustments.plist`, Apple's
    /// render `FullSizeRender.jpg` (`.jpeg`/`.heic`) in that folder (failing those, the sidecar
    /// names beside the photo).
    case iPhone = "iphone"
    /// One `Mutations/…/Adjustments` folder (`Adjustments.plist`, `FullSizeRender.*`) with its one
    /// original copied in.
    case adjustmentsFolder = "adjustments-folder"
    /// A DCIM copy, an export, an iCloud download: `IMG_n.EXT` beside `IMG_n.AAE` or the
    /// capture-time `IMG_On.AAE` (any case) and Apple's render `IMG_En.JPG`/`.JPEG`/`.HEIC` (any case).
    case sidecar = "sidecar"

    /// The edit and Apple's render for the original at `path` under this layout's rules; nil
    /// where a file is not there. `folderNames` lists the original's folder (sidecar layout), when
    /// the caller has listed it already.
    func companions(ofOriginal path: String, folderNames: [String]? = nil) -> (edit: String?, appleRender: String?) {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        switch self {
        case .photosLibrary:
            guard let renders = Self.libraryRendersFolder(ofOriginal: path) else { return (nil, nil) }
            let names = Self.names(in: renders)
            let edit = names.first { $0 == stem + ".plist" }
            let render = names.first { Self.isPhotoName($0) && ($0 as NSString).deletingPathExtension == stem + "_1_201_a" }
            return (edit.map { Self.join(renders, $0) }, render.map { Self.join(renders, $0) })
        case .iPhone:
            // A photo never edited on the phone has no Mutations folder; a DCIM folder copied
            // with its sidecars may still hold IMG_n.AAE and IMG_En.* beside it.
            let sidecar = Self.sidecar.companions(ofOriginal: path, folderNames: folderNames)
            guard let adjustments = Self.mutationFolder(ofOriginal: path) else { return sidecar }
            let names = Self.names(in: adjustments)
            let edit = names.first { $0.lowercased() == "adjustments.plist" }
            let render = names.first(where: Self.isFullSizeRenderName)
            return (edit.map { Self.join(adjustments, $0) } ?? sidecar.edit, render.map { Self.join(adjustments, $0) } ?? sidecar.appleRender)
        case .adjustmentsFolder:
            let folder = Self.folder(of: path)
            let names = folderNames ?? Self.names(in: folder)
            let edit = names.first { $0.lowercased() == "adjustments.plist" }
            let render = names.first(where: Self.isFullSizeRenderName)
            return (edit.map { Self.join(folder, $0) }, render.map { Self.join(folder, $0) })
        case .sidecar:
            let names = folderNames ?? Self.names(in: Self.folder(of: path))
            return (EditSource.aaeSidecar(forImage: path), Self.appleRender(forImage: path, names: names))
        }
    }

    // MARK: Photos library

    /// `X/resources/renders/H` for `X/originals/H/UUID.ext` when X holds both folders; nil otherwise.
    package static func libraryRendersFolder(ofOriginal path: String) -> String? {
        let hashFolder = folder(of: path), originals = folder(of: hashFolder)
        guard (originals as NSString).lastPathComponent == "originals" else { return nil }
        let renders = join(folder(of: originals), "resources/renders/" + (hashFolder as NSString).lastPathComponent)
        return isFolder(renders) ? renders : nil
    }

    /// Whether `folder` is the root of a Photos 5+ library: it holds `originals/` and `resources/renders/`.
    package static func isLibraryRoot(_ folder: String) -> Bool {
        isFolder(join(folder, "originals")) && isFolder(join(folder, "resources/renders"))
    }

    // MARK: iPhone

    /// `Media/PhotoData/Mutations/DCIM/1xxAPPLE/IMG_n/Adjustments` for `Media/DCIM/1xxAPPLE/IMG_n.EXT`
    /// when that folder exists; nil otherwise.
    static func mutationFolder(ofOriginal path: String) -> String? {
        let dcimFolder = folder(of: path), dcim = folder(of: dcimFolder)
        guard (dcim as NSString).lastPathComponent == "DCIM" else { return nil }
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let adjustments = join(folder(of: dcim), "PhotoData/Mutations/DCIM/" + (dcimFolder as NSString).lastPathComponent
                               + "/" + stem + "/Adjustments")
        return isFolder(adjustments) ? adjustments : nil
    }

    /// Whether `folder` is an iPhone's `Media` folder: it holds `DCIM/` and `PhotoData/Mutations/DCIM/`.
    package static func isIPhoneMediaRoot(_ folder: String) -> Bool {
        isFolder(join(folder, "DCIM")) && isFolder(join(folder, "PhotoData/Mutations/DCIM"))
    }

    // MARK: Sidecar

    /// Apple's render of the photo at `imagePath`: `IMG_E1234.*` (any case) among `names`, the
    /// entries of its folder.
    static func appleRender(forImage imagePath: String, names: [String]) -> String? {
        let stem = ((imagePath as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
        guard stem.hasPrefix("img_") else { return nil }
        let wanted = "img_e" + stem.dropFirst(4)
        guard let name = names.first(where: { isPhotoName($0) && ($0 as NSString).deletingPathExtension.lowercased() == wanted })
        else { return nil }
        return join(folder(of: imagePath), name)
    }

    // MARK: Names

    /// A JPEG or HEIC/HEIF file name (any case): what can be an original or a render.
    package static func isPhotoName(_ name: String) -> Bool {
        ["jpg", "jpeg", "heic", "heif"].contains((name as NSString).pathExtension.lowercased())
    }

    /// `IMG_E` followed by a digit: Photos' name for its render of `IMG_…`.
    package static func isAppleRenderName(_ name: String) -> Bool {
        let lower = name.lowercased()
        guard isPhotoName(name), lower.hasPrefix("img_e"), let next = lower.dropFirst(5).first else { return false }
        return next.isASCII && next.isNumber
    }

    /// `FullSizeRender.jpg` / `.jpeg` / `.heic` (any case): the iPhone's render.
    package static func isFullSizeRenderName(_ name: String) -> Bool {
        isPhotoName(name) && (name as NSString).deletingPathExtension.lowercased() == "fullsizerender"
    }

    package static func isFolder(_ path: String) -> Bool {
        let path = path.isEmpty ? "." : path
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The visible entries of `folder`, sorted; empty when it cannot be read.
    package static func names(in folder: String) -> [String] {
        let folder = folder.isEmpty ? "." : folder
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The folder part of `path`: "" for a bare name, "/" for a name in the root.
    package static func folder(of path: String) -> String {
        // Foundation on Linux traps on NSString("." or "").deletingLastPathComponent: a walk from
        // "." asks for the folder of "." when it looks for a layout above the photo.
        guard !path.isEmpty, path != ".", path != ".." else { return "" }
        return (path as NSString).deletingLastPathComponent
    }

    /// `folder/name`; `name` alone when `folder` is "" (a path relative to the working folder).
    package static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
