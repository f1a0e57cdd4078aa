import Foundation

/// One photo for `adjust fidelity`: an original, its modern edit and Apple's own render of it,
/// as found on disk (docs/spec/aae-format.md §1). Any of the three may be missing; the check
/// reports what is.
public struct FidelityCase: Sendable {
    /// The untouched photo; nil for an `Adjustments.plist` folder without one.
    public var original: String?
    /// The `.AAE` or `Adjustments.plist`.
    public var edit: String?
    /// `IMG_E1234.*` or `FullSizeRender.*`.
    public var appleRender: String?
    /// Why this entry cannot be checked before anything is read (a missing input, an unreadable folder).
    public var failure: FileError?
    /// Why `original` is nil, when it is.
    public var note: String?

    public init(original: String?, edit: String?, appleRender: String?, failure: FileError? = nil, note: String? = nil) {
        (self.original, self.edit, self.appleRender, self.failure, self.note) = (original, edit, appleRender, failure, note)
    }

    /// Every photo under `inputs` (folders walked recursively, hidden entries skipped; a file is
    /// taken as an original), each original once, in the order given and by name within a folder.
    ///
    /// In a folder: `IMG_1234.JPG/.JPEG/.HEIC/.HEIF` is an original, its edit the sidecar
    /// `EditSource.aaeSidecar(forImage:)` finds, Apple's render `IMG_E1234.*` beside it (any
    /// case); `IMG_E…` files are never originals. A folder holding `Adjustments.plist` and
    /// `FullSizeRender.*` (the iPhone's `Mutations/…/Adjustments` folder) with exactly one other
    /// photo copied in pairs the three.
    public static func find(in inputs: [String]) -> [FidelityCase] {
        var cases: [FidelityCase] = []
        var seen = Set<String>()
        func add(_ found: FidelityCase) {
            if let original = found.original {
                let key = URL(fileURLWithPath: original).standardizedFileURL.resolvingSymlinksInPath().path
                guard seen.insert(key).inserted else { return }
            }
            cases.append(found)
        }
        func walk(_ folder: String) {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
            } catch {
                add(FidelityCase(original: nil, edit: nil, appleRender: nil,
                                 failure: FileError(path: folder, kind: .unreadable, problem: "cannot read the folder")))
                return
            }
            func path(_ name: String) -> String { folder == "/" ? "/" + name : folder + "/" + name }
            var files: [String] = [], folders: [String] = []
            for name in names {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path(name), isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue { folders.append(name) } else { files.append(name) }
            }
            for found in folderCases(folder, files: files) { add(found) }
            for name in folders { walk(path(name)) }
        }
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                add(FidelityCase(original: input, edit: nil, appleRender: nil,
                                 failure: FileError(path: input, kind: .unreadable, problem: "no such file or folder")))
                continue
            }
            if isDirectory.boolValue {
                var folder = input
                while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
                walk(folder)
            } else {
                add(FidelityCase(original: input, edit: EditSource.aaeSidecar(forImage: input),
                                 appleRender: appleRender(forImage: input)))
            }
        }
        return cases
    }

    /// The cases of one folder whose entries (names only) are `files`.
    private static func folderCases(_ folder: String, files: [String]) -> [FidelityCase] {
        func path(_ name: String) -> String { folder == "/" ? "/" + name : folder + "/" + name }
        let photos = files.filter { isPhotoName($0) && !isAppleRenderName($0) && !isFullSizeRenderName($0) }
        var cases: [FidelityCase] = []
        if let plist = files.first(where: { $0.lowercased() == "adjustments.plist" }),
           let render = files.first(where: isFullSizeRenderName) {
            if photos.count == 1 {
                return [FidelityCase(original: path(photos[0]), edit: path(plist), appleRender: path(render))]
            }
            cases.append(FidelityCase(original: nil, edit: path(plist), appleRender: path(render), note: photos.isEmpty
                ? "no original photo in the folder: copy it beside Adjustments.plist"
                : "\(photos.count) photos beside Adjustments.plist: cannot tell which is the original"))
        }
        for name in photos {
            let original = path(name)
            cases.append(FidelityCase(original: original, edit: EditSource.aaeSidecar(forImage: original),
                                      appleRender: appleRender(forImage: original, names: files)))
        }
        return cases
    }

    /// Apple's render of the photo at `imagePath`: `IMG_E1234.*` (any case) beside `IMG_1234.*`.
    public static func appleRender(forImage imagePath: String) -> String? {
        let folder = URL(fileURLWithPath: imagePath).deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return appleRender(forImage: imagePath, names: names.sorted())
    }

    private static func appleRender(forImage imagePath: String, names: [String]) -> String? {
        let url = URL(fileURLWithPath: imagePath)
        let stem = url.deletingPathExtension().lastPathComponent.lowercased()
        guard stem.hasPrefix("img_") else { return nil }
        let wanted = "img_e" + stem.dropFirst(4)
        guard let name = names.first(where: { isPhotoName($0) && ($0 as NSString).deletingPathExtension.lowercased() == wanted })
        else { return nil }
        guard imagePath.contains("/") else { return name }
        let folder = (imagePath as NSString).deletingLastPathComponent
        return folder == "/" ? "/" + name : folder + "/" + name
    }

    /// A JPEG or HEIC/HEIF file name (any case).
    static func isPhotoName(_ name: String) -> Bool {
        ["jpg", "jpeg", "heic", "heif"].contains((name as NSString).pathExtension.lowercased())
    }

    /// `IMG_E` followed by a digit: Photos' name for its render of `IMG_…`.
    static func isAppleRenderName(_ name: String) -> Bool {
        let lower = name.lowercased()
        guard isPhotoName(name), lower.hasPrefix("img_e"), let next = lower.dropFirst(5).first else { return false }
        return next.isASCII && next.isNumber
    }

    static func isFullSizeRenderName(_ name: String) -> Bool {
        isPhotoName(name) && (name as NSString).deletingPathExtension.lowercased() == "fullsizerender"
    }
}
