import Foundation

/// The decoder run in steps by the render's own threads rather than on a thread of its own: the
/// rows a reader of the window waits for are decoded there and then (the window's `producer`),
/// and the next chunk's rows beside the current chunk's parts (`ChunkedRowPipeline.run`'s
/// `ahead`).
///
/// Why not a decoder thread: on two cores the thread slept until the reader released rows, and
/// the kernel woke it on the releasing core, behind the thread that had just released them, while
/// the other core sat idle (`perf sched`: a third of one core idle in every chunk of a Tone +
/// Color + B&W JPEG, docs/benchmark.md). Decoding as a task among the chunk's parts keeps both
/// cores on work without a wake-up.
final class PulledDecode {
    /// Rows decoded per call at most: libjpeg makes 8 or 16 at a time anyway (an iMCU row).
    private static let rowsPerRead = 8
    private let reader: any DecodedRowSource
    private let window: SourceRowWindow<UInt8>
    /// Serialises the steps: the reader is used by one thread at a time (a reader's wait in a
    /// chunk's `prepare`, the chunk's `ahead`).
    private let lock = NSLock()
    private var next: Int
    private var failure: Error?

    /// Decodes `reader`'s rows into `window` whenever a reader of the window waits for rows.
    init(reader: any DecodedRowSource, window: SourceRowWindow<UInt8>) {
        (self.reader, self.window, next) = (reader, window, window.top)
        window.producer = { [unowned self] v in try self.decode(through: v, all: true) }
    }

    /// Decodes the rows through v (clamped to the region) that the ring has room for now, without
    /// waiting for a release; with `all`, every one of them (the ring is sized for what a chunk
    /// waits for: running out of room is a sizing bug, not a property of the photo).
    func decode(through v: Int, all: Bool = false) throws {
        lock.lock(); defer { lock.unlock() }
        if let failure { throw failure }
        let wanted = min(v, window.bottom - 1), last = min(wanted, window.lastRowWithRoom())
        precondition(!all || last == wanted, "the decoded-row ring has no room for the rows a chunk needs")
        do {
            while next <= last {
                let count = min(window.contiguousRoom(from: next, limit: Self.rowsPerRead), last - next + 1)
                try reader.readRows(into: window.row(next), stride: window.rowStride, count: count)
                window.finishRows(through: next + count - 1)
                next += count
            }
        } catch {
            failure = error
            window.fail(error)
            throw error
        }
    }
}
