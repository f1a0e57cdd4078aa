/// A closure (or value) handed to other threads while its owner waits for them to finish: the
/// project's one unchecked crossing between threads for the render pipeline. Swift 6 needs a
/// `@Sendable` closure to start a thread or a `concurrentPerform`, and the render's closures
/// capture raw pointers into image memory (source rows, output buffers, memo cells) and the
/// classes that own it (`SourceRowWindow`, the colour memos), which Swift cannot prove safe to
/// share.
///
/// What guards each use:
/// - `ParallelRows.forEachPart`: every part reads shared inputs that do not change during the
///   call and writes only its own rows (or per-part scratch picked by its index); the call is
///   synchronous, so the caller's memory outlives every part. The parts run on `RowWorkers`,
///   whose step holds the closure only until its last iteration has finished (the step's
///   atomics order each iteration's writes before the caller returns).
/// - The pipeline's serial tasks (`ChunkedRowPipeline.run`'s sink and `ahead`, through
///   `ParallelRows.forEachPart`): each runs on one core, beside parts that neither read what it
///   writes nor write what it reads (the sink reads the buffer of the chunk before, which no part
///   of this chunk writes; the decoder's task writes ring slots of rows no part reads, which the
///   ring's room guarantees), and the call is synchronous. The reader behind the decoder's steps
///   (`PulledDecode`) is used under its lock, by one thread at a time.
/// - The pages `ChunkedRowPipeline.run` offers to an idle worker to map (`PageWarming`): the
///   worker only asks the kernel to map them, which changes no byte, and the pipeline withdraws
///   the offer, waiting for it if a worker has taken it, before any of the buffers is freed.
/// - A HEIC's decoding threads (`HEICTileRows.DecodingThreads`): the queue of tile rows and
///   which tiles are taken are behind the threads' `NSCondition`; each thread writes only the
///   results of the tiles it took; the owner keeps each job (and with it libheif's context) and
///   reads the results, or releases them, only after waiting on the job's group, and `stop`
///   waits for the threads to exit. (A `Mutex`
///   around the results was tried: Swift cannot see that a tile decoded from the shared handle
///   is a new value, so it refuses to send one through the lock.)
/// - `StripedJPEGEncoder.encode`: each stripe writes only its own slot of the results, reads
///   the raster (which does not change during the call) through the caller's `fill`, and the
///   call is synchronous.
/// Why not locks or copies instead: these are the per-pixel loops of every render, where raw
/// pointers avoid an array's bounds checks and retains that show in the profiles.
struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
