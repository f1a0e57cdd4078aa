import CMalloc

/// How a command that renders many photos in one process (`batch`, `fidelity`) keeps its memory to
/// the rows in flight.
enum LongRunMemory {
    /// glibc's malloc, left to itself, raises its mmap threshold to the largest block freed so far
    /// (up to 32 MB on 64-bit): after the first photos, the tile rows, row windows and rasters of
    /// every later one come from the heap arenas (one per thread) and stay there when freed, so a
    /// long batch's peak RSS grows well beyond what its renders hold at once. Fixing the threshold
    /// (which turns the adjustment off) keeps every block over 128 KB mapped and unmapped when it
    /// is freed. Measured on 40 HEICs and 20 JPEGs, `--max-size 2048 -j 2`: 130–147 MB peak
    /// without, 84 MB with, no slower (docs/benchmark.md, batch memory).
    static func returnLargeBlocksWhenFreed() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 << 10)
    }
}
