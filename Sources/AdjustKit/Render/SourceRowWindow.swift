import Foundation

/// The decoded source rows a render still needs, filled top to bottom by a producer (the
/// decoder's steps, `PulledDecode`; a stage of the stored frame's conversion) and read by the
/// threads computing output rows: the pipeline's only copy of the source.
///
/// Rows [top, bottom) of the region live in a ring of `capacity` rows; row v sits in slot
/// v mod capacity, `rowStride` elements apart: the row's `width` pixels with room beside them for
/// `margins`, which a producer may write (libjpeg decodes its iMCUs straight into the slots,
/// `DecodedRowSource.margins`) and which no reader reads. A producer writes no row while the ring
/// is full of rows the reader has not released (the decoder's steps stop; a stage of the
/// conversion waits); the reader waits until the rows it asks for are decoded, decoding them first
/// through `producer` where there is one. With a capacity of the whole region nothing ever waits
/// on release (the geometry needs rows in no particular order).
final class SourceRowWindow<Element> {
    /// The region's first and one-past-last decoded row, and its width in pixels.
    let top: Int, bottom: Int, width: Int
    /// Elements per pixel (3: RGB).
    static var channels: Int { 3 }
    let capacity: Int
    /// Elements from one slot to the next: the row and its margins.
    let rowStride: Int
    private let storage: UnsafeMutablePointer<Element>
    /// Each region row's slot, by v − top (a raw table: this is read four times a sample).
    private let rowStarts: UnsafeMutablePointer<UnsafeMutablePointer<Element>>
    private let condition = NSCondition()
    private var decodedEnd: Int
    private var releasedBelow: Int
    private var failure: Error?
    /// What each side is blocked on, so the other wakes it only once that holds (waking the
    /// reader for every decoded row cost a context switch a row): the row count the reader
    /// needs decoded, and the release mark the decoder needs.
    private var readerNeeds = Int.max, decoderNeeds = Int.max
    private var readersWaiting = 0
    /// Decodes rows through v on the reader's behalf before it waits for them (`PulledDecode`);
    /// set once, before any reader runs. Without one (a stage of the conversion), the rows come
    /// from whatever fills the window.
    var producer: ((Int) throws -> Void)?

    /// `Element` must be a trivial type (bytes, floats): the storage is not initialized, as
    /// every row is written before it is published (zeroing megabytes that are about to be
    /// overwritten cost a render ~2 ms before its decoding could start).
    init(top: Int, bottom: Int, width: Int, capacity: Int, margins: RowMargins = .none) {
        precondition(bottom > top && width > 0 && margins.left >= 0 && margins.right >= 0 && _isPOD(Element.self))
        (self.top, self.bottom, self.width) = (top, bottom, width)
        self.capacity = max(1, min(capacity, bottom - top))
        let rowStride = (margins.left + width + margins.right) * Self.channels
        self.rowStride = rowStride
        storage = .allocate(capacity: self.capacity * rowStride)
        // Every slot of the ring is written as rows come (each of a 24 MP portrait's two float
        // windows took 11 000 page faults in 4 KB pages).
        HugePages.advise(UnsafeMutableRawBufferPointer(start: storage, count: self.capacity * rowStride * MemoryLayout<Element>.stride))
        let (first, ringSize) = (storage + margins.left * Self.channels, self.capacity)
        rowStarts = .allocate(capacity: bottom - top)
        for v in top..<bottom { rowStarts[v - top] = first + (v % ringSize) * rowStride }
        (decodedEnd, releasedBelow) = (top, top)
    }

    deinit { storage.deallocate(); rowStarts.deallocate() }

    /// Row v's first element (valid once `waitUntilDecoded` has covered v, until it is released).
    @inline(__always)
    func row(_ v: Int) -> UnsafeMutablePointer<Element> { rowStarts[v - top] }

    /// The ring's memory, every byte of which the producer writes as rows come (`PageWarming`).
    var storageBytes: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: storage, count: capacity * rowStride * MemoryLayout<Element>.stride)
    }

    /// The table `row` reads, row v's first element at [v − top]: for the sampler's C block
    /// (`ByteTexels.writeOpaqueBlock`).
    var rowTable: UnsafePointer<UnsafeMutablePointer<Element>> { UnsafePointer(rowStarts) }

    // MARK: decoder side

    /// Waits until rows from the next undecoded one through v fit the ring (the producer then
    /// writes them through `row(_:)`, `rowStride` apart, in order, and publishes them with `finishRows(through:)`);
    /// false once the window has failed.
    func waitForRoom(through v: Int) -> Bool {
        precondition(v < bottom)
        condition.lock(); defer { condition.unlock() }
        while v + 1 - releasedBelow > capacity, failure == nil {
            decoderNeeds = v + 1 - capacity
            condition.wait()
        }
        decoderNeeds = .max
        return failure == nil
    }

    /// Rows from the next undecoded one that fit the ring now, at most `limit` and not past the
    /// ring's end (so that they are contiguous in memory) or the region's: how many rows the
    /// producer may write in one go after `waitForRoom` through the first.
    func contiguousRoom(from v: Int, limit: Int) -> Int {
        condition.lock(); defer { condition.unlock() }
        let free = releasedBelow + capacity - v
        let toRingEnd = capacity - v % capacity
        return max(1, min(limit, free, toRingEnd, bottom - v))
    }

    /// The last row the ring has room for now, without waiting for a release.
    func lastRowWithRoom() -> Int {
        condition.lock(); defer { condition.unlock() }
        return releasedBelow + capacity - 1
    }

    /// Publishes every row through v, written into their slots after `waitForRoom(through: v)`.
    func finishRows(through v: Int) {
        condition.lock()
        decodedEnd = max(decodedEnd, v + 1)
        if decodedEnd >= readerNeeds { condition.broadcast() }
        condition.unlock()
    }

    /// Stops the pipeline: readers waiting for rows get `error`.
    func fail(_ error: Error) {
        condition.lock(); if failure == nil { failure = error }; condition.broadcast(); condition.unlock()
    }

    // MARK: reader side

    /// Blocks until rows up to and including v are decoded (v is clamped to the region), decoding
    /// them itself first through `producer` where there is one.
    func waitUntilDecoded(through v: Int) throws {
        try producer?(v)
        let needed = min(v, bottom - 1) + 1
        condition.lock(); defer { condition.unlock() }
        readersWaiting += 1
        while decodedEnd < needed, failure == nil {
            readerNeeds = min(readerNeeds, needed)
            condition.wait()
        }
        readersWaiting -= 1
        // With a reader still waiting, the mark may now be too low: a spare wake-up, no harm.
        if readersWaiting == 0 { readerNeeds = .max }
        if decodedEnd < needed, let failure { throw failure }
    }

    /// The reader needs no row above v any more.
    func release(below v: Int) {
        condition.lock()
        if v > releasedBelow {
            releasedBelow = min(v, bottom)
            if releasedBelow >= decoderNeeds { condition.broadcast() }
        }
        condition.unlock()
    }
}
