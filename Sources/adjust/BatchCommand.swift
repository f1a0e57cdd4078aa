import AdjustKit
import ArgumentParser
import Foundation

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Apply the edits of many photos, in parallel, into an output folder.",
        discussion: """
        INPUTS are JPEG and HEIC files and folders; folders are walked recursively for *.jpg, *.jpeg, \
        *.heic and *.heif (IMG_E1234.* beside IMG_1234.* is Apple's render of that photo, not a photo) \
        (any case), skipping hidden files and folders and the --out folder itself; a Photos library, \
        an iPhone backup's Media folder and a DCIM copy are read by their own rules; videos, Live \
        Photo motion and other pictures are copied (--videos); a file named \
        directly is tried whatever its extension. Each photo is \
        written to DIR at its path relative to the folder it was found in (a file named directly: \
        just its name), with the extension of --format, creating folders as needed. A photo named \
        twice is rendered once. An output that would be one of the inputs is never written: that \
        photo fails.

        Each photo's edit: with --xmp-dir, XMP-DIR/SUBFOLDER/STEM.xmp or XMP-DIR/STEM.xmp (or .XMP, .AAE, .aae) \
        if present; otherwise its own aas XMP, else a sidecar STEM.xmp beside it, else STEM.AAE or \
        IMG_O….AAE (any case), else none (status no-edit; what is written follows --unedited). \
        Adjustments that cannot be replayed are left out and named ("notReplayed"; --strict fails \
        the photo instead).

        What the user set in Photos goes with each output of a library asset (--metadata photos, \
        the default): the capture date with its time zone, place, title, caption, keywords, \
        favourite (xmp:Rating 5) and albums (lr:hierarchicalSubject "Folder|Album", and "albums" in \
        the record), as XMP — in a JPEG output's own XMP (a copied JPEG keeps its picture byte for \
        byte, SOS to EOI: only its metadata segments change), else in a sidecar \
        NAME.EXT.xmp beside it (HEIC, PNG, videos); --sidecar xmp writes the sidecar beside every \
        output. A JPEG's EXIF DateTimeOriginal and OffsetTimeOriginal, where the camera wrote \
        them, are overwritten in place with Photos' time; nothing is added to EXIF. --metadata \
        file keeps only the file's own metadata.

        Standard error: on a terminal, one progress bar redrawn in place (failures and warnings are \
        printed above it); otherwise one line per photo, "adjust: ok NAME -> OUT", \
        "adjust: no-edit NAME -> OUT", "adjust: skipped NAME (OUT exists)", "adjust: current NAME -> OUT" or \
        "adjust: error: IN: problem" (NAME: a library photo's original file name, else its path). \
        Then what was made in plain words, how many photos came from Apple's renders and why, and \
        last the counts: "adjust: N files: A ok, B without edits, C skipped, D failed". --quiet: \
        only failures, warnings and those lines. A full disk (or a read-only or failing output) \
        stops the run at once: one "adjust: stopped:" line, the summary, exit 73.

        --json: standard output is JSON Lines — one JSON object per line, per photo in the order \
        they finish, then a summary object (read it line by line, e.g. `jq -c`; it is not one JSON \
        document): \
        {"input", "output", "status" (ok, no-edit, skipped, current, failed; orphaned or pruned for \
        outputs whose original is gone; missing for a library asset whose original is not on disk), "reason", "error" (failed only: the \
        file at fault and the problem, one line), "edit" (embedded, sidecar, aae, xmp-dir or none; null \
        when not read), "editFile", "chain" (filter names in application order), "size" ([w, h] \
        written), "warnings", "notReplayed", "source" (replay, copy, original or apple-render), "sourceReason" \
        (approximate, not-replayed, cannot-replay or preferred), "appleRender", "readMs" (reading, parsing and planning), "digestMs" (SHA-256 of the \
        original and edit), "renderMs" (decoding, rendering and encoding, one streamed pass), \
        "decodeMs" (the decoder's part of it), "writeMs" (metadata and writing), "totalMs"}, then a \
        last line {"summary": {"files", "ok", "noEdit", "skipped", "failed", "jobs", "totalMs"; \
        "current" with --update, "orphaned" and "pruned" with --update or --prune, "ignored", \
        "fromAppleRenders", "missing"}} \
        (docs/batch-record.schema.json).

        --update: every output records its provenance in its XMP (the tool version, SHA-256 \
        digests of the original and of the edit file, the options that change the output, the \
        original's path; docs/spec/provenance.md). With --update a photo is rendered only when \
        its output is missing, incomplete or has no record, or its original, edit, tool or \
        options changed ("reason" says which); otherwise it is left alone with status current \
        ("adjust: current IN -> OUT"); a library asset whose values in Photos changed is written \
        again ("Photos metadata changed"). With --update or --prune, outputs in DIR (with a record) \
        whose original is gone are reported, status orphaned, and removed only with --prune \
        (status pruned); a file without adjust's record is never touched.

        --shard K/N: this process takes only its share of the inputs (a stable hash of each \
        input's path relative to its input root, modulo N) and reports only those; N processes \
        started with 1/N … N/N, on any machines, cover the inputs exactly once and never write \
        the same output, so they can share one output folder. At start a process removes the \
        temporary files (.adjust-tmp-*) that a killed run left for its own outputs.

        SIGINT or SIGTERM (Ctrl-C): no new photo is started, the ones being written finish (each \
        written whole or not at all), and the summary ends with "re-run the same command with \
        --update to finish"; a second signal abandons those too, removing their temporary files. \
        Exit status 130 (SIGINT) or 143 (SIGTERM).

        Photos that fail do not stop the others. Exit status: 0 when no photo failed; 65 when any \
        photo failed; 64 bad command line (an --out folder that is an input folder or inside one \
        included); 66 an input, the --xmp-dir folder or an --effect-lut table is missing (nothing \
        is written; 65 if a table is malformed); 73 the output folder cannot be created; 130/143 \
        interrupted.

        EXAMPLES:
          adjust batch ~/Pictures/export --out ~/edited                 (JPEGs + .AAE sidecars)
          adjust batch DCIM --out previews --max-size 1024 --unedited render
          adjust batch photos --out edited --json > records.jsonl; adjust batch photos --out edited --update
        """)

    @Argument(help: ArgumentHelp("JPEG and HEIC files and folders (walked recursively).", valueName: "INPUTS"))
    var inputs: [String] = []

    @Option(name: [.customShort("o"), .customLong("out")], help: ArgumentHelp(
        "Output folder (created if missing).", valueName: "DIR"))
    var out: String

    @Option(name: [.customShort("j"), .customLong("jobs")], help: ArgumentHelp(
        "Photos rendered at once (default: the number of active cores).", valueName: "N"))
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Folder of edits: STEM.xmp or STEM.AAE (or under the photo's subfolder) is the edit of STEM.jpg.", valueName: "XMP-DIR"))
    var xmpDir: String?

    @Option(name: .long, help: ArgumentHelp(
        "A photo without an edit: copy (default: the original's bytes when nothing asked for changes them — full size, no --format (a HEIC stays HEIC) or the original's own, metadata kept — else rendered like an edited photo), skip (nothing written), or render (always decoded and written).",
        valueName: "copy|skip|render"))
    var unedited: UneditedPolicy = .copy

    @Option(name: .long, help: ArgumentHelp(
        "Apple's own render of an edit, found beside it (IMG_E1234.*, FullSizeRender.*, a library's UUID_1_201_a.jpeg): auto (default: written instead of the replay whenever the replay would not be exactly Photos' — an approximate step, one that cannot be replayed, another app's edit; only exact edits are replayed), never, or prefer (whenever there is one). Copied byte for byte in its own format (a HEIC render stays HEIC) when no --format, size or metadata flag is given, else converted, its colour profile kept; the record says source apple-render and sourceReason.",
        valueName: "auto|never|prefer"))
    var appleRender: AppleRenderPolicy = .auto

    @Flag(name: [.short, .long], help: "Say only failures, warnings and the summary: no progress bar, no line per photo, no notes (--json records still hold everything).")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp(
        "Videos and Live Photo motion: copy (default: byte for byte, an edited one as Photos' render of it when there is one; a Live Photo's motion beside its still under the same name) or skip (counted, not written). Screenshots, GIFs, TIFFs and RAW files are always copied.",
        valueName: "copy|skip"))
    var videos: VideoPolicy = .copy

    @Flag(name: .long, help: "In a Photos library, render the photos in its trash too (left out by default).")
    var includeTrashed = false

    @Flag(name: .long, help: "Leave photos whose output already exists alone (status skipped).")
    var skipExisting = false

    @Flag(name: .long, help: "Render only photos whose output is missing or stale: its recorded original, edit, tool or options differ (others: status current).")
    var update = false

    @Flag(name: .long, help: "Remove outputs (with adjust's provenance) whose original is gone; without it --update only reports them.")
    var prune = false

    @Option(name: .long, help: ArgumentHelp(
        "Take only shard K of N (1…N) of the inputs, partitioned by their relative paths.", valueName: "K/N"))
    var shard: BatchShard = .whole

    @Flag(name: .long, help: "One JSON object per photo on standard output, then a summary object.")
    var json = false

    @OptionGroup var size: SizeOptions

    @OptionGroup var colour: ColourOptionGroup

    @OptionGroup var metadata: MetadataOptionGroup

    @OptionGroup var photosMetadata: PhotosMetadataOptionGroup


    @Option(name: .long, help: ArgumentHelp("Output format, jpeg (default) or png.", valueName: "jpeg|png"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("JPEG quality, 1–100.", valueName: "Q"))
    var quality: Int = 90

    @Option(name: .long, help: ArgumentHelp(
        "PNG compression (zlib level), 0 (stored, fastest) to 9 (slowest, usually smallest). Only the file's size changes, never its pixels.",
        valueName: "N"))
    var pngCompression: Int = PNGCompression.default.level

    // Last and untitled: help lists the options a user reaches for first, then the limits
    // (swift-argument-parser shows every titled group before the untitled options).
    @OptionGroup var limits: LimitOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one input file or folder") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100, got \(quality)") }
        guard PNGCompression(level: pngCompression) != nil else {
            throw ValidationError("--png-compression must be 0–9, got \(pngCompression)")
        }
        if let format, ImageFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("--format must be jpeg or png, got '\(format)'")
        }
        if let jobs, jobs < 1 { throw ValidationError("-j/--jobs must be at least 1, got \(jobs)") }
        guard !out.isEmpty else { throw ValidationError("--out must name a folder") }
        if update, skipExisting { throw ValidationError("--update and --skip-existing cannot be used together") }
        if let problem = BatchFiles.outputFolderProblem(inputs, out: out) { throw ValidationError(problem) }
    }

    func run() throws {
        let started = DispatchTime.now()
        MallocPolicy.returnLargeBlocksWhenFreed()
        let format = format.flatMap { ImageFormat(rawValue: $0.lowercased()) } ?? .jpeg
        var renderer: Renderer
        do {
            try BatchFiles.checkInputsExist(inputs)
            try BatchFiles.makeDirectory(out)
            if let xmpDir {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: xmpDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw FileError(path: xmpDir, kind: .unreadable, problem: "not a folder")
                }
            }
            renderer = Renderer(decoder: limits.decoder, colour: try colour.options())
        } catch let error as FileError {
            throw Diagnostics.fail(error)
        }

        // Every shard collects the whole batch, so that all agree on which input owns which output.
        // Nothing asked that changes a file: a HEIC copied (or Apple's HEIC render) stays HEIC.
        let keepsFiles = self.format == nil && size.request == .full && !metadata.options.stripAll && !metadata.options.stripGPS
        let ownFormat = keepsFiles ? BatchFiles.OwnFormat(policy: appleRender, editSource: limits.editSource,
                                                          exactEffects: Set(renderer.colour.effectCubes.keys), xmpDir: xmpDir) : nil
        let collection = BatchFiles.collect(inputs, out: out, format: format, ownFormat: ownFormat, videos: videos,
                                            includeTrashed: includeTrashed)
        let allItems = collection.items
        let items = allItems.filter { shard.owns($0.shardKey) }
        BatchFiles.removeStaleTemporaryFiles(in: out, keeping: Set(allItems.filter { !shard.owns($0.shardKey) }
            .compactMap(\.output)))
        let optionsDescription: String
        do { optionsDescription = try outputOptionsDescription(format: format) } catch { throw Diagnostics.fail(error) }
        let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, items.count))
        // Each render decodes a HEIC's tiles with its share of the cores; given one, it holds one
        // tile row at a time instead of two, which bounds the batch's memory by the rows in flight.
        renderer.heicDecodingThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / workers)
        // The walk found each photo's edit where its layout keeps it: not looked for again per photo.
        var editSource = limits.editSource
        editSource.findsLayoutEdits = false
        let job = BatchRunner(renderer: renderer, editSource: editSource, planner: limits.planner,
                              size: size.request, format: format, quality: quality,
                              pngCompression: PNGCompression(level: pngCompression)!, metadata: metadata.options,
                              photosMetadata: photosMetadata.source, sidecar: photosMetadata.sidecar,
                              xmpDir: xmpDir, skipExisting: skipExisting, unedited: unedited, appleRender: appleRender, update: update,
                              tool: "adjust \(Adjust.configuration.version)", optionsDescription: optionsDescription,
                              json: json, inputKeys: Set(allItems.compactMap(\.key)))
        let progress = BatchProgress(total: items.count, quiet: quiet)
        for remark in collection.remarks { progress.message("adjust: note: \(remark)") }
        let interruption = BatchInterruption()
        let outFolder = out, othersOutputs = Set(allItems.filter { !shard.owns($0.shardKey) }.compactMap(\.output))
        let signalSources = interruption.install(first: { signal in
            progress.message("adjust: \(signal == SIGINT ? "interrupted" : "terminated"): finishing the photos being written "
                + "(again to stop at once)…")
        }, second: { signal in
            // The workers are mid-write: their temporary files go, no output is left partial.
            BatchFiles.removeStaleTemporaryFiles(in: outFolder, keeping: othersOutputs)
            progress.finish()
            progress.message("adjust: stopped; the photos being written were abandoned. Re-run the same command with --update to finish.")
            Glibc.exit(BatchInterruption.exitStatus(signal))
        })
        job.run(items, workers: workers, progress: progress, interruption: interruption)
        withExtendedLifetime(signalSources) {}
        progress.finish()

        let orphans = update || prune ? sweepOrphans(allItems, job: job, progress: progress) : []
        if json {
            // Each asset without its original, named in the record of the shard its UUID falls to.
            for asset in collection.missing where shard.owns(asset.uuid) {
                var record = BatchRecord(input: "\(asset.name) (\(asset.uuid))", output: nil, status: .missing, totalMs: 0)
                record.reason = "no original on disk" + (asset.expected.map { " (\($0))" } ?? "") + (asset.edited ? "; edited in Photos" : "")
                job.emit(record)
            }
        }
        let counts = progress.snapshot
        summarize(counts, ignored: collection.ignored, missingCount: collection.missing.count, orphans: orphans, workers: workers, job: job, progress: progress,
                  started: started)
        if interruption.isInterrupted {
            progress.message("adjust: stopped after \(counts.done) of \(items.count) photos; "
                + "re-run the same command with --update to finish")
            throw ExitCode(BatchInterruption.exitStatus(interruption.signal))
        }
        if job.stopped != nil {
            progress.message("adjust: stopped after \(counts.done) of \(items.count) files; "
                + "re-run the same command with --update to finish")
            throw ExitCode(73)   // EX_CANTCREAT: the output cannot be written
        }
        if counts.failed > 0 || orphans.contains(where: { $0.status == .failed }) { throw ExitCode(65) }
    }

    /// `--update`/`--prune`: finds (and with --prune removes) this shard's outputs whose original
    /// is gone, reporting each.
    private func sweepOrphans(_ allItems: [BatchItem], job: BatchRunner, progress: BatchProgress) -> [BatchRecord] {
        let expected = Set(allItems.compactMap(\.output).map(BatchFiles.absolute))
        let orphans = BatchOrphans(out: out, expectedOutputs: expected, shard: shard).sweep(prune: prune)
        for record in orphans {
            let output = record.output ?? ""
            switch record.status {
            case .pruned: progress.message("adjust: pruned \(output) (its original \(record.input) is gone)")
            case .orphaned:
                progress.message("adjust: orphaned \(output) (its original \(record.input) is gone; --prune removes it)")
            default: progress.message("adjust: error: \(record.error ?? output)")
            }
            if json { job.emit(record) }
        }
        return orphans
    }

    /// The summary line(s) on standard error, and the summary object with --json.
    private func summarize(_ counts: BatchProgress.Counts, ignored: BatchIgnored, missingCount: Int, orphans: [BatchRecord], workers: Int,
                           job: BatchRunner, progress: BatchProgress, started: DispatchTime) {
        // The same in plain words: what was made from what, and what is not on disk.
        let made = job.madeFrom.withLock { $0 }
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        var plain: [String] = []
        let replayed = made[.replay] ?? 0, rendered = made[.appleRender] ?? 0
        if replayed + rendered > 0 {
            plain.append([replayed > 0 ? "replayed \(count(replayed, "edit", "edits"))" : nil,
                          rendered > 0 ? "used \(rendered) of Photos' renders" : nil].compactMap { $0 }.joined(separator: " and "))
        }
        let copies = [(made[.photoCopy] ?? 0, "photo", "photos"), (made[.videoCopy] ?? 0, "video", "videos"),
                      (made[.otherCopy] ?? 0, "other picture", "other pictures")].filter { $0.0 > 0 }
        if !copies.isEmpty { plain.append("copied " + copies.map { count($0.0, $0.1, $0.2) }.joined(separator: " and ")) }
        if missingCount > 0 {
            plain.append("\(count(missingCount, "asset has", "assets have")) no original on disk "
                + (json ? "(named in the missing records)" : quiet ? "(--json lists them)" : "(named above; --json lists them)"))
        }
        if !plain.isEmpty { progress.message("adjust: " + plain.joined(separator: "; ")) }
        let tally = job.appleRenderTally.withLock { $0 }
        let fromRenders = tally.values.reduce(0, +)
        if fromRenders > 0 {
            let why = AppleRenderReason.allCases.compactMap { reason in tally[reason].map { "\($0) \(reason.phrase)" } }
            progress.message("adjust: \(fromRenders) photo\(fromRenders == 1 ? "" : "s") from Apple's renders: "
                + why.joined(separator: ", "))
        }
        // The counts last: the line scripts read.
        let noun = counts.done == 1 ? "file" : "files"
        let current = update ? "\(counts.current) current, " : ""
        progress.message("adjust: \(counts.done) \(noun): \(counts.ok) ok, \(counts.noEdit) without edits, "
            + "\(current)\(counts.skipped) skipped, \(counts.failed) failed" + (ignored.sentence.map { "; \($0)" } ?? ""))
        let orphaned = orphans.count { $0.status == .orphaned }, pruned = orphans.count { $0.status == .pruned }
        if !orphans.isEmpty {
            progress.message("adjust: \(orphans.count) output\(orphans.count == 1 ? "" : "s") whose original is gone: "
                + "\(pruned) pruned, \(orphaned) kept, \(orphans.count - pruned - orphaned) not removable")
        }
        guard json else { return }
        let sweep = update || prune
        job.emit(BatchSummaryLine(summary: .init(
            files: counts.done, ok: counts.ok, noEdit: counts.noEdit, skipped: counts.skipped,
            failed: counts.failed, jobs: workers, ignored: ignored.total > 0 ? ignored : nil, current: update ? counts.current : nil,
            orphaned: sweep ? orphaned : nil, pruned: sweep ? pruned : nil,
            fromAppleRenders: tally.isEmpty ? nil : Dictionary(uniqueKeysWithValues: tally.map { ($0.key.rawValue, $0.value) }),
            missing: missingCount > 0 ? missingCount : nil,
            totalMs: BatchRunner.milliseconds(since: started))))
    }

    /// The options that change an output file, in the fixed form its provenance records: a
    /// change to any of them makes `--update` render again. Limits are not among them: they
    /// decide whether a photo renders, not what it renders to.
    private func outputOptionsDescription(format: ImageFormat) throws(FileError) -> String {
        let sizeText: String = switch size.request {
        case .full: "full"
        case .scale(let scale): "scale:\(scale.numerator)/8"
        case .maxSize(let side): "max-size:\(side)"
        }
        var luts: [String] = []
        for entry in colour.effectLut.sorted() {
            guard let (effect, path) = try? ColourOptionGroup.split(entry) else { continue }
            luts.append("\(effect.name):sha256:\(try SHA256.hex(ofFileAt: path))")
        }
        let metadataText = metadata.stripMetadata ? "none" : metadata.stripGps ? "no-gps" : "all"
        return [
            "size=\(sizeText)", "format=\(format.rawValue)", "quality=\(format == .jpeg ? String(quality) : "-")",
            "working-space=\(colour.workingSpace)", "effect-luts=\(luts.isEmpty ? "built-in" : luts.joined(separator: ","))",
            "skip-unsupported=\(colour.skipUnknownFilters)", "tolerate-jpeg-warnings=\(limits.tolerateJpegWarnings)",
            "metadata=\(metadataText)", "unedited=\(unedited.rawValue)", "apple-render=\(appleRender.rawValue)",
            "photos-metadata=\(photosMetadata.source.rawValue)", "sidecar=\(photosMetadata.sidecar.rawValue)",
        ].joined(separator: " ")
    }
}

