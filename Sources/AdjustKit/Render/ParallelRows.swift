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
    /// part's index (for per-part scratch such as a colour memo), and each of `serial` once
    /// beside them (taken first, each by one core: `ChunkedRowPipeline`'s sink and decoder tasks),
    /// on `RowWorkers`' threads and the caller's.
    static func forEachPart(of rows: Range<Int>, parts: Int, serial: [() -> Void] = [],
                            _ body: (Int, Range<Int>) -> Void) {
        withoutActuallyEscaping(body) { body in
            let shared = HandedOver(body), lead = HandedOver(serial)
            let extra = serial.count
            RowWorkers.shared.run(iterations: parts + extra) { i in
                if i < extra { lead.value[i](); return }
                let part = i - extra
                shared.value(part, bounds(of: part, parts: parts, in: rows))
            }
        }
    }

    /// Part `part` of `parts` of `rows`, in order. With more parts than cores, each part gets a row
    /// and the rest falls to them by weights parts, parts − 1, …, 1: the cores take the parts in
    /// order, so the last ones taken are the smallest and the cores run out of work at nearly the
    /// same time. Equal parts left one core idle for half a part at the end of every chunk, then
    /// woke it for the next (a Tone + Color + B&W JPEG: one core idle 16 ms of 134, `perf
    /// sched`; 0.96 of its wall time with these parts, docs/benchmark.md, twentieth part).
    static func bounds(of part: Int, parts: Int, in rows: Range<Int>) -> Range<Int> {
        guard parts > ChunkedRowPipeline.workers, rows.count >= parts else {
            return (rows.lowerBound + rows.count * part / parts)..<(rows.lowerBound + rows.count * (part + 1) / parts)
        }
        // Part i's size: 1 + ⌊rest·wᵢ/W⌋, the rounding's remainder a row each to the first parts
        // (the sizes then never grow along the parts).
        let (rest, weights) = (rows.count - parts, parts * (parts + 1) / 2)
        func share(_ i: Int) -> Int { rest * (parts - i) / weights }
        let remainder = rest - (0..<parts).reduce(0) { $0 + share($1) }
        func size(_ i: Int) -> Int { 1 + share(i) + (i < remainder ? 1 : 0) }
        let start = rows.lowerBound + (0..<part).reduce(0) { $0 + size($1) }
        return start..<(start + size(part))
    }
}
