import AdjustKit
import Foundation

/// What a batch found under its inputs and does not write: counted by kind (issue 20: "12 videos,
/// 40 edits, 38 Apple renders ignored"), taking no output name.
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

    /// "12 videos, 38 Apple renders ignored", or nil when nothing was. Edit files are read with
    /// their photos, not ignored: counted in the JSON only.
    var sentence: String? {
        let parts: [(Int, String, String)] = [
            (videos, "video", "videos"), (appleRenders, "Apple render", "Apple renders"),
            (trashed, "photo in the trash", "photos in the trash"),
            (editsWithoutOriginal, "edit without its original", "edits without their original"),
            (other, "other file", "other files"),
        ]
        let named = parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
        return named.isEmpty ? nil : named.joined(separator: ", ") + " ignored"
    }
}

/// A batch's policy over the one walk (`PhotoWalker`, in AdjustKit): which of what it found are
/// photos to render, and what is counted instead. The walk knows the layouts; this knows the flags.
struct BatchCollection {
    var items: [BatchItem] = []
    var ignored = BatchIgnored()
    /// One line each: a library read without its database, name collisions, edits without their
    /// original, referenced originals not found.
    var remarks: [String] = []
    /// Library assets whose original is not on disk: named in the log and the record.
    var missing: [MissingOriginal] = []

    init(_ walk: PhotoWalk, videos: VideoPolicy = .copy) {
        for photo in walk.photos {
            guard let original = photo.original else {
                if let failure = photo.failure {
                    items.append(BatchItem(input: failure.path, relative: photo.relativePath, failure: failure))
                } else if let edit = photo.edit, !walk.missing.contains(where: { $0.uuid == LayoutNames.stem(edit) }) {
                    // A library asset the database lists is named among the missing below.
                    remarks.append("\(edit): an edit whose photo is not there (\(photo.note ?? "no original"))")
                }
                continue
            }
            items.append(BatchItem(input: original, relative: photo.relativePath, key: photo.identity,
                                   failure: photo.failure, found: photo))
        }
        // Everything comes out: videos and Live Photo motion unless --videos skip, other pictures
        // (screenshots, RAW files) always, each copied under its own extension.
        for file in walk.files {
            if file.kind != .otherPicture, videos == .skip { ignored.videos += 1; continue }
            items.append(BatchItem(input: file.path, relative: file.relativePath, key: file.identity, file: file))
        }
        let counts = walk.counts
        ignored.edits += counts.edits
        ignored.appleRenders += counts.appleRenders
        ignored.trashed += counts.trashed
        ignored.editsWithoutOriginal += counts.editsWithoutOriginal
        ignored.other += counts.other
        remarks += walk.remarks
        missing = walk.missing
        if !missing.isEmpty {
            let edited = missing.count(where: \.edited)
            remarks.append("\(missing.count) asset\(missing.count == 1 ? " has" : "s have") no original on disk"
                + (edited > 0 ? " (\(edited) edited in Photos)" : "") + " (not downloaded from iCloud?): "
                + missing.map { "\($0.name) (\($0.uuid))" }.joined(separator: ", "))
        }
    }
}
