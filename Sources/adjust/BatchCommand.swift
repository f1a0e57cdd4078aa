import AdjustKit
import ArgumentParser
import Foundation
import Synchronization

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Apply the edits of many photos, in parallel, into an output folder.",
        discussion: """
        INPUTS are JPEG and HEIC files and folders; folders are walked recursively for *.jpg, *.jpeg, *.heic and *.heif \
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
        file at fault and the problem, one line), "edit" (embedded, sidecar, xmp-dir or none; null \
        when not read), "editFile", "chain" (filter names in application order), "size" ([w, h] \
        written), "warnings", "readMs" (reading, parsing and planning), "renderMs" (decoding, \
        rendering and encoding, one streamed pass), "writeMs" (metadata and writing), "totalMs"}, then a last line \
        {"summary": {"files", "ok", "noEdit", "skipped", "failed", "jobs", "totalMs"}}.

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
        let job: BatchJob
        do {
            try BatchFiles.makeDirectory(out)
            if let xmpDir {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: xmpDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw FileError(path: xmpDir, kind: .unreadable, problem: "not a folder")
                }
            }
            let renderer = Renderer(decoder: limits.decoder, colour: try colour.options())
            job = BatchJob(renderer: renderer, editSource: limits.editSource, planner: limits.planner,
                           size: size.request, format: format, quality: quality, metadata: metadata.options,
                           xmpDir: xmpDir, skipExisting: skipExisting, json: json)
        } catch let error as FileError {
            throw Diagnostics.fail(error)
        }

        let items = BatchFiles.collect(inputs, out: out, format: format)
        let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, items.count))
        let progress = BatchProgress(total: items.count)
        job.run(items, workers: workers, progress: progress)
        progress.finish()

        let counts = progress.snapshot
        let noun = counts.done == 1 ? "file" : "files"
        progress.message("adjust: \(counts.done) \(noun): \(counts.ok) ok, \(counts.noEdit) without edits, "
            + "\(counts.skipped) skipped, \(counts.failed) failed")
        if json {
            let summary: [String: Any] = [
                "files": counts.done, "ok": counts.ok, "noEdit": counts.noEdit, "skipped": counts.skipped,
                "failed": counts.failed, "jobs": workers, "totalMs": BatchJob.milliseconds(since: started),
            ]
            job.emit(["summary": summary])
        }
        if counts.failed > 0 { throw ExitCode(65) }
    }
}

/// One photo to render: where it is, where its output goes, and a failure found before rendering.
struct BatchItem {
    var input: String
    /// The path under its input root ("sub/IMG_0001.JPG"), the original extension kept.
    var relative: String
    var output: String?
    var key: BatchFiles.Key?
    var failure: FileError?
}

/// Finding the photos and mapping them to outputs.
enum BatchFiles {
    typealias Key = FileIdentity

    static func key(_ path: String) -> Key? { FileIdentity(path: path) }

    /// A photo's name: *.jpg, *.jpeg, *.heic, *.heif, any case (HEICs are photos too).
    static func isJPEGName(_ name: String) -> Bool {
        let ext = (name as NSString).pathExtension.lowercased()
        return ext == "jpg" || ext == "jpeg" || ext == "heic" || ext == "heif"
    }

    /// `mkdir -p`, tolerating another worker creating the same folder at the same time.
    static func makeDirectory(_ path: String) throws(FileError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw FileError(path: path, kind: .unwritable, problem: "exists and is not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
            throw FileError(path: path, kind: .unwritable, problem: "cannot create the folder: \(oneLine(error))")
        }
    }

    /// Every photo under `inputs`, each once, in the order given (folders sorted by name), with its
    /// output path under `out`. The `out` folder is never walked.
    static func collect(_ inputs: [String], out: String, format: ImageFormat) -> [BatchItem] {
        let outKey = key(out)
        var items: [BatchItem] = []
        var seen = Set<Key>()
        var visitedDirectories = Set<Key>()

        func add(_ path: String, relative: String, key fileKey: Key) {
            guard seen.insert(fileKey).inserted else { return }   // named twice: rendered once
            items.append(BatchItem(input: path, relative: relative, output: nil, key: fileKey, failure: nil))
        }

        func walk(_ directory: String, relative: String) {
            guard let dirKey = key(directory), dirKey != outKey, visitedDirectories.insert(dirKey).inserted else { return }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            } catch {
                items.append(BatchItem(input: directory, relative: relative, output: nil, key: nil,
                                       failure: FileError(path: directory, kind: .unreadable,
                                                          problem: "cannot read the folder: \(oneLine(error))")))
                return
            }
            for name in names where !name.hasPrefix(".") {
                let path = directory == "/" ? "/" + name : directory + "/" + name
                let rel = relative.isEmpty ? name : relative + "/" + name
                var s = stat()
                guard stat(path, &s) == 0 else { continue }   // a dangling link
                if s.st_mode & S_IFMT == S_IFDIR {
                    walk(path, relative: rel)
                } else if s.st_mode & S_IFMT == S_IFREG, isJPEGName(name) {
                    add(path, relative: rel, key: Key(s))
                }
            }
        }

        for input in inputs {
            var s = stat()
            guard stat(input, &s) == 0 else {
                let why = String(cString: strerror(errno))
                items.append(BatchItem(input: input, relative: "", output: nil, key: nil,
                                       failure: FileError(path: input, kind: .unreadable, problem: "cannot open: \(why)")))
                continue
            }
            if s.st_mode & S_IFMT == S_IFDIR {
                var root = input
                while root.count > 1, root.hasSuffix("/") { root.removeLast() }
                walk(root, relative: "")
            } else {
                add(input, relative: (input as NSString).lastPathComponent,
                    key: Key(s))
            }
        }

        // Outputs: DIR/relative with the format's extension; two photos never share one.
        var outDir = out
        while outDir.count > 1, outDir.hasSuffix("/") { outDir.removeLast() }
        var owners: [String: String] = [:]
        for index in items.indices where items[index].failure == nil {
            let stem = (items[index].relative as NSString).deletingPathExtension
            let output = (outDir == "/" ? "/" : outDir + "/") + stem + "." + format.fileExtension
            items[index].output = output
            if let owner = owners[output] {
                items[index].failure = FileError(path: output, kind: .unwritable,
                                                 problem: "already the output of \(owner); not written twice")
            } else {
                owners[output] = items[index].input
            }
        }
        return items
    }

    static func oneLine(_ error: Any) -> String {
        "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// The render settings shared by every worker, and the per-photo work.
final class BatchJob: Sendable {
    let renderer: Renderer
    let editSource: EditSource
    let planner: RenderPlanner
    let size: SizeRequest
    let format: ImageFormat
    let quality: Int
    let metadata: MetadataOptions
    let xmpDir: String?
    let skipExisting: Bool
    let json: Bool
    /// Set by `run` before the workers start, read by them.
    private let inputKeys = Mutex(Set<BatchFiles.Key>())
    /// Orders the JSON lines on standard output.
    private let outputLock = Mutex(())

    init(renderer: Renderer, editSource: EditSource, planner: RenderPlanner, size: SizeRequest, format: ImageFormat,
         quality: Int, metadata: MetadataOptions, xmpDir: String?, skipExisting: Bool, json: Bool) {
        (self.renderer, self.editSource, self.planner, self.size, self.format) = (renderer, editSource, planner, size, format)
        self.metadata = metadata
        (self.quality, self.xmpDir, self.skipExisting, self.json) = (quality, xmpDir, skipExisting, json)
    }

    /// Renders every item on `workers` threads, each taking the next photo when it is free.
    func run(_ items: [BatchItem], workers: Int, progress: BatchProgress) {
        let keys = Set(items.compactMap(\.key))
        inputKeys.withLock { $0 = keys }
        progress.start()
        let queue = WorkQueue(count: items.count)
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while let index = queue.next() {
                    self.process(items[index], progress: progress)
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }

    /// Hands out the indices 0..<count, each once, to whichever worker asks.
    private final class WorkQueue: Sendable {
        private let position = Atomic(0)
        private let count: Int
        init(count: Int) { self.count = count }
        func next() -> Int? {
            let index = position.wrappingAdd(1, ordering: .relaxed).oldValue
            return index < count ? index : nil
        }
    }

    private struct Result {
        var status = BatchStatus.failed
        var error: FileError?
        var editKind: String?
        var editFile: String?
        var chain: [String] = []
        var size: [Int]?
        var warnings: [String] = []
        var readMs: Double?, renderMs: Double?, writeMs: Double?
    }

    private func process(_ item: BatchItem, progress: BatchProgress) {
        let started = DispatchTime.now()
        var result = Result()
        do {
            try render(item, into: &result)
        } catch {
            result.status = .failed
            result.error = error
        }
        let totalMs = Self.milliseconds(since: started)

        let output = item.output ?? ""
        let line: String
        switch result.status {
        case .ok: line = "ok \(item.input) -> \(output)"
        case .noEdit: line = "no-edit \(item.input) -> \(output)"
        case .skipped: line = "skipped \(item.input) (\(output) exists)"
        case .failed:
            let error = result.error.map { $0.path == item.input ? BatchFiles.oneLine($0.problem) + Diagnostics.hint($0) : BatchFiles.oneLine(Diagnostics.message($0)) }
            line = "error: \(item.input): \(error ?? "failed")"
        }
        progress.finished(result.status, input: item.input, line: line,
                          extra: result.warnings.map { "adjust: " + BatchFiles.oneLine($0) })

        guard json else { return }
        var object: [String: Any] = [
            "input": item.input,
            "output": item.output.map { $0 as Any } ?? NSNull(),
            "status": result.status.rawValue,
            "edit": result.editKind.map { $0 as Any } ?? NSNull(),
            "chain": result.chain,
            "totalMs": totalMs,
        ]
        if let error = result.error { object["error"] = BatchFiles.oneLine(error) }
        if let editFile = result.editFile { object["editFile"] = editFile }
        if let size = result.size { object["size"] = size }
        if !result.warnings.isEmpty { object["warnings"] = result.warnings.map { BatchFiles.oneLine($0) } }
        if let ms = result.readMs { object["readMs"] = ms }
        if let ms = result.renderMs { object["renderMs"] = ms }
        if let ms = result.writeMs { object["writeMs"] = ms }
        emit(object)
    }

    private func render(_ item: BatchItem, into result: inout Result) throws(FileError) {
        if let failure = item.failure { throw failure }
        guard let output = item.output else {
            throw FileError(path: item.input, kind: .unwritable, problem: "no output path")
        }
        if let existing = BatchFiles.key(output) {
            if inputKeys.withLock({ $0.contains(existing) }) || BatchFiles.key(item.input) == existing {
                throw FileError(path: output, kind: .unwritable, problem: "refusing to overwrite an input image")
            }
            if skipExisting { result.status = .skipped; return }
        }
        try BatchFiles.makeDirectory((output as NSString).deletingLastPathComponent)

        var clock = DispatchTime.now()
        let editFile = xmpDir.flatMap { editInXMPDir($0, relative: item.relative) }
        let photo = try PhotoEdit(imagePath: item.input, editPath: editFile, size: size, editSource: editSource,
                                  planner: planner, renderer: renderer)
        result.readMs = Self.milliseconds(since: clock)
        result.chain = photo.edit.chain.steps.map(\.filterName)
        switch photo.edit.origin {
        case .none: result.editKind = "none"
        case .embedded(let path): result.editKind = editFile == nil ? "embedded" : "xmp-dir"; result.editFile = path
        case .sidecar(let path): result.editKind = "sidecar"; result.editFile = path
        case .aae(let path): result.editKind = "aae"; result.editFile = path
        case .xmpFile(let path), .metadataDump(let path): result.editKind = "xmp-dir"; result.editFile = path
        }
        let editLabel = result.editFile ?? item.input
        result.warnings += photo.edit.warnings.map { "warning: \(editLabel): \($0)" }
        result.warnings += photo.plan.warnings.map { "warning: \(item.input): \($0)" }

        clock = DispatchTime.now()
        let rendering = try photo.renderEncoded(format: format, quality: quality)
        result.renderMs = Self.milliseconds(since: clock)
        result.warnings += rendering.warnings.map { "warning: \(item.input): \($0)" }
        if !rendering.approximations.isEmpty {
            result.warnings.append("note: \(item.input): approximate filters used: "
                + rendering.approximations.joined(separator: "; "))
        }

        clock = DispatchTime.now()
        let metadataWarnings = try photo.write(rendering, to: output, metadata: metadata)
        result.warnings += metadataWarnings.map { "warning: \(item.input): \($0)" }
        result.writeMs = Self.milliseconds(since: clock)
        result.size = [rendering.size.width, rendering.size.height]
        result.status = photo.edit.origin == .none ? .noEdit : .ok
    }

    /// XMP-DIR/SUBFOLDER/STEM.xmp, else XMP-DIR/STEM.xmp (either with .XMP).
    private func editInXMPDir(_ directory: String, relative: String) -> String? {
        let stemPath = (relative as NSString).deletingPathExtension
        let stem = (stemPath as NSString).lastPathComponent
        var candidates = [stemPath]
        if stemPath != stem { candidates.append(stem) }
        for candidate in candidates {
            for ext in ["xmp", "XMP"] {
                let path = (directory as NSString).appendingPathComponent(candidate + "." + ext)
                if FileManager.default.fileExists(atPath: path) { return path }
            }
        }
        return nil
    }

    /// One JSON object, one line, on standard output.
    func emit(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        outputLock.withLock { _ in FileHandle.standardOutput.write(data + Data("\n".utf8)) }
    }

    static func milliseconds(since start: DispatchTime) -> Double {
        let nanoseconds = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
        return (Double(nanoseconds) / 100_000).rounded() / 10
    }
}
