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
    /// beside them (taken first, each by one core: `ChunkedRowPipeline`'s sink and decoder tasks).
    static func forEachPart(of rows: Range<Int>, parts: Int, serial: [() -> Void] = [],
                            _ body: (Int, Range<Int>) -> Void) {
        withoutActuallyEscaping(body) { body in
            let shared = HandedOver(body), lead = HandedOver(serial)
            let extra = serial.count
            DispatchQueue.concurrentPerform(iterations: parts + extra) { i in
                if i < extra { lead.value[i](); return }
                let part = i - extra
                shared.value(part, (rows.lowerBound + rows.count * part / parts)..<(rows.lowerBound + rows.count * (part + 1) / parts))
            }
        }
    }
}
