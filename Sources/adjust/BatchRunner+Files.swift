import AdjustKit
import ArgumentParser
import Foundation

/// `--videos`: whether a batch writes the videos and Live Photo motion it finds.
enum VideoPolicy: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Copied byte for byte (an edited one: Photos' render of it, when there is one).
    case copy
    /// Left out, counted.
    case skip
}

extension BatchRunner {
    /// Writes a file adjust does not render (a video, a Live Photo's motion, a screenshot, a RAW
    /// file): Photos' render of its edit when there is one (`UUID_2_0_a.mov`, `UUID_2_100_a.mov`,
    /// `FullSizeRender.mov`, `IMG_E1234.MOV`) and `--apple-render` is not `never`, else the file
    /// itself, byte for byte; its provenance beside it, so `--update` and `--prune` treat it as any
    /// output.
    func copyFile(_ item: BatchItem, _ file: FoundFile, into record: inout BatchRecord) throws(FileError) {
        let (output, outputExists) = try checkedOutput(of: item)
        if outputExists, skipExisting { record.status = .skipped; record.reason = "output exists"; return }
        try BatchFiles.makeDirectory((output as NSString).deletingLastPathComponent)
        var warnings: [String] = []
        defer { record.warnings = warnings.isEmpty ? nil : warnings }
        let render = appleRenderPolicy == .never ? nil : file.appleRender
        if render == nil, let edit = file.edit {
            switch file.kind {
            case .motion: warnings.append("warning: \(item.name): the still was edited in Photos but only its unedited motion is here; it is copied")
            case .video: warnings.append("note: \(item.name): Photos' edit (\(VideoEditSummary.describe(editAt: edit).joined(separator: ", "))) "
                + "is not replayed and Photos' render is not here; the original video is copied")
            case .otherPicture: break
            }
            if file.kind == .video { record.notReplayed = VideoEditSummary.describe(editAt: edit) }
        }
        let source = render ?? item.input
        var clock = DispatchTime.now()
        let provenance = Provenance(tool: tool, originalDigest: try SHA256.hex(ofFileAt: item.input),
                                    editKind: render == nil ? "none" : "apple-render",
                                    editDigest: try render.map { path throws(FileError) in try SHA256.hex(ofFileAt: path) },
                                    options: optionsDescription,
                                    originalPath: BatchFiles.relativePath(of: item.input, from: (output as NSString).deletingLastPathComponent),
                                    metadataDigest: metadataDigest(of: item))
        record.digestMs = Self.milliseconds(since: clock)
        (record.edit, record.editFile) = (render == nil ? "none" : "apple-render", file.edit)
        if update {
            record.reason = outputExists ? Self.staleness(of: output, against: provenance) : "no output yet"
            if record.reason == nil { (record.status, record.reason) = (.current, "output is current"); return }
        }
        clock = DispatchTime.now()
        do { try AtomicFileWriter.copy(from: source, to: output) } catch {
            throw FileError(path: output, kind: .unwritable, problem: error.description)
        }
        try ProvenanceSidecar.write(provenance, forOutput: output)
        // A video, a Live Photo's motion, a PNG: what the user set in Photos goes beside it.
        try writePhotosSidecar(libraryXMP(of: item), forOutput: output, embedded: false, provenance: provenance)
        record.writeMs = Self.milliseconds(since: clock)
        if let render {
            (record.status, record.source, record.appleRender) = (.ok, .appleRender, render)
        } else {
            (record.status, record.source) = (.noEdit, .copy)
        }
    }
}
