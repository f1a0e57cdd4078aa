import AdjustKit
import ArgumentParser
import Foundation

struct FidelityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fidelity",
        abstract: "Compare adjust's renders of modern Photos edits with Apple's own renders.",
        discussion: """
        FOLDERS hold originals, their edits and Apple's renders of them; they are walked \
        recursively (hidden entries skipped). In a folder, IMG_1234.JPG/.JPEG/.HEIC/.HEIF is an \
        original, IMG_1234.AAE (any case; or the capture-time IMG_O1234.AAE) its edit and \
        IMG_E1234.JPG/.JPEG/.HEIC (any case) Apple's render — as an iCloud download, icloudpd \
        --size adjusted or an export of the unmodified original with the edited version gives \
        them. A folder holding Adjustments.plist and FullSizeRender.jpg (the iPhone's \
        Mutations/…/Adjustments folder) with its one original photo copied in is one photo too. \
        A file named directly is taken as an original.

        Each edit is rendered at full size with the default reading of the format's unknowns, \
        and Apple's render (a JPEG turned upright by its EXIF orientation) is compared with it: \
        the sizes, the shift (phase correlation on luma reduced to at most 512 px, sub-pixel; \
        dx, dy in full-size pixels, b(x, y) ≈ a(x − dx, y − dy) with a ours and b Apple's, y \
        down; "peak" near 1 means the shift is trustworthy, near 0 that nothing lines up) and \
        the PSNR. For each unknown the edit touches, the photo is rendered again with each \
        reading, changing only that unknown, and compared the same way; the reading with the \
        highest PSNR is "best". U1: the sign of the straighten angle (a Crop with a \
        straightenAngle); U2: the edge yOrigin is measured from (a Crop that is not vertically \
        centred); U3: perspective (pitch, yaw) has one reading only: "not testable"; U4: the \
        Orientation adjustment replacing or composing with the file's own (the file's \
        orientation is not 1). A reading that renders another size has no PSNR, with a note. \
        Colour approximations lower every reading's PSNR alike; they are listed.

        Photos without Apple's render (no-render), without an edit (no-edit) or an \
        Adjustments.plist without its original (no-original) are reported and skipped.

        Output: a table, or with --json one JSON object per photo, in the order found: \
        {"original", "edit", "appleRender", "status" (ok, no-render, no-edit, no-original, \
        failed), "size" {"ours", "apple" ([w, h]), "match"}, "shift" {"dx", "dy", "peak"}, \
        "psnr" (dB, "inf" when identical, null when the sizes differ), "alternatives" \
        [{"unknown", "alternative", "default", "size", "psnr", "shift", "note"}], "best" \
        {unknown: alternative}, "approximations", "warnings", "note", "error" (failed only: the \
        file at fault and the problem, one line)}, then {"summary": {"photos", "compared", \
        "noRender", "noEdit", "noOriginal", "failed", "jobs", "totalMs"}}. Standard error: one \
        line per failed photo, "adjust: error: FILE: problem", then the summary line.

        Exit status: 0 when every photo with all three files was compared (skipped ones do not \
        count); 65 when any failed (an input that is missing included); 64 bad command line; 66 \
        an --effect-lut table is missing (65 if it is malformed).
        """)

    @Argument(help: ArgumentHelp("Folders (walked recursively) or original photos.", valueName: "FOLDER"))
    var inputs: [String] = []

    @Flag(name: .long, help: "One JSON object per photo on standard output, then a summary object.")
    var json = false

    @Option(name: [.customShort("j"), .customLong("jobs")], help: ArgumentHelp(
        "Photos checked at once (default 1: each render already uses every core).", valueName: "N"))
    var jobs: Int = 1

    @OptionGroup var colour: ColourOptionGroup

    @OptionGroup(title: "Limits") var limits: LimitOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one folder or photo") }
        guard jobs >= 1 else { throw ValidationError("-j/--jobs must be at least 1, got \(jobs)") }
    }

    func run() throws {
        let started = DispatchTime.now()
        let check: FidelityCheck
        do {
            check = FidelityCheck(editSource: limits.editSource, planner: limits.planner,
                                  renderer: Renderer(decoder: limits.decoder, colour: try colour.options()))
        } catch {
            throw Diagnostics.fail(error)
        }
        let cases = FidelityCase.find(in: inputs)
        let workers = max(1, min(jobs, cases.count))
        let output = FidelityOutput(count: cases.count, json: json)
        let queue = WorkQueue(count: cases.count)
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while let index = queue.next() { output.finished(index, check.check(cases[index])) }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()

        let counts = output.counts
        let summary = "adjust: \(cases.count) \(cases.count == 1 ? "photo" : "photos"): \(counts[.compared, default: 0]) compared, "
            + "\(counts[.noRender, default: 0]) without Apple's render, \(counts[.noEdit, default: 0]) without an edit, "
            + "\(counts[.noOriginal, default: 0]) without the original, \(counts[.failed, default: 0]) failed"
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        if json {
            FidelityOutput.emit(["summary": [
                "photos": cases.count, "compared": counts[.compared, default: 0],
                "noRender": counts[.noRender, default: 0], "noEdit": counts[.noEdit, default: 0],
                "noOriginal": counts[.noOriginal, default: 0], "failed": counts[.failed, default: 0],
                "jobs": workers, "totalMs": BatchRunner.milliseconds(since: started),
            ] as [String: Any]])
        }
        if counts[.failed, default: 0] > 0 { throw ExitCode(65) }
    }
}


/// Prints each photo's report in the order the photos were found, as soon as all before it are
/// done, and counts the statuses.
private final class FidelityOutput: Sendable {
    private struct State {
        var reports: [FidelityReport?]
        var nextToPrint = 0
        var counts: [FidelityReport.Status: Int] = [:]
    }
    private let state: Locked<State>
    private let json: Bool

    init(count: Int, json: Bool) {
        state = Locked(State(reports: Array(repeating: nil, count: count)))
        self.json = json
    }

    var counts: [FidelityReport.Status: Int] { state.withLock { $0.counts } }

    func finished(_ index: Int, _ report: FidelityReport) {
        state.withLock { state in
            state.reports[index] = report
            state.counts[report.status, default: 0] += 1
            if let error = report.error {
                FileHandle.standardError.write(Data("adjust: error: \(Self.oneLine(Diagnostics.message(error)))\n".utf8))
            }
            while state.nextToPrint < state.reports.count, let ready = state.reports[state.nextToPrint] {
                if json {
                    Self.emit(Self.jsonObject(ready))
                } else {
                    FileHandle.standardOutput.write(Data((Self.text(ready) + "\n").utf8))
                }
                state.reports[state.nextToPrint] = nil   // printed: its memory can go
                state.nextToPrint += 1
            }
        }
    }

    static func emit(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    static func oneLine(_ text: String) -> String { text.split(whereSeparator: \.isNewline).joined(separator: " ") }

    private static func null(_ value: Any?) -> Any { value ?? NSNull() }

    private static func psnrValue(_ psnr: Double?) -> Any {
        guard let psnr else { return NSNull() }
        return psnr.isInfinite ? "inf" : (psnr * 10_000).rounded() / 10_000
    }

    private static func shiftValue(_ shift: PhaseCorrelation.Shift?) -> Any {
        guard let shift else { return NSNull() }
        func round(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        return ["dx": round(shift.dx), "dy": round(shift.dy), "peak": round(shift.peak)]
    }

    private static func sizeValue(_ size: PixelSize?) -> Any { size.map { [$0.width, $0.height] as Any } ?? NSNull() }

    static func jsonObject(_ report: FidelityReport) -> [String: Any] {
        var best: [String: String] = [:]
        for (unknown, name) in report.best { best[unknown.rawValue] = name }
        var object: [String: Any] = [
            "original": null(report.original), "edit": null(report.edit), "appleRender": null(report.appleRender),
            "status": report.status.rawValue,
            "size": report.ourSize == nil && report.appleSize == nil ? NSNull() as Any : [
                "ours": sizeValue(report.ourSize), "apple": sizeValue(report.appleSize), "match": null(report.sizeMatch),
            ] as [String: Any],
            "shift": shiftValue(report.shift),
            "psnr": psnrValue(report.psnr),
            "alternatives": report.alternatives.map { alternative -> [String: Any] in
                var entry: [String: Any] = [
                    "unknown": alternative.unknown.rawValue, "alternative": alternative.name, "default": alternative.isDefault,
                    "size": sizeValue(alternative.size), "psnr": psnrValue(alternative.psnr),
                    "shift": shiftValue(alternative.shift),
                ]
                if let note = alternative.note { entry["note"] = note }
                return entry
            },
            "best": best,
            "approximations": report.approximations.map(oneLine),
            "warnings": report.warnings.map(oneLine),
        ]
        if let note = report.note { object["note"] = note }
        if let error = report.error { object["error"] = oneLine(Diagnostics.message(error)) }
        return object
    }

    private static func psnrText(_ psnr: Double?) -> String {
        guard let psnr else { return "—" }
        return psnr.isInfinite ? "inf" : String(format: "%.2f dB", psnr)
    }

    private static func shiftText(_ shift: PhaseCorrelation.Shift?) -> String {
        guard let shift else { return "—" }
        return String(format: "%+.2f, %+.2f px (peak %.2f)", shift.dx, shift.dy, shift.peak)
    }

    /// A few aligned lines: the photo, then one line per reading of each unknown tested.
    static func text(_ report: FidelityReport) -> String {
        let name = report.original ?? report.edit ?? "?"
        guard report.status == .compared else {
            let why = report.error.map { ": " + oneLine(Diagnostics.message($0)) } ?? report.note.map { ": " + $0 } ?? ""
            return "\(name)  \(report.status.rawValue)\(why)"
        }
        let size = report.sizeMatch == true ? "\(report.ourSize!) = Apple's"
            : "\(report.ourSize.map(\.description) ?? "?") ≠ Apple's \(report.appleSize.map(\.description) ?? "?")"
        var lines = ["\(name)  ok  size \(size)  shift \(shiftText(report.shift))  PSNR \(psnrText(report.psnr))"]
        let best = Dictionary(report.best.map { ($0.unknown, $0.name) }, uniquingKeysWith: { a, _ in a })
        let width = report.alternatives.map { $0.name.count + ($0.isDefault ? 10 : 0) }.max() ?? 0
        for alternative in report.alternatives {
            let label = alternative.name + (alternative.isDefault ? " (default)" : "")
            var line = "    \(alternative.unknown.rawValue) " + label.padding(toLength: width, withPad: " ", startingAt: 0)
            if alternative.psnr != nil || alternative.shift != nil {
                line += "  PSNR \(psnrText(alternative.psnr))  shift \(shiftText(alternative.shift))"
            }
            if let note = alternative.note { line += "  \(note)" }
            if best[alternative.unknown] == alternative.name { line += "  <- best" }
            lines.append(line)
        }
        if !report.approximations.isEmpty {
            lines.append("    approximate: " + report.approximations.map(oneLine).joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }
}
