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
///   synchronous, so the caller's memory outlives every part.
/// - The decoder thread (`FusedRenderer.withDecoderThread`): the reader is used by that thread
///   alone until it signals that it has finished, and the owner waits for that signal before it
///   reads the job's failure or lets the reader go; the row window's shared state is behind its
///   `NSCondition`, and each row is written before it is published through it.
/// - The sink thread (`ChunkedRowPipeline`): the hand-over state is behind the `NSCondition`, a
///   buffer is written by one side at a time as that state says, and `finish`/`stop` wait for the
///   thread to exit before the buffers are freed.
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
