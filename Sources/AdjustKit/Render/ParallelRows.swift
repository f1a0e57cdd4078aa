import Foundation

/// Splits a row loop into bands run on every core. Each band writes only its own rows.
enum ParallelRows {
    static func forEach(_ rows: Int, _ body: (Int) -> Void) {
        let bands = min(rows, ProcessInfo.processInfo.activeProcessorCount * 4)
        guard bands > 1 else { (0..<rows).forEach(body); return }
        forEachPart(of: 0..<rows, parts: bands) { _, band in
            for row in band { body(row) }
        }
    }

    /// Runs `body` concurrently on `parts` contiguous, near-equal parts of `rows`, with each
    /// part's index (for per-part scratch such as a colour memo).
    static func forEachPart(of rows: Range<Int>, parts: Int, _ body: (Int, Range<Int>) -> Void) {
        withoutActuallyEscaping(body) { body in
            let shared = PartBody(run: body)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                shared.run(part, (rows.lowerBound + rows.count * part / parts)..<(rows.lowerBound + rows.count * (part + 1) / parts))
            }
        }
    }
}

/// `forEachPart`'s body, handed to the worker threads. Unchecked because the row loops capture
/// raw pointers into image memory (source rows, output buffers, memo cells), which Swift cannot
/// prove safe to share. What guards it: every part reads shared, unchanging inputs and writes
/// only its own rows (or per-part scratch picked by the part index), and `concurrentPerform` is
/// synchronous, so the owner keeps that memory alive until every part has returned. Why not a
/// checked wrapper at each call site: these are the per-pixel loops of every render; raw
/// pointers there avoid an array's bounds checks and retains that show in the profiles.
private struct PartBody: @unchecked Sendable {
    let run: (Int, Range<Int>) -> Void
}
