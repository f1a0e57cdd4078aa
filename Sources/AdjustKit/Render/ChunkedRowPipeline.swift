import Foundation

/// Makes output rows in chunks on every core and hands them, in order, to a sink that runs on a
/// thread of its own (the JPEG encoder, say), so that encoding chunk k overlaps computing chunk
/// k + 1. Two chunk buffers alternate between the two sides.
///
/// `prepare(rows)` runs first for each chunk on the calling thread (waiting for the source rows
/// the chunk needs); `compute(part, rows, buffer)` then runs on the cores for each contiguous part
/// of the chunk, writing row j at `buffer + (j − rows.lowerBound) · rowBytes` (`part` tells
/// the parts apart, for per-part scratch); `finished(rows)` runs after.
struct ChunkedRowPipeline {
    /// The cores.
    static let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// How many parts a chunk is split into by default: four per core, taken by the cores as they
    /// come free, so that a core the decoder or the sink thread holds for a while leaves its share
    /// to the others instead of holding up the chunk's end (straighten and SmartTone 5 % faster
    /// than one part per core, measured with scripts/bench).
    static let parts = workers * 4
    var rows: Int
    var rowBytes: Int
    var chunkRows: Int
    /// Parts per chunk: `parts`, or one per core where a row is cheap (a pixel copy) or a part's
    /// rows share work (the `--max-size` shrink samples the grid rows at a part's edges for both
    /// parts: four parts per core made a HEIC preview 4 % slower).
    var partCount = Self.parts

    func run(prepare: (Range<Int>) throws -> Void,
             compute: (Int, Range<Int>, UnsafeMutablePointer<UInt8>) -> Void,
             finished: (Range<Int>) -> Void,
             sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws {
        let chunkBytes = chunkRows * rowBytes
        let buffers = [UnsafeMutablePointer<UInt8>.allocate(capacity: chunkBytes),
                       UnsafeMutablePointer<UInt8>.allocate(capacity: chunkBytes)]
        defer { buffers.forEach { $0.deallocate() } }
        let handoff = SinkThread(buffers: buffers, rowBytes: rowBytes, sink: sink)
        var chunkIndex = 0
        do {
            for start in stride(from: 0, to: rows, by: chunkRows) {
                let chunk = start..<min(rows, start + chunkRows)
                try prepare(chunk)
                let buffer = try handoff.acquire(chunkIndex % 2)
                let parts = min(partCount, chunk.count)
                ParallelRows.forEachPart(of: chunk, parts: parts) { part, rows in
                    compute(part, rows, buffer + (rows.lowerBound - chunk.lowerBound) * rowBytes)
                }
                finished(chunk)
                handoff.submit(chunkIndex % 2, rows: chunk)
                chunkIndex += 1
            }
        } catch {
            handoff.stop()
            throw error
        }
        try handoff.finish()
    }
}

/// The sink's thread and the two buffers' hand-over.
private final class SinkThread {
    private let buffers: [UnsafeMutablePointer<UInt8>]
    private let rowBytes: Int
    private let sink: (Int, UnsafeMutablePointer<UInt8>) throws -> Void
    private let condition = NSCondition()
    /// Rows waiting in each buffer (nil: the buffer is free).
    private var pending: [Range<Int>?] = [nil, nil]
    private var order: [Int] = []
    private var done = false, stopped = false
    private var failure: Error?
    private let exited = DispatchSemaphore(value: 0)

    init(buffers: [UnsafeMutablePointer<UInt8>], rowBytes: Int, sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) {
        (self.buffers, self.rowBytes, self.sink) = (buffers, rowBytes, sink)
        let thread = Thread { [handedOver = HandedOver(self), exited = self.exited] in handedOver.value.loop(); exited.signal() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits until buffer `index` is free; throws the sink's error if it failed.
    func acquire(_ index: Int) throws -> UnsafeMutablePointer<UInt8> {
        condition.lock(); defer { condition.unlock() }
        while pending[index] != nil, failure == nil { condition.wait() }
        if let failure { throw failure }
        return buffers[index]
    }

    func submit(_ index: Int, rows: Range<Int>) {
        condition.lock(); pending[index] = rows; order.append(index); condition.broadcast(); condition.unlock()
    }

    /// Waits for every submitted row to reach the sink; rethrows its error.
    func finish() throws {
        condition.lock(); done = true; condition.broadcast(); condition.unlock()
        exited.wait()
        if let failure { throw failure }
    }

    /// Abandons what is queued.
    func stop() {
        condition.lock(); stopped = true; done = true; condition.broadcast(); condition.unlock()
        exited.wait()
    }

    private func loop() {
        while true {
            condition.lock()
            while order.isEmpty, !done { condition.wait() }
            if stopped || order.isEmpty { condition.unlock(); return }
            let index = order.removeFirst()
            let rows = pending[index]!
            condition.unlock()
            do {
                for j in rows { try sink(j, buffers[index] + (j - rows.lowerBound) * rowBytes) }
            } catch {
                condition.lock(); failure = error; stopped = true; condition.broadcast(); condition.unlock()
                return
            }
            condition.lock(); pending[index] = nil; condition.broadcast(); condition.unlock()
        }
    }
}
