import Glibc
import XCTest
@testable import AdjustKit

/// `PageWarming`: every whole page of a buffer is mapped by `populate`, the partial pages at its
/// ends are left alone, no byte changes, and no more than `maximumBytes` are mapped in all.
final class PageWarmingTests: XCTestCase {
    private static let page = Int(getpagesize())

    /// Which of the `count` pages from `base` are resident (`mincore`).
    private static func resident(_ base: UnsafeMutableRawPointer, pages count: Int) -> [Bool] {
        var vector = [UInt8](repeating: 0, count: count)
        XCTAssertEqual(mincore(base, count * page, &vector), 0)
        return vector.map { $0 & 1 == 1 }
    }

    /// A fresh anonymous mapping of `pages` pages (no page of it resident yet).
    private static func mapping(pages: Int) throws -> UnsafeMutableRawPointer {
        let mapped = mmap(nil, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let base = mapped, base != MAP_FAILED else { throw XCTSkip("mmap of \(pages) pages failed") }
        return base
    }

    func testPopulateMapsEveryWholePageAndChangesNoByte() throws {
        let pages = 64
        let base = try Self.mapping(pages: pages)
        defer { munmap(base, pages * Self.page) }
        // Written before: pages 0 and 40 (their bytes must stay); the rest untouched.
        base.storeBytes(of: 0xA5, toByteOffset: 7, as: UInt8.self)
        base.storeBytes(of: 0x5A, toByteOffset: 40 * Self.page + 99, as: UInt8.self)
        XCTAssertEqual(Self.resident(base, pages: pages).filter { $0 }.count, 2)
        PageWarming.populate([UnsafeMutableRawBufferPointer(start: base, count: pages * Self.page)])
        let after = Self.resident(base, pages: pages)
        guard after.contains(false) == false else {
            // Linux before 5.14 has no MADV_POPULATE_WRITE: the call is a no-op there.
            throw XCTSkip("this kernel does not populate (\(after.filter { $0 }.count) of \(pages) pages resident)")
        }
        XCTAssertEqual(base.load(fromByteOffset: 7, as: UInt8.self), 0xA5)
        XCTAssertEqual(base.load(fromByteOffset: 40 * Self.page + 99, as: UInt8.self), 0x5A)
        for p in 0..<pages where p != 0 && p != 40 {
            XCTAssertEqual(base.load(fromByteOffset: p * Self.page + 123, as: UInt8.self), 0, "page \(p)")
        }
    }

    /// A buffer that starts and ends inside pages: only the pages wholly inside it are mapped.
    func testPopulateLeavesThePartialPagesAtTheEnds() throws {
        let pages = 16
        let base = try Self.mapping(pages: pages)
        defer { munmap(base, pages * Self.page) }
        // From the middle of page 2 to the middle of page 9: pages 3…8 are whole.
        let buffer = UnsafeMutableRawBufferPointer(start: base + 2 * Self.page + Self.page / 2, count: 7 * Self.page)
        let whole = try XCTUnwrap(PageWarming.wholePages(of: buffer))
        XCTAssertEqual(whole.start, base + 3 * Self.page)
        XCTAssertEqual(whole.count, 6 * Self.page)
        PageWarming.populate([buffer])
        let after = Self.resident(base, pages: pages)
        guard after[3] else { throw XCTSkip("this kernel does not populate") }
        XCTAssertEqual(after, (0..<pages).map { (3...8).contains($0) })
        XCTAssertNil(PageWarming.wholePages(of: UnsafeMutableRawBufferPointer(start: base + 10, count: Self.page)))
    }

    /// Buffers past `maximumBytes` in all: the first is mapped whole, the second up to the limit,
    /// the third not at all.
    func testPopulateStopsAtTheLimit() throws {
        let limitPages = PageWarming.maximumBytes / Self.page
        let (first, second, third) = (limitPages / 4, limitPages, 8)
        let bases = try [first, second, third].map { try Self.mapping(pages: $0) }
        defer { for (base, pages) in zip(bases, [first, second, third]) { munmap(base, pages * Self.page) } }
        PageWarming.populate(zip(bases, [first, second, third]).map {
            UnsafeMutableRawBufferPointer(start: $0, count: $1 * Self.page)
        })
        let resident = zip(bases, [first, second, third]).map { Self.resident($0, pages: $1).filter { $0 }.count }
        guard resident[0] > 0 else { throw XCTSkip("this kernel does not populate") }
        XCTAssertEqual(resident, [first, limitPages - first, 0])
    }
}
