import Foundation

/// Splits a row loop into bands run on every core. Each band writes only its own rows.
enum ParallelRows {
    static func forEach(_ rows: Int, _ body: (Int) -> Void) {
        let bands = min(rows, ProcessInfo.processInfo.activeProcessorCount * 4)
        guard bands > 1 else { (0..<rows).forEach(body); return }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let start = rows * band / bands, end = rows * (band + 1) / bands
            for row in start..<end { body(row) }
        }
    }
}
