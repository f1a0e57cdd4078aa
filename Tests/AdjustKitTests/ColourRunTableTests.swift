@testable import AdjustKit
import Foundation
import Synchronization
import XCTest

/// `ColourRunTable`'s build shared by the threads that ask for it: each piece made once, whoever
/// takes it; every thread given the same entries; the marked cells' first corners NaN; greys packed
/// one `Float` a node.
final class ColourRunTableTests: XCTestCase {
    /// Made-up pieces on an n³ grid: node (i, j, k) holds (i, j, k, 0)·scale (grey: (i, i, i, 0)),
    /// and the cells whose first corner is on the diagonal are marked. Counts each piece's calls,
    /// and waits `pause` in each (ten times that in the last node plane), so that the threads'
    /// pieces interleave and the other threads reach the last cell planes while it is made.
    private final class CountingPieces: TablePieces {
        let nodesPerAxis: Int, grey: Bool
        let pause: useconds_t
        let nodeCalls: Locked<[Int]>, cellCalls: Locked<[Int]>
        /// The threads that made some piece.
        let threads = Locked<Set<UInt>>([])
        /// The node planes a cell piece found not yet written.
        let unwritten = Locked<[Int]>([])

        init(n: Int, grey: Bool, pause: useconds_t = 0) {
            (nodesPerAxis, self.grey, self.pause) = (n, grey, pause)
            nodeCalls = Locked([Int](repeating: 0, count: n))
            cellCalls = Locked([Int](repeating: 0, count: n - 1))
        }

        static func value(_ i: Int, _ j: Int, _ k: Int, grey: Bool) -> Lanes {
            grey ? Lanes(Float(i), Float(i), Float(i), 0) : Lanes(Float(i), Float(j), Float(k), 0) * 0.5
        }

        private func noteThread() {
            let me = UInt(pthread_self())
            threads.withLock { _ = $0.insert(me) }
        }

        func nodes(plane i: Int) -> (values: [Lanes], grey: Bool) {
            nodeCalls.withLock { $0[i] += 1 }
            noteThread()
            usleep(i == nodesPerAxis - 1 ? 10 * pause : pause)
            let n = nodesPerAxis
            var values: [Lanes] = []
            for j in 0..<n { for k in 0..<n { values.append(Self.value(i, j, k, grey: grey)) } }
            return (values, grey)
        }

        func marked(cellPlane i: Int, nodes: UnsafePointer<Lanes>) -> [Int] {
            cellCalls.withLock { $0[i] += 1 }
            noteThread()
            usleep(pause)
            let n = nodesPerAxis
            // Every node on both sides has been written by then.
            for plane in [i, i + 1] {
                let written = (0..<n).allSatisfy { j in
                    (0..<n).allSatisfy { k in nodes[(plane * n + j) * n + k] == Self.value(plane, j, k, grey: grey) }
                }
                if !written { unwritten.withLock { $0.append(plane) } }
            }
            return [(i * n + i) * n + i]
        }
    }

    /// The entries against the pieces' own values, read with their own arithmetic.
    private func check(_ entries: ColourRunTable.Entries, _ pieces: CountingPieces, file: StaticString = #filePath, line: UInt = #line) {
        let n = pieces.nodesPerAxis
        XCTAssertEqual(entries.grey, pieces.grey, file: file, line: line)
        for i in 0..<n { for j in 0..<n { for k in 0..<n {
            let index = (i * n + j) * n + k
            let marked = i == j && j == k && i < n - 1
            let expected = Self.expectedValue(i, j, k, grey: pieces.grey)
            let got = pieces.grey ? Lanes(repeating: entries.values.load(fromByteOffset: 4 * index, as: Float.self))
                : entries.values.load(fromByteOffset: 16 * index, as: Lanes.self)
            if marked {
                XCTAssertTrue(got[0].isNaN, "cell (\(i), \(j), \(k)) marked", file: file, line: line)
            } else {
                XCTAssertEqual(got[0], expected[0], "node (\(i), \(j), \(k))", file: file, line: line)
                if !pieces.grey { XCTAssertEqual(got, expected, "node (\(i), \(j), \(k))", file: file, line: line) }
            }
        } } }
    }

    private static func expectedValue(_ i: Int, _ j: Int, _ k: Int, grey: Bool) -> Lanes {
        grey ? Lanes(Float(i), Float(i), Float(i), 0) : Lanes(Float(i) / 2, Float(j) / 2, Float(k) / 2, 0)
    }

    func testOneThreadMakesEveryPieceOnce() {
        for grey in [false, true] {
            let pieces = CountingPieces(n: 5, grey: grey)
            let table = ColourRunTable()
            check(table.entries { pieces }, pieces)
            XCTAssertEqual(pieces.nodeCalls.withLock { $0 }, [1, 1, 1, 1, 1])
            XCTAssertEqual(pieces.cellCalls.withLock { $0 }, [1, 1, 1, 1])
            XCTAssertEqual(pieces.unwritten.withLock { $0 }, [])
            // Built once: a second call reads the same entries and makes nothing.
            let again = table.entries { XCTFail("built twice"); return pieces }
            XCTAssertEqual(again.values, table.entries { pieces }.values)
            XCTAssertEqual(pieces.nodeCalls.withLock { $0 }, [1, 1, 1, 1, 1])
        }
    }

    /// Four threads asking at once: each piece made once, by more than one thread, and every
    /// thread given the same entries.
    func testThreadsAskingTogetherShareTheBuild() {
        let pieces = CountingPieces(n: 9, grey: false, pause: 2_000)
        let table = ColourRunTable()
        let addresses = Locked<[UInt]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let entries = table.entries { pieces }
            addresses.withLock { $0.append(UInt(bitPattern: entries.values)) }
        }
        XCTAssertEqual(Set(addresses.withLock { $0 }).count, 1)
        XCTAssertEqual(addresses.withLock { $0 }.count, 4)
        XCTAssertEqual(pieces.nodeCalls.withLock { $0 }, [Int](repeating: 1, count: 9))
        XCTAssertEqual(pieces.cellCalls.withLock { $0 }, [Int](repeating: 1, count: 8))
        XCTAssertEqual(pieces.unwritten.withLock { $0 }, [], "cell planes read node planes before they were made")
        if ProcessInfo.processInfo.activeProcessorCount > 1 {
            XCTAssertGreaterThan(pieces.threads.withLock { $0 }.count, 1, "one thread made every piece")
        }
        check(table.entries { pieces }, pieces)
    }
}
