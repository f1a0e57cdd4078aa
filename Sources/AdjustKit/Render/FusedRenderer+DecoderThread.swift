import Foundation

extension FusedRenderer {
    /// Decodes the window's rows on a second thread while `body` consumes them here; returns
    /// once both are done. A decode error reaches `body` through the window's waits and is
    /// rethrown; an error in `body` stops the decoder.
    func withDecoderThread(reader: any DecodedRowSource, window: SourceRowWindow<UInt8>,
                                   body: () throws -> Void) throws {
        let finished = DispatchSemaphore(value: 0)
        let job = HandedOver(DecodeJob(reader: reader, window: window))
        let thread = Thread { job.value.run(); finished.signal() }
        thread.stackSize = 1 << 20
        thread.start()
        do {
            try body()
        } catch {
            window.cancel()
            finished.wait()
            throw error
        }
        finished.wait()
        if let failure = job.value.failure { throw failure }
    }
}

/// The decoder thread's work: every row of the window, in order, straight into its slot.
final class DecodeJob {
    /// Rows decoded per call at most: libjpeg makes 8 or 16 at a time anyway (an iMCU row), and
    /// the pipeline should not wait long for the first of them.
    private static let rowsPerRead = 8
    let reader: any DecodedRowSource
    let window: SourceRowWindow<UInt8>
    private(set) var failure: Error?

    init(reader: any DecodedRowSource, window: SourceRowWindow<UInt8>) {
        (self.reader, self.window) = (reader, window)
    }

    func run() {
        do {
            var v = window.top
            while v < window.bottom {
                guard window.waitForRoom(through: v) else { return }
                // A few rows a call: one lock and at most one wake-up for them all.
                let count = window.contiguousRoom(from: v, limit: Self.rowsPerRead)
                try reader.readRows(into: window.row(v), stride: reader.width * 3, count: count)
                window.finishRows(through: v + count - 1)
                v += count
            }
        } catch {
            failure = error
            window.fail(error)
        }
    }
}
