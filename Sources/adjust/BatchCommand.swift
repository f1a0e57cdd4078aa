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
        (any case), skipping hidden files and folders and the --out folder itself; a file named \
        directly is tried whatever its extension. Each photo is \
        written to DIR at its path relative to the folder it was found in (a file named directly: \
        just its name), with the extension of --format, creating folders as needed. A photo named \
        twice is rendered once. An output that would be one of the inputs is never written: that \
        photo fails.

        Each photo's edit: with --xmp-dir, XMP-DIR/SUBFOLDER/STEM.xmp or XMP-DIR/STEM.xmp (or .XMP) \
        if present; otherwise its own aas XMP, else a sidecar STEM.xmp beside it, else none (the \
        original is written upright, status no-edit).

        Standard error: on a terminal, one progress bar redrawn in place (failures and warnings are \
        printed above it); otherwise one line per photo, "adjust: ok IN -> OUT", \
        "adjust: no-edit IN -> OUT", "adjust: skipped IN (OUT exists)" or \
        "adjust: error: IN: problem". Then a summary line: \
        "adjust: N files: A ok, B without edits, C skipped, D failed".

        --json: standard output gets one JSON object per photo, in the order they finish: \
        {"input", "output", "status" (ok, no-edit, skipped or failed), "error" (failed only: the \
        file at fault and the problem, one line), "edit" (embedded, sidecar, aae, xmp-dir or none; null \
        when not read), "editFile", "chain" (filter names in application order), "size" ([w, h] \
        written), "warnings", "readMs" (reading, parsing and planning), "renderMs" (decoding, \
        rendering and encoding, one streamed pass), "writeMs" (metadata and writing), "totalMs"}, then a last line \
        {"summary": {"files", "ok", "noEdit", "skipped", "failed", "jobs", "totalMs"}}.

        --shard K/N: this process takes only its share of the inputs (a stable hash of each \
        input's path relative to its input root, modulo N) and reports only those; N processes \
        started with 1/N … N/N, on any machines, cover the inputs exactly once and never write \
        the same output, so they can share one output folder. At start a process removes the \
        temporary files (.adjust-tmp-*) that a killed run left for its own outputs.

        Photos that fail do not stop the others. Exit status: 0 when no photo failed; 65 when any \
        photo failed (including an input that is missing); 64 bad command line; 73 the output \
        folder cannot be created; 66 --xmp-dir is not a folder or an --effect-lut table is missing \
        (65 if it is malformed).
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
        "Folder of edits: STEM.xmp (or under the photo's subfolder) is the edit of STEM.jpg.", valueName: "XMP-DIR"))
    var xmpDir: String?

    @Flag(name: .long, help: "Leave photos whose output already exists alone (status skipped).")
    var skipExisting = false

    @Option(name: .long, help: ArgumentHelp(
        "Take only shard K of N (1…N) of the inputs, partitioned by their relative paths.", valueName: "K/N"))
    var shard: BatchShard = .whole

    @Flag(name: .long, help: "One JSON object per photo on standard output, then a summary object.")
    var json = false

    @OptionGroup var size: SizeOptions

    @OptionGroup var colour: ColourOptionGroup

    @OptionGroup var metadata: MetadataOptionGroup

    @OptionGroup(title: "Limits") var limits: LimitOptions

    @Option(name: .long, help: ArgumentHelp("Output format, jpeg (default) or png.", valueName: "jpeg|png"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("JPEG quality, 1–100.", valueName: "Q"))
    var quality: Int = 90

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one input file or folder") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100, got \(quality)") }
        if let format, ImageFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("--format must be jpeg or png, got '\(format)'")
        }
        if let jobs, jobs < 1 { throw ValidationError("-j/--jobs must be at least 1, got \(jobs)") }
        guard !out.isEmpty else { throw ValidationError("--out must name a folder") }
    }

    func run() throws {
        let started = DispatchTime.now()
        let format = format.flatMap { ImageFormat(rawValue: $0.lowercased()) } ?? .jpeg
        let renderer: Renderer
        do {
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
        let allItems = BatchFiles.collect(inputs, out: out, format: format)
        let items = allItems.filter { shard.owns($0.shardKey) }
        BatchFiles.removeStaleTemporaryFiles(in: out, keeping: Set(allItems.filter { !shard.owns($0.shardKey) }
            .compactMap(\.output)))
        let job = BatchRunner(renderer: renderer, editSource: limits.editSource, planner: limits.planner,
                              size: size.request, format: format, quality: quality, metadata: metadata.options,
                              xmpDir: xmpDir, skipExisting: skipExisting, json: json,
                              inputKeys: Set(allItems.compactMap(\.key)))
        let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, items.count))
        let progress = BatchProgress(total: items.count)
        job.run(items, workers: workers, progress: progress)
        progress.finish()

        let counts = progress.snapshot
        let noun = counts.done == 1 ? "file" : "files"
        progress.message("adjust: \(counts.done) \(noun): \(counts.ok) ok, \(counts.noEdit) without edits, "
            + "\(counts.skipped) skipped, \(counts.failed) failed")
        if json {
            job.emit(BatchSummaryLine(summary: .init(
                files: counts.done, ok: counts.ok, noEdit: counts.noEdit, skipped: counts.skipped,
                failed: counts.failed, jobs: workers, totalMs: BatchRunner.milliseconds(since: started))))
        }
        if counts.failed > 0 { throw ExitCode(65) }
    }
}

