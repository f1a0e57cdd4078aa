import Glibc
import XCTest
@testable import AdjustKit

/// The advice for large buffers (`HugePages`): where the kernel gives 2 MB pages on request,
/// touching an advised buffer takes a fault per 2 MB, not per 4 KB page.
final class HugePagesTests: XCTestCase {
    /// The system's transparent huge page mode (`always`, `madvise` or `never`), nil where the
    /// kernel has none.
    private static var transparentHugePageMode: String? {
        guard let text = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8),
              let open = text.firstIndex(of: "["), let close = text.firstIndex(of: "]"), open < close else { return nil }
        return String(text[text.index(after: open)..<close])
    }

    /// Minor page faults of the calling thread so far.
    private static func threadFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1), which Glibc's Swift module leaves out (a _GNU_SOURCE name): the
        // test's own thread only, not XCTest's others.
        getrusage(1, &usage)
        return usage.ru_minflt
    }

    func testAdvisedBufferFaultsInLargePages() throws {
        guard let mode = Self.transparentHugePageMode, mode == "madvise" || mode == "always" else {
            throw XCTSkip("transparent huge pages are off on this system (\(Self.transparentHugePageMode ?? "absent"))")
        }
        let bytes = HugePages.minimumBytes
        let smallPages = bytes / Int(getpagesize())
        // Mapped directly, as malloc maps a block this large, so no earlier use of the range counts.
        let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let base = mapped, base != MAP_FAILED else { throw XCTSkip("mmap of \(bytes) bytes failed") }
        defer { munmap(base, bytes) }
        HugePages.advise(UnsafeMutableRawBufferPointer(start: base, count: bytes))
        let before = Self.threadFaults()
        for offset in stride(from: 0, to: bytes, by: 4096) { base.storeBytes(of: UInt8(offset >> 12 & 255), toByteOffset: offset, as: UInt8.self) }
        let faults = Self.threadFaults() - before
        // A fault per huge page, and small pages at the unaligned ends: far under one per small page.
        XCTAssertLessThan(faults, smallPages / 8, "\(faults) faults touching \(smallPages) small pages of an advised buffer")
        for offset in stride(from: 0, to: bytes, by: 4096) {
            XCTAssertEqual(base.load(fromByteOffset: offset, as: UInt8.self), UInt8(offset >> 12 & 255))
        }
    }

    /// A buffer under `minimumBytes` is not advised: it faults page by page, as before.
    func testSmallBufferIsLeftAlone() throws {
        guard Self.transparentHugePageMode == "madvise" else {
            throw XCTSkip("only `madvise` mode tells advised from unadvised memory")
        }
        let bytes = HugePages.minimumBytes - 4096
        let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let base = mapped, base != MAP_FAILED else { throw XCTSkip("mmap failed") }
        defer { munmap(base, bytes) }
        HugePages.advise(UnsafeMutableRawBufferPointer(start: base, count: bytes))
        let before = Self.threadFaults()
        for offset in stride(from: 0, to: bytes, by: 4096) { base.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        let faults = Self.threadFaults() - before
        XCTAssertGreaterThan(faults, bytes / 4096 * 3 / 4, "\(faults) faults: the small buffer was given large pages")
    }
}
