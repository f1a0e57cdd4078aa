import AdjustKit
import Foundation

/// What `adjust batch` says on standard error while it works, and the counts it keeps.
///
/// On a terminal (`isatty(2)`) a single line is redrawn in place with `\r`:
/// `[#####.....] 12/40  ok 10  failed 1  IMG_0042.JPG`; errors and warnings are printed above it,
/// and `finish()` ends it with a newline. Elsewhere (a pipe, a file) every finished photo is one
/// plain line: `adjust: ok IN -> OUT`, `adjust: no-edit IN -> OUT`, `adjust: skipped IN (OUT exists)`
/// or `adjust: error: IN: problem`.
///
/// Every method may be called from any worker thread: one mutex guards the counts and orders the
/// writes.
final class BatchProgress: Sendable {
    struct Counts: Equatable {
        var ok = 0, noEdit = 0, skipped = 0, current = 0, failed = 0
        var done: Int { ok + noEdit + skipped + current + failed }
    }

    let total: Int
    let interactive: Bool
    /// `--quiet`: only failures, warnings and the summary; no bar, no per-photo line, no note.
    let quiet: Bool
    /// What the bar shows; its lock is held while writing, so lines never interleave.
    private struct State {
        var counts = Counts()
        var lastName = ""
        var barShown = false
        /// When the first photo was handed out, for the rate and the time left.
        var started: DispatchTime?
    }
    private let state = Locked(State())
    private static let barWidth = 20

    init(total: Int, interactive: Bool = isatty(2) == 1, quiet: Bool = false) {
        self.total = total
        self.interactive = interactive && !quiet
        self.quiet = quiet
    }

    /// Whether a full line (`adjust: note: …`) is said under `--quiet`.
    private func saysUnderQuiet(_ line: String) -> Bool { !line.hasPrefix("adjust: note:") }

    var snapshot: Counts { state.withLock { $0.counts } }

    /// Draws the empty bar (terminal only), so a long first render is not a silent one.
    func start() {
        state.withLock { $0.started = .now() }
        guard interactive, total > 0 else { return }
        state.withLock { redraw(&$0) }
    }

    /// Records one finished photo and shows it. `line` is the plain-mode line (without `adjust: `);
    /// `extra` are warnings and notes, each a full line shown in both modes.
    func finished(_ status: BatchStatus, input: String, line: String, extra: [String] = []) {
        state.withLock { state in
            switch status {
            case .ok: state.counts.ok += 1
            case .noEdit: state.counts.noEdit += 1
            case .skipped: state.counts.skipped += 1
            case .current: state.counts.current += 1
            case .failed: state.counts.failed += 1
            case .orphaned, .pruned, .missing: break   // no input file: not among the files counted
            }
            state.lastName = URL(fileURLWithPath: input).lastPathComponent
            if quiet {
                let lines = (status == .failed ? ["adjust: \(line)"] : []) + extra.filter(saysUnderQuiet)
                if !lines.isEmpty { write(lines.map { $0 + "\n" }.joined()) }
            } else if interactive {
                // Only failures and warnings leave a line on a terminal; the bar says the rest.
                var lines = extra
                if status == .failed { lines.insert("adjust: \(line)", at: 0) }
                if !lines.isEmpty { clearBar(&state); write(lines.map { $0 + "\n" }.joined()) }
                redraw(&state)
            } else {
                write((["adjust: \(line)"] + extra).map { $0 + "\n" }.joined())
            }
        }
    }

    /// A message not tied to a finished photo (printed above the bar on a terminal).
    func message(_ text: String) {
        if quiet, !saysUnderQuiet(text) { return }
        state.withLock { state in
            if interactive {
                clearBar(&state); write(text + "\n"); if state.barShown { redraw(&state) }
            } else {
                write(text + "\n")
            }
        }
    }

    /// Ends the bar's line (terminal only).
    func finish() {
        state.withLock { state in
            if interactive, state.barShown { write("\n"); state.barShown = false }
        }
    }

    /// The bar's text for the current counts (no control characters); with `elapsed` seconds the
    /// rate ("3.2/s") and the time left at that rate ("ETA 1:05").
    static func barLine(_ counts: Counts, total: Int, name: String, columns: Int, elapsed: Double? = nil) -> String {
        let width = min(barWidth, max(5, (columns - 40) / 2))   // a narrow terminal gets a shorter bar
        let filled = total == 0 ? width : min(width, counts.done * width / total)
        var line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        line += " \(counts.done)/\(total)  ok \(counts.ok)"
        if counts.noEdit > 0 { line += "  no-edit \(counts.noEdit)" }
        if counts.skipped > 0 { line += "  skipped \(counts.skipped)" }
        if counts.current > 0 { line += "  current \(counts.current)" }
        line += "  failed \(counts.failed)"
        if let elapsed, elapsed > 0, counts.done > 0 {
            let rate = Double(counts.done) / elapsed
            let left = Int((Double(total - counts.done) / rate).rounded())
            line += String(format: "  %.1f/s  ETA %d:%02d", rate, left / 60, left % 60)
        }
        if !name.isEmpty { line += "  " + name }
        // Never wrap: a wrapped line cannot be redrawn with \r.
        let limit = max(columns - 1, 10)
        return line.count > limit ? String(line.prefix(limit)) : line
    }

    private func redraw(_ state: inout State) {
        let elapsed = state.started.map { Double(DispatchTime.now().uptimeNanoseconds - $0.uptimeNanoseconds) / 1e9 }
        write("\r" + Self.barLine(state.counts, total: total, name: state.lastName, columns: Self.columns(), elapsed: elapsed)
              + "\u{1B}[K")
        state.barShown = true
    }

    private func clearBar(_ state: inout State) {
        if state.barShown { write("\r\u{1B}[K") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func columns() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let env = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(env), n > 0 { return n }
        return 80
    }
}

