import AdjustKit
import ArgumentParser
import Foundation

struct FidelityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fidelity",
        abstract: "Compare adjust's renders of modern Photos edits with Apple's own renders.",
        discussion: """
        FOLDERS hold originals, their edits and Apple's renders of them; they are walked \
        recursively (hidden entries skipped). Every layout users have is recognised \
        (docs/spec/aae-format.md §1): a macOS Photos 5+ library (X.photoslibrary: \
        originals/H/UUID.ext, its edit resources/renders/H/UUID.plist, Apple's render \
        resources/renders/H/UUID_1_201_a.jpeg; other files there are derivatives); an iPhone file \
        system or extracted backup (Media/DCIM/1xxAPPLE/IMG_n.EXT, with \
        Media/PhotoData/Mutations/DCIM/1xxAPPLE/IMG_n/Adjustments/Adjustments.plist and \
        FullSizeRender.jpg or .heic); a DCIM copy, export or iCloud download (IMG_1234.JPG/.JPEG/\
        .HEIC/.HEIF, its edit IMG_1234.AAE, any case, or the capture-time IMG_O1234.AAE, and \
        Apple's render IMG_E1234.JPG/.JPEG/.HEIC, any case); a Mutations/…/Adjustments folder with \
        its one original copied in. A file named directly is taken as an original and paired by \
        where it lies. Photos.sqlite is not read.

        Every image is converted to 8-bit sRGB with Little CMS from its embedded ICC profile \
        before it is compared (Apple's renders are Display P3; adjust's render carries the \
        original's profile; an untagged image is sRGB). Each edit is rendered at full size with \
        the default reading of the format's unknowns (unsupported adjustments left out and listed \
        as not replayed), and compared with Apple's render, turned upright (a JPEG by its EXIF \
        orientation, a HEIC by irot/imir): the sizes, the shift (phase correlation on luma \
        reduced to at most 512 px, sub-pixel; dx, dy in full-size pixels, b(x, y) ≈ a(x − dx, \
        y − dy) with a ours and b Apple's, y down; "peak" near 1 means the shift is trustworthy), \
        the PSNR, and NCC, the grey normalized cross-correlation of the two renders (1 = the \
        same picture up to brightness and contrast; ≥ 0.999 when the geometry matches). The \
        photo is also rendered with the edit's geometry only (crop, straighten, orientation; no \
        colour step) — the unedited photo, the same size — and its PSNR to Apple's render is \
        "unedited"; "gain" is PSNR − unedited: what adjust's colour steps gain over leaving the \
        colours alone. For each unknown the edit touches, the photo is rendered again with each \
        reading, changing only that unknown; the reading with the highest PSNR is "best". U1: \
        the sign of the straighten angle; U2: the edge yOrigin is measured from; U3: perspective \
        (one reading only: "not testable"); U4: the Orientation adjustment replacing or \
        composing with the file's own. A reading that renders another size has no PSNR.

        Photos without Apple's render (no-render), without an edit (no-edit), an edit without its \
        original (no-original) or another app's edit that only Apple's render holds \
        (other-format, e.g. com.apple.Photos.externalEdit) are reported and skipped.

        A compared photo whose gain is negative has the status "worse" instead of "ok": adjust's \
        colour steps took it further from Apple's render than leaving the colours alone.

        Output: per photo a line (then its adjustments, unknowns, what was not replayed and what \
        is approximate), then "summary" with the photos compared, how many are worse, mean PSNR, \
        mean unedited PSNR, mean gain and minimum NCC (means over compared photos with a finite \
        figure). With --json \
        one JSON object per photo, in the order found: {"original", "name" (a library photo's original file name), "edit", "appleRender", \
        "layout" (photos-library, iphone, adjustments-folder, sidecar), "status" (ok, worse, \
        no-render, no-edit, no-original, other-format, failed), "adjustments" [identifiers, and \
        "metadata.orientation N"], "notReplayed" [...], "size" {"ours", "apple" ([w, h]), \
        "match"}, "shift" {"dx", "dy", "peak"}, "psnr" (dB, "inf" when identical, null when the \
        sizes differ), "uneditedPSNR", "uneditedSize", "gain" (dB), "ncc", "colour" {"ours", \
        "apple"} (the profiles converted from), "alternatives" [{"unknown", "alternative", \
        "default", "size", "psnr", "shift", "note"}], "best" {unknown: alternative}, \
        "approximations", "warnings", "note", "error" (failed only: the file at fault and the \
        problem, one line)}, then {"summary": {"photos", "compared" (ok and worse), "worse", \
        "noRender", "noEdit", "noOriginal", "otherFormat", "failed", "meanPSNR", "meanUneditedPSNR", "meanGain", \
        "minNCC", "html", "jobs", "totalMs"}}. Standard error: one line per failed photo, \
        "adjust: error: FILE: problem", then the count line.

        --html FILE writes one self-contained page (images as data: URIs): the summary, then per \
        photo adjust's render beside Apple's and a difference map (|adjust − Apple| per channel \
        in sRGB, amplified ×4), thumbnails at most 512 px, and the figures. It is written whole \
        or not at all (a temporary file renamed into place).

        Exit status: 0 when every photo with all three files was compared (skipped ones do not \
        count); 65 when any failed (an input that is missing included), and with --strict also \
        when any photo is worse; 64 bad command line; 66 \
        an --effect-lut table is missing (65 if it is malformed); 73 the --html page cannot be \
        written (its folder is checked before any photo is rendered).

        EXAMPLES:
          adjust fidelity ~/Pictures/export                  (IMG_1234.HEIC + .AAE + IMG_E1234.JPG)
          adjust fidelity "Photos Library.photoslibrary" --html fidelity.html
          adjust fidelity Fixtures/apple-renders --json
        """)

    @Argument(help: ArgumentHelp("Folders (walked recursively) or original photos.", valueName: "FOLDER"))
    var inputs: [String] = []

    @Flag(name: .long, help: "One JSON object per photo on standard output, then a summary object.")
    var json = false

    @Option(name: .long, help: ArgumentHelp(
        "Also write a self-contained HTML report: renders side by side with difference maps, and the figures.",
        valueName: "FILE"))
    var html: String?

    @Option(name: [.customShort("j"), .customLong("jobs")], help: ArgumentHelp(
        "Photos checked at once (default 1: each render already uses every core).", valueName: "N"))
    var jobs: Int = 1

    @OptionGroup var colour: ColourOptionGroup


    // Last and untitled: help lists the options a user reaches for first, then the limits
    // (swift-argument-parser shows every titled group before the untitled options).
    @OptionGroup var limits: LimitOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one folder or photo") }
        guard jobs >= 1 else { throw ValidationError("-j/--jobs must be at least 1, got \(jobs)") }
    }

    func run() throws {
        let started = DispatchTime.now()
        MallocPolicy.returnLargeBlocksWhenFreed()
        if let html { try Self.checkWritable(html) }
        let check: FidelityCheck
        do {
            check = FidelityCheck(editSource: limits.editSource, planner: limits.planner,
                                  renderer: Renderer(decoder: limits.decoder, colour: try colour.options()),
                                  thumbnailSide: html == nil ? nil : FidelityPage.thumbnailSide,
                                  differenceGain: FidelityPage.differenceGain)
        } catch {
            throw Diagnostics.fail(error)
        }
        let photos = PhotoDiscovery.find(in: inputs)
        let workers = max(1, min(jobs, photos.count))
        let output = FidelityOutput(count: photos.count, json: json)
        let queue = WorkQueue(count: photos.count)
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while let index = queue.next() { output.finished(index, check.check(photos[index])) }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()

        let reports = output.reports
        let summary = FidelitySummary(reports)
        var counts: [FidelityReport.Status: Int] = [:]
        for report in reports { counts[report.status, default: 0] += 1 }
        let countLine = "adjust: \(photos.count) \(photos.count == 1 ? "photo" : "photos"): \(counts[.compared, default: 0]) compared, "
            + "\(counts[.noRender, default: 0]) without Apple's render, \(counts[.noEdit, default: 0]) without an edit, "
            + "\(counts[.noOriginal, default: 0]) without the original, \(counts[.otherFormat, default: 0]) in another format, "
            + "\(counts[.failed, default: 0]) failed"
        var htmlFailure: ExitCode?
        if let html {
            let page = FidelityPage.html(reports: reports, summary: summary, command: CommandLine.arguments)
            do { try AtomicFileWriter.write(Array(page.utf8), to: html) } catch {
                htmlFailure = Diagnostics.fail(FileError(path: html, kind: .unwritable, error))
            }
        }
        FileHandle.standardError.write(Data((countLine + "\n").utf8))
        if json {
            var object: [String: Any] = [
                "photos": photos.count, "compared": counts[.compared, default: 0], "worse": summary.worse,
                "noRender": counts[.noRender, default: 0], "noEdit": counts[.noEdit, default: 0],
                "noOriginal": counts[.noOriginal, default: 0], "otherFormat": counts[.otherFormat, default: 0],
                "failed": counts[.failed, default: 0],
                "meanPSNR": FidelityOutput.decibels(summary.meanPSNR), "meanUneditedPSNR": FidelityOutput.decibels(summary.meanUneditedPSNR),
                "meanGain": FidelityOutput.decibels(summary.meanGain), "minNCC": FidelityOutput.correlation(summary.minNCC),
                "jobs": workers, "totalMs": BatchRunner.milliseconds(since: started),
            ]
            object["html"] = html.map { $0 as Any } ?? NSNull()
            FidelityOutput.emit(["summary": object])
        } else {
            FileHandle.standardOutput.write(Data((FidelityOutput.summaryText(summary) + "\n").utf8))
        }
        if let htmlFailure { throw htmlFailure }
        if counts[.failed, default: 0] > 0 { throw ExitCode(65) }
        // The colour group's --strict: here, where what cannot be replayed is always left out, it
        // makes a photo worse than unedited a failure.
        if colour.strict, summary.worse > 0 { throw ExitCode(65) }
    }

    /// Fails with exit 73 before any work when the page's folder is missing or not writable, or
    /// the name is a folder.
    private static func checkWritable(_ path: String) throws {
        let folder = LayoutPath.folder(of: path)
        var isDirectory: ObjCBool = false
        let problem: String?
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            problem = "is a folder"
        } else if !LayoutPath.isFolder(folder) {
            problem = "its folder does not exist"
        } else if !FileManager.default.isWritableFile(atPath: LayoutPath.forSystem(folder)) {
            problem = "its folder is not writable"
        } else {
            problem = nil
        }
        if let problem { throw Diagnostics.fail(FileError(path: path, kind: .unwritable, problem: problem)) }
    }
}


/// Prints each photo's report in the order the photos were found, as soon as all before it are
/// done, and keeps them for the summary and the page.
private final class FidelityOutput: Sendable {
    private struct State {
        var reports: [FidelityReport?]
        var nextToPrint = 0
    }
    private let state: Locked<State>
    private let json: Bool

    init(count: Int, json: Bool) {
        state = Locked(State(reports: Array(repeating: nil, count: count)))
        self.json = json
    }

    /// Every report, in the order found (call once all are finished).
    var reports: [FidelityReport] { state.withLock { $0.reports.compactMap { $0 } } }

    func finished(_ index: Int, _ report: FidelityReport) {
        state.withLock { state in
            state.reports[index] = report
            if let error = report.error {
                FileHandle.standardError.write(Data("adjust: error: \(Self.oneLine(Diagnostics.message(error)))\n".utf8))
            }
            while state.nextToPrint < state.reports.count, let ready = state.reports[state.nextToPrint] {
                if json {
                    Self.emit(Self.jsonObject(ready))
                } else {
                    FileHandle.standardOutput.write(Data((Self.text(ready) + "\n").utf8))
                }
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

    /// dB to 4 decimals, "inf" for +infinity, null for nil.
    static func decibels(_ psnr: Double?) -> Any {
        guard let psnr else { return NSNull() }
        return psnr.isInfinite ? "inf" : (psnr * 10_000).rounded() / 10_000
    }

    /// To 6 decimals (NCC), null for nil.
    static func correlation(_ value: Double?) -> Any {
        guard let value else { return NSNull() }
        return (value * 1_000_000).rounded() / 1_000_000
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
            "original": null(report.original), "name": null(report.name), "edit": null(report.edit), "appleRender": null(report.appleRender),
            "layout": report.layout.rawValue,
            "status": report.statusName,
            "adjustments": report.adjustments,
            "notReplayed": report.notReplayed.map(oneLine),
            "size": report.ourSize == nil && report.appleSize == nil ? NSNull() as Any : [
                "ours": sizeValue(report.ourSize), "apple": sizeValue(report.appleSize), "match": null(report.sizeMatch),
            ] as [String: Any],
            "shift": shiftValue(report.shift),
            "psnr": decibels(report.psnr),
            "uneditedPSNR": decibels(report.uneditedPSNR),
            "uneditedSize": sizeValue(report.uneditedSize),
            "gain": decibels(report.gain),
            "ncc": correlation(report.ncc),
            "colour": report.ourColour == nil && report.appleColour == nil ? NSNull() as Any : [
                "ours": null(report.ourColour), "apple": null(report.appleColour),
            ] as [String: Any],
            "alternatives": report.alternatives.map { alternative -> [String: Any] in
                var entry: [String: Any] = [
                    "unknown": alternative.unknown.rawValue, "alternative": alternative.name, "default": alternative.isDefault,
                    "size": sizeValue(alternative.size), "psnr": decibels(alternative.psnr),
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

    static func psnrText(_ psnr: Double?) -> String {
        guard let psnr else { return "—" }
        return psnr.isInfinite ? "inf" : String(format: "%.2f dB", psnr)
    }

    static func gainText(_ gain: Double?) -> String {
        guard let gain else { return "—" }
        return String(format: "%+.2f dB", gain)
    }

    static func nccText(_ ncc: Double?) -> String { ncc.map { String(format: "%.4f", $0) } ?? "—" }

    private static func shiftText(_ shift: PhaseCorrelation.Shift?) -> String {
        guard let shift else { return "—" }
        return String(format: "%+.2f, %+.2f px (peak %.2f)", shift.dx, shift.dy, shift.peak)
    }

    /// The last line of the text output.
    static func summaryText(_ summary: FidelitySummary) -> String {
        "summary  \(summary.compared) compared  \(summary.worse) worse  mean PSNR \(psnrText(summary.meanPSNR))  "
            + "mean unedited \(psnrText(summary.meanUneditedPSNR))  mean gain \(gainText(summary.meanGain))  "
            + "min NCC \(nccText(summary.minNCC))"
    }

    /// A few aligned lines: the photo and its figures; what the edit holds; one line per reading
    /// of each unknown tested; what was not replayed or is approximate.
    static func text(_ report: FidelityReport) -> String {
        // The user's name for a library's photo (its path is in the JSON), else the path.
        let name = report.name ?? report.original ?? report.edit ?? "?"
        guard report.status == .compared else {
            let why = report.error.map { ": " + oneLine(Diagnostics.message($0)) } ?? report.note.map { ": " + $0 } ?? ""
            return "\(name)  \(report.status.rawValue)\(why)"
        }
        let size = report.sizeMatch == true ? "\(report.ourSize!) = Apple's"
            : "\(report.ourSize.map(\.description) ?? "?") ≠ Apple's \(report.appleSize.map(\.description) ?? "?")"
        var lines = ["\(name)  \(report.statusName)  size \(size)  shift \(shiftText(report.shift))  PSNR \(psnrText(report.psnr))  "
                     + "unedited \(psnrText(report.uneditedPSNR))  gain \(gainText(report.gain))  NCC \(nccText(report.ncc))"]
        lines.append("    \(report.layout.rawValue)  adjustments: \(report.adjustments.isEmpty ? "none" : report.adjustments.joined(separator: ", "))"
                     + "  colour: ours \(report.ourColour ?? "?"), Apple's \(report.appleColour ?? "?")")
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
        if !report.notReplayed.isEmpty {
            lines.append("    not replayed: " + report.notReplayed.map(oneLine).joined(separator: "; "))
        }
        if !report.approximations.isEmpty {
            lines.append("    approximate: " + report.approximations.map(oneLine).joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }
}
