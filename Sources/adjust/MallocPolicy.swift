import CMalloc

/// What glibc's malloc does with the memory a render frees, chosen per command: a command that
/// renders many photos in one process gives large blocks back, one that renders one photo and
/// exits keeps what it frees for its own later rows.
enum MallocPolicy {
    /// `batch` and `fidelity`: the memory stays the rows in flight.
    ///
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

    /// `render`: one photo, then the process ends, so memory given back to the system helps no
    /// one. Left to itself, glibc trims each heap arena's free top back to the system, and the
    /// next band's buffers (a portrait's blur cells, a HEIC's tile rows, the rasters) fault their
    /// pages in again, zero-filled by the kernel: 129 000–138 000 page faults and 0.41 s of system
    /// time for the 24 MP portrait of `scripts/bench` case 18. A top pad of 16 MB keeps that much
    /// of each arena's free top for reuse: 80 000–85 000 faults, 0.26 s, 0.92 and 0.96 of the wall
    /// time in two side-by-side runs, peak RSS 3 % higher (32 MB: 69 000 faults, but a peak about
    /// 8 % higher; 64 MB: 94 000, as high). docs/benchmark.md, "Issue 30, fifth part".
    static func keepFreedMemoryForReuse() {
        _ = mallopt(M_TOP_PAD, 16 << 20)
    }
}
