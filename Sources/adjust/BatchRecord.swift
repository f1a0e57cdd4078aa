import Foundation

/// The outcome for one photo.
enum BatchStatus: String, Codable, Sendable {
    /// Rendered with an edit.
    case ok
    /// No edit found: the original written upright.
    case noEdit = "no-edit"
    /// Left alone: `--skip-existing` and the output exists.
    case skipped
    /// Left alone: `--update` and the output's recorded provenance matches.
    case current
    case failed
    /// An output (with adjust's provenance) whose original is gone, left in place (`--update`
    /// without `--prune`). `input` is the path the original had.
    case orphaned
    /// Such an output, removed (`--prune`).
    case pruned
    /// A library asset whose original is not on disk (not downloaded from iCloud): nothing to
    /// write; `input` is its name in Photos with its UUID, `reason` where the original should be.
    case missing
}

/// Where a written output's pixels came from.
enum BatchSource: String, Codable, Sendable {
    /// The edit, replayed.
    case replay
    /// A photo without an edit, copied byte for byte (`--unedited copy`).
    case copy
    /// A photo without an edit, decoded and written again (resized, converted or stripped).
    case original
    /// Apple's own render of the edit (`--apple-render`), converted to the requested format and size.
    case appleRender = "apple-render"
}

/// One line of `adjust batch --json`: what happened to one input. This is an interface
/// (`docs/batch-record.schema.json`): fields are added, never renamed or removed.
///
/// `output` and `edit` are always present (null when unknown); the other optional fields are
/// left out when they do not apply.
struct BatchRecord: Codable, Sendable, Equatable {
    var input: String
    var output: String?
    var status: BatchStatus
    /// Failed: the file at fault and the problem, one line.
    var error: String?
    /// Why the status: the error of a failure, "output exists" for a skip; with `--update`, why
    /// an output was rendered again ("original changed", "edit changed", "options changed",
    /// "Photos metadata changed",
    /// "tool changed (…)", "no output yet", "output has no provenance", "output is incomplete")
    /// or "output is current"; "its original is gone" for orphaned and pruned outputs.
    var reason: String?
    /// embedded, sidecar, xmp-dir or none; nil when the edit was not read.
    var edit: String?
    var editFile: String?
    /// Filter names in application order.
    var chain: [String]
    /// [width, height] written.
    var size: [Int]?
    var warnings: [String]?
    /// The edit's adjustments that were left out (unsupported or unreadable), when there are any.
    var notReplayed: [String]?
    /// How a written output was made; absent when nothing was written.
    var source: BatchSource?
    /// Apple's render used for the output (`source` apple-render).
    var appleRender: String?
    /// Why Apple's render was used (`source` apple-render).
    var sourceReason: AppleRenderReason?
    /// The Photos albums holding a library asset, each as its folder path ending in the album's
    /// title (`["Folder1", "SubFolder2", "AlbumInFolder"]`); absent outside albums and with
    /// `--metadata file`.
    var albums: [[String]]?
    /// Reading the file, parsing the edit and planning (the JPEG header is decoded here).
    var readMs: Double?
    /// Decoding, rendering and encoding: one streamed pass, the entropy decode interleaved with
    /// the rendering rows.
    var renderMs: Double?
    /// The part of `renderMs` spent in the decoder (libjpeg-turbo or libheif), on its own thread.
    var decodeMs: Double?
    /// Hashing the original and the edit file for the provenance (SHA-256).
    var digestMs: Double?
    /// Metadata carry-over and the atomic write.
    var writeMs: Double?
    var totalMs: Double

    enum CodingKeys: String, CodingKey {
        case input, output, status, error, reason, edit, editFile, chain, size, warnings, notReplayed, source, appleRender, sourceReason, albums, readMs, digestMs, renderMs, decodeMs
        case writeMs, totalMs
    }

    init(input: String, output: String?, status: BatchStatus, chain: [String] = [], totalMs: Double) {
        (self.input, self.output, self.status, self.chain, self.totalMs) = (input, output, status, chain, totalMs)
    }

    /// Synthesised decoding; encoding writes `output` and `edit` as null rather than leaving them out.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(input, forKey: .input)
        try container.encode(output, forKey: .output)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encode(edit, forKey: .edit)
        try container.encodeIfPresent(editFile, forKey: .editFile)
        try container.encode(chain, forKey: .chain)
        try container.encodeIfPresent(size, forKey: .size)
        try container.encodeIfPresent(warnings, forKey: .warnings)
        try container.encodeIfPresent(notReplayed, forKey: .notReplayed)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(appleRender, forKey: .appleRender)
        try container.encodeIfPresent(sourceReason, forKey: .sourceReason)
        try container.encodeIfPresent(albums, forKey: .albums)
        try container.encodeIfPresent(readMs, forKey: .readMs)
        try container.encodeIfPresent(digestMs, forKey: .digestMs)
        try container.encodeIfPresent(renderMs, forKey: .renderMs)
        try container.encodeIfPresent(decodeMs, forKey: .decodeMs)
        try container.encodeIfPresent(writeMs, forKey: .writeMs)
        try container.encode(totalMs, forKey: .totalMs)
    }
}

/// The last line of `adjust batch --json`: `{"summary": {...}}`.
struct BatchSummaryLine: Codable, Sendable, Equatable {
    struct Summary: Codable, Sendable, Equatable {
        var files, ok, noEdit, skipped, failed, jobs: Int
        /// Files met that are not photos to render, by kind (videos, edits, Apple renders, …).
        var ignored: BatchIgnored?
        /// `--update` and `--prune` runs only (absent otherwise).
        var current, orphaned, pruned: Int?
        /// Outputs written from Apple's renders, by why (`AppleRenderReason`); absent when none.
        var fromAppleRenders: [String: Int]?
        /// Library assets whose original is not on disk (each also a `missing` record); absent when none.
        var missing: Int?
        var totalMs: Double
    }
    var summary: Summary
}

extension JSONEncoder {
    /// One object per line, keys sorted, slashes as they are.
    static func batchLines() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
