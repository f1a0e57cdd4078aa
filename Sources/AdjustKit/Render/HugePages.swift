import Glibc

/// Asks the kernel to back a large buffer with 2 MB pages (transparent huge pages,
/// `madvise(MADV_HUGEPAGE)`), for systems that give them only on request
/// (`/sys/kernel/mm/transparent_hugepage/enabled` reads `madvise`, as on the machines measured
/// here; under `always` every large buffer has them anyway, under `never` none does).
///
/// Why: every 4 KB page a render touches for the first time is a page fault. A 24 MP portrait's
/// two float row windows and its turned raster took 46 000 of its 77 000 faults, and the kernel
/// was 9 % of its CPU samples. Advised, the render took 32 000 faults and 0.96 of the time
/// (docs/benchmark.md, "Issue 30, ninth part"). The advice changes no byte; where the kernel has
/// no huge page to give, it maps small pages as before. Only buffers written whole are advised:
/// glibc's `hugetlb` tunable, which advises every heap, was slower (the same page).
enum HugePages {
    /// Buffers smaller than this are left alone. A huge page is touched whole, so an advised
    /// buffer can take up to 2 MB more at each end than it uses; advising the few-megabyte row
    /// windows of a 12 MP render put 1.5 MB on every row's peak in `scripts/bench-ab` and gained
    /// nothing. A 24 MP portrait's working float window is 45 MB and a turned JPEG's RGB raster
    /// 73 MB (the blur's output window, 24 MB since it holds one batch beyond the sampler's rows,
    /// and a black-and-white portrait's grey raster, 24 MB, keep small pages).
    static let minimumBytes = 32 << 20

    /// Advises the whole pages inside `buffer` (`PageWarming.wholePages`).
    static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count >= minimumBytes, let (start, count) = PageWarming.wholePages(of: buffer) else { return }
        // Advice only: a kernel without transparent huge pages answers EINVAL, and the buffer
        // works as before.
        _ = madvise(start, count, MADV_HUGEPAGE)
    }
}
