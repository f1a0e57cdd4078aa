import Foundation

/// Makes output rows in chunks on every core and hands them, in order, to a sink (the JPEG
/// encoder, say): the sink takes chunk k − 1's rows as one task among chunk k's parts, so that
/// encoding overlaps computing. Two chunk buffers alternate between the two.
///
/// `prepare(rows)` runs first for each chunk on the calling thread (making sure of the source rows
/// the chunk needs); `compute(part, rows, buffer)` then runs on the cores for each contiguous part
/// of the chunk, writing row j at `buffer + (j − rows.lowerBound) · rowBytes` (`part` tells
/// the parts apart, for per-part scratch); `finished(rows)` runs after. `ahead(next)`, if given,
/// is one more task among the parts of every chunk but the last: work the next chunk's rows
/// `next` need (decoding their source rows, `PulledDecode`). A failure of the sink or of `ahead` is
/// thrown once the chunk's parts are done.
///
/// Why tasks among the parts, not threads of their own: on two cores a sink or decoder thread
/// slept between chunks and was woken on the core that woke it, behind the waker, while the other
/// core idled (a third of a core in every chunk, `perf sched`; docs/benchmark.md, twelfth part).
struct ChunkedRowPipeline {
    /// The cores.
    static let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// How many parts a chunk is split into by default: four per core, taken by the cores as they
    /// come free, so that a core the sink's or the decoder's task holds for a while leaves its
    /// share to the others instead of holding up the chunk's end (straighten and SmartTone 5 %
    /// faster than one part per core, measured with scripts/bench; sixteen per core, with the
    /// tasks, were no faster: docs/benchmark.md, twelfth part). Their sizes fall from the first to
    /// the last, so that the cores run out of parts at nearly the same time (`ParallelRows.bounds`).
    static let parts = workers * 4
    var rows: Int
    var rowBytes: Int
    var chunkRows: Int
    /// Parts per chunk: `parts`, or one per core where a row is cheap (a pixel copy) or a part's
    /// rows share work (the `--max-size` shrink samples the grid rows at a part's edges for both
    /// parts: four parts per core made a HEIC preview 4 % slower).
    var partCount = Self.parts
    /// Memory the caller's steps will write from the first chunks on (the ring of decoded source
    /// rows): mapped, after the chunk buffers, by an idle worker while the first chunk is prepared
    /// (`PageWarming`).
    var warming: [UnsafeMutableRawBufferPointer] = []

    func run(prepare: (Range<Int>) throws -> Void,
             compute: (Int, Range<Int>, UnsafeMutablePointer<UInt8>) -> Void,
             finished: (Range<Int>) -> Void,
             ahead: ((Range<Int>) throws -> Void)? = nil,
             sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws {
        RowWorkers.shared.start()
        let chunkBytes = chunkRows * rowBytes
        let buffers = [UnsafeMutablePointer<UInt8>.allocate(capacity: chunkBytes),
                       UnsafeMutablePointer<UInt8>.allocate(capacity: chunkBytes)]
        defer { buffers.forEach { $0.deallocate() } }
        // The first chunk's `prepare` (decoding the rows above its taps) runs on this thread
        // alone: the pages the chunks and its rows will write are mapped meanwhile on another
        // core. Withdrawn once the first chunk is made, and before the buffers go.
        let pages = HandedOver(buffers.map { UnsafeMutableRawBufferPointer(start: $0, count: chunkBytes) } + warming)
        var warmer: RowWorkers.Offer? = RowWorkers.shared.offer { PageWarming.populate(pages.value) }
        defer { warmer?.withdraw() }
        let rowBytes = self.rowBytes
        func drain(_ rows: Range<Int>, from buffer: UnsafeMutablePointer<UInt8>) throws {
            for j in rows { try sink(j, buffer + (j - rows.lowerBound) * rowBytes) }
        }
        let failure = Locked<(any Error)?>(nil)
        // The chunk made last, whose rows the sink takes during the next chunk's parts.
        var made: (rows: Range<Int>, buffer: UnsafeMutablePointer<UInt8>)?
        var chunkIndex = 0
        func rowsOfChunk(at start: Int) -> Range<Int> { start..<min(rows, start + chunkRows) }
        for start in stride(from: 0, to: rows, by: chunkRows) {
            let chunk = rowsOfChunk(at: start)
            try prepare(chunk)
            let buffer = buffers[chunkIndex % 2]
            let parts = min(partCount, chunk.count)
            var serial: [() -> Void] = []
            if let previous = made {
                serial.append { do { try drain(previous.rows, from: previous.buffer) } catch { failure.withLock { $0 = $0 ?? error } } }
            }
            if let ahead, chunk.upperBound < rows {
                let next = rowsOfChunk(at: chunk.upperBound)
                serial.append { do { try ahead(next) } catch { failure.withLock { $0 = $0 ?? error } } }
            }
            ParallelRows.forEachPart(of: chunk, parts: parts, serial: serial) { part, rows in
                compute(part, rows, buffer + (rows.lowerBound - chunk.lowerBound) * rowBytes)
            }
            if let error = failure.withLock({ $0 }) { throw error }
            finished(chunk)
            warmer?.withdraw()
            warmer = nil
            made = (chunk, buffer)
            chunkIndex += 1
        }
        if let made { try drain(made.rows, from: made.buffer) }
    }
}
