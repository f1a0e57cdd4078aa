import Foundation

/// A DCIM copy, an export, an iCloud download (docs/spec/aae-format.md §1): `IMG_1234.HEIC` beside
/// its edit `IMG_1234.AAE` (any case) or the camera-time `IMG_O1234.AAE`, Apple's render
/// `IMG_E1234.JPG|HEIC`, a Live Photo's motion `IMG_1234.MOV` and its edited motion `IMG_E1234.MOV`.
/// Also one `Mutations/…/Adjustments` folder copied out (`Adjustments.plist`, `FullSizeRender.*`)
/// with its one original put beside them.
package enum DCIMLayout {
    /// The `.AAE` names (lower case) that hold the edit of the photo named `name`, in order:
    /// `STEM.AAE`, then the camera-time `IMG_O1234.AAE` of `IMG_1234.*`.
    package static func editCandidates(forPhotoNamed name: String) -> [String] {
        let stem = LayoutNames.stem(name).lowercased()
        var wanted = [stem + "." + LayoutNames.aaeExtension]
        if stem.hasPrefix(LayoutNames.cameraPrefix) {
            wanted.append(LayoutNames.cameraAdjustmentsPrefix + stem.dropFirst(LayoutNames.cameraPrefix.count) + "." + LayoutNames.aaeExtension)
        }
        return wanted
    }

    /// The edit, Apple's render, the motion and the edited motion of the photo at `path`, among
    /// `names` (the entries of its folder).
    static func companions(ofOriginal path: String, names: FolderNames) -> Companions {
        let folder = LayoutPath.folder(of: path), stem = LayoutNames.stem(path).lowercased()
        let edit = editCandidates(forPhotoNamed: path).lazy.compactMap { names.named($0) }.first
        var companions = Companions(edit: edit.map { LayoutPath.join(folder, $0) })
        if let renderStem = renderStem(of: stem) {
            let renders = names.withStem(renderStem)
            companions.appleRender = renders.first(where: LayoutNames.isPhotoName).map { LayoutPath.join(folder, $0) }
            companions.editedMotion = renders.first(where: LayoutNames.isVideoName).map { LayoutPath.join(folder, $0) }
        }
        companions.motion = names.withStem(stem).first(where: LayoutNames.isVideoName).map { LayoutPath.join(folder, $0) }
        return companions
    }

    /// `img_e1234` for `img_1234` (lower case); nil for a name that is not a camera's.
    static func renderStem(of lowerStem: String) -> String? {
        guard lowerStem.hasPrefix(LayoutNames.cameraPrefix) else { return nil }
        return LayoutNames.renderPrefix + lowerStem.dropFirst(LayoutNames.cameraPrefix.count)
    }

    /// Whether `name`, among `names` (its folder's entries and the files named with it), is Apple's
    /// render of another photo there: `IMG_E1234.*` beside `IMG_1234.*`, `FullSizeRender.*`, or a
    /// library render or thumbnail copied out of its library.
    package static func isRender(_ name: String, among names: FolderNames) -> Bool {
        if LayoutNames.isFullSizeRenderName(name) || LayoutNames.isLibraryDerivative(name) { return true }
        guard let original = LayoutNames.renderedStem(ofRender: name) else { return false }
        return names.withStem(original).contains(where: LayoutNames.isPhotoName)
    }

    /// Whether the video `name` is the motion of a Live Photo among `names` (a photo of the same
    /// stem): it goes with its photo, under the photo's name.
    static func isMotion(_ name: String, among names: FolderNames) -> Bool {
        guard LayoutNames.isVideoName(name) else { return false }
        return names.withStem(LayoutNames.stem(name).lowercased()).contains(where: LayoutNames.isPhotoName)
    }

    // MARK: one Adjustments folder

    /// Whether `names` are those of a `Mutations/…/Adjustments` folder: `Adjustments.plist` and a
    /// `FullSizeRender.*`.
    static func isAdjustmentsFolder(_ names: [String]) -> Bool {
        names.contains { $0.lowercased() == LayoutNames.adjustmentsPlist } && names.contains(where: LayoutNames.isFullSizeRenderName)
    }

    /// The edit and render of an `Adjustments` folder's files.
    static func adjustmentsCompanions(in folder: String, names: [String]) -> Companions {
        let edit = names.first { $0.lowercased() == LayoutNames.adjustmentsPlist }
        let render = names.first(where: LayoutNames.isFullSizeRenderName)
        let motion = names.first { LayoutNames.isVideoName($0) && LayoutNames.stem($0).lowercased() == LayoutNames.fullSizeRenderStem }
        return Companions(edit: edit.map { LayoutPath.join(folder, $0) }, appleRender: render.map { LayoutPath.join(folder, $0) },
                          editedMotion: motion.map { LayoutPath.join(folder, $0) })
    }
}

/// What a layout pairs with an original.
struct Companions: Sendable {
    var edit: String?
    var appleRender: String?
    var motion: String?
    var editedMotion: String?
}

/// A folder's entries, indexed once by lower-cased name and stem, so that pairing each of its n
/// photos with its companions costs a lookup, not a pass over n names (a DCIM folder of 20 000
/// photos would otherwise read 400 million names).
package struct FolderNames: Sendable {
    package let names: [String]
    private let byLower: [String: String]
    private let byLowerStem: [String: [String]]

    package init(_ names: [String]) {
        self.names = names
        var byLower: [String: String] = [:], byLowerStem: [String: [String]] = [:]
        for name in names {
            let lower = name.lowercased()
            if byLower[lower] == nil { byLower[lower] = name }
            byLowerStem[LayoutNames.stem(lower), default: []].append(name)
        }
        (self.byLower, self.byLowerStem) = (byLower, byLowerStem)
    }

    /// The entry whose lower-cased name is `lower`.
    func named(_ lower: String) -> String? { byLower[lower] }
    /// The entries whose lower-cased stem is `lowerStem`, in sorted order.
    func withStem(_ lowerStem: String) -> [String] { byLowerStem[lowerStem] ?? [] }
}
