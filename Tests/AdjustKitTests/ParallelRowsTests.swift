@testable import AdjustKit
import XCTest

/// How `ParallelRows` cuts a chunk into parts: every row in exactly one part, in order; with more
/// parts than cores, no empty part and sizes that never grow, so that the last parts the cores take
/// are the smallest.
final class ParallelRowsTests: XCTestCase {
    private func parts(_ rows: Range<Int>, _ count: Int) -> [Range<Int>] {
        (0..<count).map { ParallelRows.bounds(of: $0, parts: count, in: rows) }
    }

    func testPartsCoverTheRowsInOrder() {
        for count in [1, 2, 3, 8, 16] {
            for rows in [0..<0, 5..<6, 10..<18, 0..<32, 100..<131, 7..<1007] {
                let cut = parts(rows, count)
                XCTAssertEqual(cut.first?.lowerBound, rows.lowerBound, "\(rows) in \(count)")
                XCTAssertEqual(cut.last?.upperBound, rows.upperBound, "\(rows) in \(count)")
                for (a, b) in zip(cut, cut.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound, "\(rows) in \(count)") }
                if count > ChunkedRowPipeline.workers, rows.count >= count {
                    XCTAssertFalse(cut.contains { $0.isEmpty }, "\(rows) in \(count): \(cut)")
                    for (a, b) in zip(cut, cut.dropFirst()) { XCTAssertGreaterThanOrEqual(a.count, b.count, "\(rows) in \(count)") }
                }
            }
        }
    }

    /// A chunk of 32 rows in 8 parts (four a core on two cores): a row each, and the other 24 by
    /// weights 8 … 1 (sum 36), worked by hand: ⌊24·w/36⌋ = 5, 4, 4, 3, 2, 2, 1, 0 (21), the three
    /// rows left to the first three parts.
    func testAChunkOfThirtyTwoRowsInEightParts() throws {
        try XCTSkipUnless(ChunkedRowPipeline.workers < 8, "the falling sizes are for more parts than cores")
        XCTAssertEqual(parts(0..<32, 8).map(\.count), [7, 6, 6, 4, 3, 3, 2, 1])
    }
}
