import Glibc

/// Maps the pages of buffers a render is about to write (`madvise(MADV_POPULATE_WRITE)`, Linux
/// 5.14), on a core that would otherwise wait, so that the first writes into them take no page
/// fault.
///
/// Why: a straighten of a 12 MP JPEG took about 2 400 page faults, and 1 100 of them were the
/// first writes into the ring of decoded source rows (a third of those while the caller decoded
/// the first chunk's rows, alone on one core) and into the pipeline's two chunk buffers.
/// `ChunkedRowPipeline` offers the mapping to an idle worker (`RowWorkers.offer`) during its first
/// chunk's `prepare`, where the other core has nothing to do: 0.98 of the straighten's time side
/// by side, its CPU unchanged (docs/benchmark.md, twenty-second part). Only buffers written whole
/// are mapped (mapping the JPEG encoder's output, sized for the file it expects, put up to 1.7 MB
/// on a render's peak), and at most `maximumBytes` of them.
///
/// The kernel maps the zeroed pages a write fault would have mapped, and leaves a page that is
/// mapped already as it is, so the call may run while another thread writes the same buffer and
/// changes no byte. A kernel before 5.14 answers EINVAL, and the pages fault as before.
enum PageWarming {
    /// The most a render maps ahead: about 2 000 pages, which an idle core maps well within the
    /// first chunk's decoding (a straighten's ring and chunk buffers are 4.4 MB). A bound, not a
    /// measured optimum: a whole-region ring (a geometry that needs its rows in no particular
    /// order) can be tens of megabytes, and the worker that maps it is not free for the first
    /// chunk's parts until it is done. A multiple of the page size.
    static let maximumBytes = 8 << 20

    /// Maps the pages of `buffers` (their whole pages: see `wholePages`) for writing, in order,
    /// until `maximumBytes` are mapped: a buffer that would pass it is mapped up to it.
    static func populate(_ buffers: [UnsafeMutableRawBufferPointer]) {
        var left = maximumBytes
        for buffer in buffers where left > 0 {
            // Both whole pages: `left` stays a multiple of the page size.
            guard let (start, count) = wholePages(of: buffer) else { continue }
            let mapped = min(count, left)
            _ = madvise(start, mapped, MADV_POPULATE_WRITE)
            left -= mapped
        }
    }

    /// The part of `buffer` made of whole pages, its start rounded up and its end down to a page
    /// (madvise takes page-aligned ranges; the partial pages at the ends may hold other data),
    /// or nil when it holds no whole page.
    static func wholePages(of buffer: UnsafeMutableRawBufferPointer) -> (start: UnsafeMutableRawPointer, count: Int)? {
        guard let base = buffer.baseAddress else { return nil }
        let page = Int(getpagesize())
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(page - 1)
        guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
        return (first, end - start)
    }
}
