import AdjustKit
import Foundation
import Synchronization

/// The render settings shared by every worker, and the per-photo work.
final class BatchRunner: Sendable {
    let renderer: Renderer
    let editSource: EditSource
    let planner: RenderPlanner
    let size: SizeRequest
    let format: ImageFormat
    let quality: Int
    /// `--png-compression`.
    let pngCompression: PNGCompression
    let metadata: MetadataOptions
    /// `--metadata`: whether a library asset's outputs carry what the user set in Photos.
    let photosMetadata: PhotosMetadataSource
    /// `--sidecar`: whether every such output gets a `NAME.EXT.xmp`, or only those that cannot carry it.
    let sidecar: SidecarPolicy
    let xmpDir: String?
    let skipExisting: Bool
    /// `--unedited`: what a photo without an edit gets.
    let unedited: UneditedPolicy
    /// `--apple-render`: when Apple's render found beside an edit is written instead of the replay.
    let appleRenderPolicy: AppleRenderPolicy
    /// `--update`: an output whose recorded provenance matches is left alone (status current).
    let update: Bool
    /// What every output records beside its digests: the tool and the output-changing options.
    let tool: String
    let optionsDescription: String
    let json: Bool
    /// Every input of the whole batch (all shards): an output must never be one of them.
    let inputKeys: Set<BatchFiles.Key>
    private let outputLock = Mutex(())
    /// Set by the first output that failed for a reason every later one would share (a full
    /// disk, a read-only or failing file system): the run hands out no more photos.
    private let stopReason = Mutex<FileError?>(nil)
    var stopped: FileError? { stopReason.withLock { $0 } }

    /// Whether `error` stops the whole run: an output that cannot be written because the disk is
    /// full (ENOSPC), the file system read-only (EROFS) or failing (EIO). Matched on the system's
    /// own words (strerror), which the writers put in their one-line problems.
    static func stopsTheRun(_ error: FileError) -> Bool {
        guard error.kind == .unwritable else { return false }
        return [ENOSPC, EROFS, EIO, EDQUOT].contains { error.problem.contains(String(cString: strerror($0))) }
    }

    /// What each written output was made from, for the summary in plain words.
    let madeFrom = Mutex<[MadeFrom: Int]>([:])
    enum MadeFrom: Hashable { case replay, appleRender, photoCopy, videoCopy, otherCopy }

    /// How many outputs came from Apple's renders, by why (the run's summary).
    let appleRenderTally = Mutex<[AppleRenderReason: Int]>([:])
    /// `--strict`: an edit with a step this version cannot replay fails its photo.
    var strict: Bool { !renderer.colour.skipUnknownFilters }
    /// The photo effects `--effect-lut` made exact: a replay with them is not approximate.
    var exactEffects: Set<PhotoEffect> { Set(renderer.colour.effectCubes.keys) }

    init(renderer: Renderer, editSource: EditSource, planner: RenderPlanner, size: SizeRequest, format: ImageFormat,
         quality: Int, pngCompression: PNGCompression, metadata: MetadataOptions,
         photosMetadata: PhotosMetadataSource = .photos, sidecar: SidecarPolicy = .auto, xmpDir: String?, skipExisting: Bool, unedited: UneditedPolicy,
         appleRender: AppleRenderPolicy, update: Bool, tool: String, optionsDescription: String, json: Bool,
         inputKeys: Set<BatchFiles.Key>) {
        (self.unedited, self.appleRenderPolicy) = (unedited, appleRender)
        (self.renderer, self.editSource, self.planner, self.size, self.format) = (renderer, editSource, planner, size, format)
        (self.metadata, self.pngCompression) = (metadata, pngCompression)
        (self.photosMetadata, self.sidecar) = (photosMetadata, sidecar)
        (self.quality, self.xmpDir, self.skipExisting, self.json) = (quality, xmpDir, skipExisting, json)
        (self.update, self.tool, self.optionsDescription) = (update, tool, optionsDescription)
        self.inputKeys = inputKeys
    }

    /// Renders every item on `workers` threads, each taking the next photo when it is free, until
    /// all are done or `interruption` says stop (the photos being written then finish).
    func run(_ items: [BatchItem], workers: Int, progress: BatchProgress, interruption: BatchInterruption? = nil) {
        progress.start()
        let queue = WorkQueue(count: items.count)
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while interruption?.isInterrupted != true, self.stopped == nil, let index = queue.next() {
                    self.process(items[index], progress: progress)
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }

    private func process(_ item: BatchItem, progress: BatchProgress) {
        let started = DispatchTime.now()
        var record = BatchRecord(input: item.input, output: item.output, status: .failed, totalMs: 0)
        do {
            if let file = item.file { try copyFile(item, file, into: &record) } else { try render(item, into: &record) }
        } catch {
            if Self.stopsTheRun(error) {
                let first = stopReason.withLock { stop in
                    defer { if stop == nil { stop = error } }
                    return stop == nil
                }
                if first {
                    progress.message("adjust: stopped: \(BatchFiles.oneLine(error.description)); nothing more is written "
                        + "(make room, then re-run the same command with --update)")
                }
            }
            record.status = .failed
            record.output = nil   // named only when written
            record.error = BatchFiles.oneLine(error)
            record.reason = record.error
            let problem = error.path == item.input ? BatchFiles.oneLine(error.problem) + Diagnostics.hint(error)
                : BatchFiles.oneLine(Diagnostics.message(error))
            progress.finished(.failed, input: item.input, line: "error: \(item.input): \(problem)",
                              extra: (record.warnings ?? []).map { "adjust: " + $0 })
            record.totalMs = Self.milliseconds(since: started)
            if json { emit(record) }
            return
        }
        record.totalMs = Self.milliseconds(since: started)
        if let albums = libraryXMP(of: item)?.metadata.albums, !albums.isEmpty { record.albums = albums }
        if record.status == .ok || record.status == .noEdit {
            let made: MadeFrom = switch (record.source, item.file?.kind) {
            case (.appleRender?, _): .appleRender
            case (_, .video?), (_, .motion?): .videoCopy
            case (_, .otherPicture?): .otherCopy
            case (.replay?, nil): .replay
            default: .photoCopy
            }
            madeFrom.withLock { $0[made, default: 0] += 1 }
        }

        let output = item.output ?? ""
        let line: String
        // The photo as the user knows it (a library's original file name), else its path.
        let input = item.name
        switch record.status {
        case .ok: line = "ok \(input) -> \(output)"
        case .noEdit: line = "no-edit \(input) -> \(output)"
        case .skipped: line = record.reason == "output exists" ? "skipped \(input) (\(output) exists)" : "skipped \(input): \(record.reason ?? "skipped")"
        case .current: line = "current \(input) -> \(output)"
        case .failed, .orphaned, .pruned, .missing: line = "error: \(item.input): failed"
        }
        progress.finished(record.status, input: item.input, line: line,
                          extra: (record.warnings ?? []).map { "adjust: " + $0 })
        if json { emit(record) }
    }

    private func render(_ item: BatchItem, into record: inout BatchRecord) throws(FileError) {
        let (output, outputExists) = try checkedOutput(of: item)
        if outputExists, skipExisting { record.status = .skipped; record.reason = "output exists"; return }
        try BatchFiles.makeDirectory((output as NSString).deletingLastPathComponent)
        var warnings: [String] = []
        defer { record.warnings = warnings.isEmpty ? nil : warnings.map { BatchFiles.oneLine($0) } }

        var photo: PhotoEdit, provenance: Provenance
        do {
            (photo, provenance) = try read(item, output: output, into: &record, warnings: &warnings)
        } catch where (error.kind == .unsupported || (error.kind == .invalidContent && error.path != item.input))
                    && (appleRenderPolicy == .never || item.appleRender == nil) && !strict {
            // Another app's edit, an edit this version cannot replay at all, or a broken edit file,
            // and no render of Photos' shows it: the original, said, rather than nothing (--strict refuses).
            warnings.append("warning: \(item.name): \(BatchFiles.oneLine(error.problem)); the original is written (--strict refuses)")
            (photo, provenance) = try read(item, output: output, withoutEdit: true, into: &record, warnings: &warnings)
        } catch where error.kind == .unsupported && appleRenderPolicy != .never && item.appleRender != nil {
            // Another app's edit, or one this version cannot read: only Apple's render shows it.
            warnings.append("note: \(item.name): \(BatchFiles.oneLine(error.problem)); Apple's render is used")
            try writeAppleRender(item, to: output, exists: outputExists,
                                 because: AppleRenderChoice(reason: .cannotReplay, detail: BatchFiles.oneLine(error.problem)),
                                 into: &record, warnings: &warnings)
            return
        }
        if photo.edit.origin != .none, photo.edit.chain.replaysNothing, !strict,
           appleRenderPolicy == .never || item.appleRender == nil {
            let names = photo.edit.chain.notReplayed.joined(separator: ", ")
            warnings.append("warning: \(item.name): nothing of the edit can be replayed (\(names)); the original is written (--strict refuses)")
            record.notReplayed = photo.edit.chain.notReplayed
            (photo, provenance) = try read(item, output: output, withoutEdit: true, into: &record, warnings: &warnings)
        }
        let hasEdit = photo.edit.origin != .none
        // Decided when the outputs were named where the name depends on it (a HEIC render kept HEIC).
        if hasEdit, item.appleRender != nil,
           let choice = item.plannedAppleRender ?? appleRenderPolicy.choice(for: photo.edit.chain, exactEffects: exactEffects) {
            let notReplayed = photo.edit.chain.notReplayed
            record.notReplayed = notReplayed.isEmpty ? nil : notReplayed
            warnings.append("note: \(item.name): \(choice.detail); Apple's render is used")
            try writeAppleRender(item, to: output, exists: outputExists, originalDigest: provenance.originalDigest,
                                 because: choice, into: &record, warnings: &warnings)
            return
        }
        if !hasEdit, unedited == .skip {
            record.status = .skipped
            record.reason = "no edit (--unedited skip)"
            record.output = nil
            return
        }
        if update {
            record.reason = outputExists ? Self.staleness(of: output, against: provenance) : "no output yet"
            if record.reason == nil {
                record.status = .current
                record.reason = "output is current"
                return
            }
        }
        if !hasEdit, unedited == .copy, UneditedPolicy.copyIsFaithful(photo, to: output, size: size, metadata: metadata) {
            let clock = DispatchTime.now()
            let library = libraryXMP(of: item)
            let embedded = try writeCopy(try photo.original.source.whole(), to: output, library: library)
            try ProvenanceSidecar.write(provenance, forOutput: output)
            try writePhotosSidecar(library, forOutput: output, embedded: embedded, provenance: provenance)
            record.writeMs = Self.milliseconds(since: clock)
            (record.status, record.source) = (.noEdit, .copy)
            record.size = [photo.plan.outputSize.width, photo.plan.outputSize.height]
            return
        }
        // Messages name the photo as the user knows it (a library's original file name).
        try renderAndWrite(photo, name: item.name, to: output, provenance: provenance, library: libraryXMP(of: item),
                           into: &record, warnings: &warnings)
        record.source = hasEdit ? .replay : .original
    }

    /// The item's output path and whether a file is there; throws a failure found while
    /// collecting, and refuses an output that is one of the inputs.
    func checkedOutput(of item: BatchItem) throws(FileError) -> (path: String, exists: Bool) {
        if let failure = item.failure { throw failure }
        guard let output = item.output else {
            throw FileError(path: item.input, kind: .unwritable, problem: "no output path")
        }
        guard let existing = BatchFiles.key(output) else { return (output, false) }
        if inputKeys.contains(existing) || BatchFiles.key(item.input) == existing {
            throw FileError(path: output, kind: .unwritable, problem: "refusing to overwrite an input image")
        }
        return (output, true)
    }

    /// Hashes the original, reads it, finds and parses its edit, plans; fills the record's edit
    /// fields and timings. Returns the photo and the provenance its output records.
    /// `withoutEdit`: read as a photo without an edit (its edit cannot be replayed at all).
    private func read(_ item: BatchItem, output: String, withoutEdit: Bool = false, into record: inout BatchRecord,
                      warnings: inout [String]) throws(FileError) -> (PhotoEdit, Provenance) {
        // Hashed before the photo is read: a change after this makes the recorded digest stale,
        // so a later --update renders again rather than keeping a stale output.
        var clock = DispatchTime.now()
        let originalDigest = try SHA256.hex(ofFileAt: item.input)
        record.digestMs = Self.milliseconds(since: clock)

        clock = DispatchTime.now()
        let xmpDirEdit = withoutEdit ? nil : xmpDir.flatMap { editInXMPDir($0, relative: item.relative) }
        let editFile = withoutEdit ? nil : xmpDirEdit ?? item.layoutEdit
        let photo = try PhotoEdit(imagePath: item.input, editPath: editFile, size: size,
                                  editSource: withoutEdit ? EditSource.none : editSource, planner: planner, renderer: renderer)
        record.readMs = Self.milliseconds(since: clock)
        record.chain = photo.edit.chain.steps.map(\.filterName)
        (record.edit, record.editFile) = Self.describe(photo.edit.origin, fromXMPDir: xmpDirEdit != nil)
        let editLabel = record.editFile ?? item.input
        warnings += photo.edit.warnings.map { "warning: \(editLabel): \($0)" }
        warnings += photo.edit.notes.map { "note: \(editLabel): \($0)" }
        warnings += photo.plan.warnings.map { "warning: \(item.name): \($0)" }

        clock = DispatchTime.now()
        let provenance = try self.provenance(of: item, output: output, originalDigest: originalDigest,
                                             editKind: record.edit ?? "none", editFile: record.editFile)
        record.digestMs = (record.digestMs ?? 0) + Self.milliseconds(since: clock)
        return (photo, provenance)
    }

    /// The record's `edit` and `editFile` for an edit's origin.
    private static func describe(_ origin: EditOrigin, fromXMPDir: Bool) -> (kind: String, file: String?) {
        switch origin {
        case .none: ("none", nil)
        case .embedded(let path): (fromXMPDir ? "xmp-dir" : "embedded", path)
        case .sidecar(let path): ("sidecar", path)
        case .aae(let path): ("aae", path)
        case .xmpFile(let path), .metadataDump(let path): ("xmp-dir", path)
        }
    }

    /// `photo` rendered toward `output`: a PNG straight into its file with `metadata` (its writes
    /// are part of the render; the carry-over's warnings returned), a JPEG to bytes that
    /// `PhotoEdit.write` then writes (no warnings yet).
    func render(_ photo: PhotoEdit, towards output: String, metadata: MetadataOptions) throws(FileError)
        -> (rendering: EncodedRendering, metadataWarnings: [String]) {
        if format == .png { return try photo.renderAndWritePNG(to: output, compression: pngCompression, metadata: metadata) }
        return (try photo.renderEncoded(format: format, quality: quality), [])
    }

    /// Renders, encodes and writes atomically with the provenance in the output's metadata. A
    /// PNG is written to its file as it is encoded (`PhotoEdit.renderAndWritePNG`): its
    /// `renderMs` then holds the writes too, and `writeMs` the provenance sidecar's.
    private func renderAndWrite(_ photo: PhotoEdit, name: String, to output: String, provenance: Provenance,
                                library: LibraryMetadataXMP?, into record: inout BatchRecord,
                                warnings: inout [String]) throws(FileError) {
        var metadata = self.metadata
        // --strip-metadata puts nothing in the image: the record goes beside it.
        metadata.provenance = metadata.stripAll ? nil : provenance
        // A JPEG carries what the user set in Photos in its XMP; a PNG gets the sidecar.
        metadata.library = format == .jpeg ? library : nil
        var clock = DispatchTime.now()
        let (rendering, pngWarnings) = try render(photo, towards: output, metadata: metadata)
        record.renderMs = Self.milliseconds(since: clock)
        record.decodeMs = (rendering.decodeMs * 10).rounded() / 10
        warnings += rendering.warnings.map { "warning: \(name): \($0)" }
        let notReplayed = photo.edit.chain.notReplayed
        if let line = Diagnostics.notReplayedLine(photo.edit.chain, image: name) { warnings.append("warning: " + line) }
        record.notReplayed = notReplayed.isEmpty ? nil : notReplayed
        if !rendering.approximations.isEmpty {
            // One short line: the steps' names (each approximation's description is in the chain's docs).
            let names = rendering.approximations.map { $0.split(separator: " (", maxSplits: 1).first.map(String.init) ?? $0 }
            warnings.append("note: \(name): approximate: " + names.joined(separator: ", "))
        }

        clock = DispatchTime.now()
        let metadataWarnings = format == .png ? pngWarnings : try photo.write(rendering, to: output, metadata: metadata)
        if metadata.stripAll {
            try ProvenanceSidecar.write(provenance, forOutput: output)
        } else {
            ProvenanceSidecar.remove(forOutput: output)
        }
        warnings += metadataWarnings.map { "warning: \(name): \($0)" }
        try writePhotosSidecar(library, forOutput: output, embedded: metadata.library != nil, provenance: provenance)
        record.writeMs = Self.milliseconds(since: clock)
        record.size = [rendering.size.width, rendering.size.height]
        record.status = photo.edit.origin == .none ? .noEdit : .ok
    }

    /// What `output` records: the digests of the original and of an edit file outside it, the
    /// tool, the options, and where the original is as seen from the output's folder.
    func provenance(of item: BatchItem, output: String, originalDigest: String, editKind: String,
                            editFile: String?) throws(FileError) -> Provenance {
        var editDigest: String?
        if let editFile, editFile != item.input { editDigest = try SHA256.hex(ofFileAt: editFile) }
        let outputFolder = (output as NSString).deletingLastPathComponent
        return Provenance(tool: tool, originalDigest: originalDigest, editKind: editKind, editDigest: editDigest,
                          options: optionsDescription,
                          originalPath: BatchFiles.relativePath(of: item.input, from: outputFolder),
                          metadataDigest: metadataDigest(of: item))
    }

    /// Nil when the existing `output` records `provenance` (and is whole); otherwise why it is
    /// rendered again.
    static func staleness(of output: String, against provenance: Provenance) -> String? {
        switch Provenance.recorded(inOutputAt: output) {
        case .recorded(let recorded): return provenance.change(since: recorded)
        case .none: return "output has no provenance"
        case .incomplete: return "output is incomplete"
        case .unreadable(let why): return "output is unreadable: \(why)"
        }
    }

    /// XMP-DIR/SUBFOLDER/STEM.xmp, else XMP-DIR/STEM.xmp (either with .XMP).
    /// XMP-DIR/SUBFOLDER/STEM.xmp (or .XMP, .AAE, .aae), else XMP-DIR/STEM with those extensions.
    private func editInXMPDir(_ directory: String, relative: String) -> String? {
        let stemPath = (relative as NSString).deletingPathExtension
        let stem = (stemPath as NSString).lastPathComponent
        var candidates = [stemPath]
        if stemPath != stem { candidates.append(stem) }
        for candidate in candidates {
            // An XMP first (the folder's own kind), then a modern Photos edit of the same name.
            for ext in ["xmp", "XMP", "AAE", "aae"] {
                let path = (directory as NSString).appendingPathComponent(candidate + "." + ext)
                if FileManager.default.fileExists(atPath: path) { return path }
            }
        }
        return nil
    }

    /// One JSON object, one line, on standard output.
    func emit<Line: Encodable>(_ line: Line) {
        guard let data = try? JSONEncoder.batchLines().encode(line) else { return }
        outputLock.withLock { _ in FileHandle.standardOutput.write(data + Data("\n".utf8)) }
    }

    static func milliseconds(since start: DispatchTime) -> Double {
        let nanoseconds = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
        return (Double(nanoseconds) / 100_000).rounded() / 10
    }
}
