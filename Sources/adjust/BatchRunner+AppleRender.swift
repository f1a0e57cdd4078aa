import AdjustKit
import ArgumentParser
import Foundation

/// `--apple-render`: when a photo's output is Apple's own render of its edit (found beside the
/// edit: `IMG_E1234.*`, `FullSizeRender.*`, a library's `UUID_1_201_a.jpeg`) rather than the replay.
enum AppleRenderPolicy: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Whenever the replay would not be exactly what Photos shows: a step is approximate, or left
    /// out (`notReplayed`), or the edit cannot be replayed at all (another app's, or unreadable).
    /// Only exact replays (geometry, orientation, the iOS 5–7 formulas) are made from the original.
    case auto
    /// Never: such photos are rendered without what cannot be replayed, or fail.
    case never
    /// Whenever one is there.
    case prefer

    /// Why the output of a photo whose edit is `chain` is Apple's render rather than the replay,
    /// or nil to replay; `exactEffects` are the photo effects `--effect-lut` made exact.
    func choice(for chain: EditChain, exactEffects: Set<PhotoEffect>) -> AppleRenderChoice? {
        switch self {
        case .never: return nil
        case .prefer: return AppleRenderChoice(reason: .preferred, detail: "--apple-render prefer")
        case .auto:
            let notReplayed = chain.notReplayed
            if !notReplayed.isEmpty {
                return AppleRenderChoice(reason: .notReplayed, detail: "not replayed: " + notReplayed.joined(separator: ", "))
            }
            let approximate = chain.steps.filter { $0.support(exactEffects: exactEffects) == .approximate }.map(\.filterName)
            guard !approximate.isEmpty else { return nil }
            return AppleRenderChoice(reason: .approximate, detail: "approximate replay: " + approximate.joined(separator: ", "))
        }
    }
}

/// Why a photo came from Apple's render: the record's `sourceReason`, and the run's summary.
enum AppleRenderReason: String, Codable, Sendable, CaseIterable {
    /// A step of the replay is an approximation of Photos' (a fitted model, a stand-in).
    case approximate
    /// A step cannot be replayed by this version.
    case notReplayed = "not-replayed"
    /// The edit cannot be replayed at all: another app's, or one this version cannot read.
    case cannotReplay = "cannot-replay"
    /// `--apple-render prefer`.
    case preferred

    /// The summary's words for it.
    var phrase: String {
        switch self {
        case .approximate: "approximate replay"
        case .notReplayed: "steps not replayable"
        case .cannotReplay: "edit not replayable"
        case .preferred: "--apple-render prefer"
        }
    }
}

/// Apple's render chosen over the replay, and why in one line.
struct AppleRenderChoice: Sendable, Equatable {
    var reason: AppleRenderReason
    /// "approximate replay: SmartTone, SmartColor" — for the note and the record.
    var detail: String
}

extension BatchRunner {
    /// Writes Apple's render of `item`'s edit as its output, converted to the requested format and
    /// size (a byte copy when nothing asked for changes it), its colour profile and metadata kept;
    /// the provenance records the render's digest, so `--update` notices a new render.
    /// `originalDigest`: the original's, when the photo was read already (not hashed twice).
    func writeAppleRender(_ item: BatchItem, to output: String, exists outputExists: Bool, originalDigest known: String? = nil,
                          because choice: AppleRenderChoice,
                          into record: inout BatchRecord, warnings: inout [String]) throws(FileError) {
        guard let renderPath = item.appleRender else { return }
        record.sourceReason = choice.reason
        appleRenderTally.withLock { $0[choice.reason, default: 0] += 1 }
        var clock = DispatchTime.now()
        let originalDigest: String
        if let known { originalDigest = known } else { originalDigest = try SHA256.hex(ofFileAt: item.input) }
        let provenance = Provenance(tool: tool, originalDigest: originalDigest, editKind: "apple-render",
                                    editDigest: try SHA256.hex(ofFileAt: renderPath), options: optionsDescription,
                                    originalPath: BatchFiles.relativePath(of: item.input,
                                                                          from: (output as NSString).deletingLastPathComponent),
                                    metadataDigest: metadataDigest(of: item))
        record.digestMs = (record.digestMs ?? 0) + Self.milliseconds(since: clock)
        (record.edit, record.editFile) = (record.edit ?? "aae", record.editFile ?? item.found?.edit)
        record.appleRender = renderPath
        if update {
            record.reason = outputExists ? Self.staleness(of: output, against: provenance) : "no output yet"
            if record.reason == nil {
                (record.status, record.reason) = (.current, "output is current")
                return
            }
        }
        clock = DispatchTime.now()
        // Apple's render is upright and finished: read as a photo without an edit, never searched for one.
        let render = try PhotoEdit(imagePath: renderPath, editPath: nil, size: size, editSource: EditSource.none,
                                   planner: planner, renderer: renderer)
        record.readMs = (record.readMs ?? 0) + Self.milliseconds(since: clock)
        let library = libraryXMP(of: item)
        if UneditedPolicy.copyIsFaithful(render, to: output, size: size, metadata: metadata) {
            clock = DispatchTime.now()
            let embedded = try writeCopy(try render.original.source.whole(), to: output, library: library)
            try ProvenanceSidecar.write(provenance, forOutput: output)
            try writePhotosSidecar(library, forOutput: output, embedded: embedded, provenance: provenance)
            record.writeMs = Self.milliseconds(since: clock)
            record.size = [render.plan.outputSize.width, render.plan.outputSize.height]
        } else {
            var metadata = self.metadata
            metadata.provenance = metadata.stripAll ? nil : provenance
            metadata.library = format == .jpeg ? library : nil
            clock = DispatchTime.now()
            // A PNG is written as it is encoded (as in renderAndWrite): its writes count as rendering.
            let (rendering, pngWarnings) = try self.render(render, towards: output, metadata: metadata)
            record.renderMs = Self.milliseconds(since: clock)
            clock = DispatchTime.now()
            let metadataWarnings = format == .png ? pngWarnings : try render.write(rendering, to: output, metadata: metadata)
            warnings += metadataWarnings.map { "warning: \(renderPath): \($0)" }
            if metadata.stripAll { try ProvenanceSidecar.write(provenance, forOutput: output) } else {
                ProvenanceSidecar.remove(forOutput: output)
            }
            try writePhotosSidecar(library, forOutput: output, embedded: metadata.library != nil, provenance: provenance)
            record.writeMs = Self.milliseconds(since: clock)
            record.size = [rendering.size.width, rendering.size.height]
        }
        (record.status, record.source) = (.ok, .appleRender)
    }
}
