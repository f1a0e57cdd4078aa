@testable import AdjustKit
import XCTest

/// The tables the fused renderer uses instead of per-pixel `powf`: each against the function it
/// replaces.
final class FusedKernelTablesTests: XCTestCase {
    /// `ByteQuantizer` must agree with `WorkingSpace.byte` on every Float, not just typical ones:
    /// a million random values in [−0.1, 1.1], and every Float within 64 ULPs of each threshold.
    func testByteQuantizerAgreesWithTheExactCurve() {
        for space in WorkingSpace.allCases {
            let quantizer = ByteQuantizer(space: space)
            var random = SplitMix64(seed: 7)
            for _ in 0..<1_000_000 {
                let v = Float(Double(random.next() >> 11) / Double(1 << 53) * 1.2 - 0.1)
                XCTAssertEqual(quantizer.byte(v), space.byte(v), "\(space) \(v)")
                if quantizer.byte(v) != space.byte(v) { return }
            }
            for code in 0...255 {
                let centre = space.working(fromEncoded: (Float(code) - 0.5) / 255)
                guard centre > 0 else { continue }
                var bits = centre.bitPattern &- 64
                for _ in 0..<128 {
                    let v = Float(bitPattern: bits)
                    XCTAssertEqual(quantizer.byte(v), space.byte(v), "\(space) near code \(code): \(v)")
                    bits &+= 1
                }
            }
        }
    }

    /// `EncodingTable` stays within 5·10⁻⁶ of `SRGBTransfer.encode` (what the shrink averages).
    func testEncodingTableIsWithinAThousandthOfACodeOfTheCurve() {
        let table = EncodingTable.linear
        var worst: Float = 0
        for i in 0...1_000_000 {
            let v = Float(i) / 1_000_000
            worst = max(worst, abs(table(v) - SRGBTransfer.encode(v)))
        }
        XCTAssertLessThan(worst, 5e-6)   // 0.001 of a code
        XCTAssertEqual(table(1.5), SRGBTransfer.encode(1.5))
        XCTAssertEqual(table(-0.25), SRGBTransfer.encode(-0.25))
    }

    /// The memos compute each colour once and return it unchanged after.
    func testColourMemoComputesEachColourOnce() {
        final class Counter: @unchecked Sendable { var calls = 0 }
        let counter = Counter()
        let memo = ColourMemo<UInt32> { r, g, b in
            counter.calls += 1
            return UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
        var random = SplitMix64(seed: 11)
        var seen = Set<UInt32>()
        for _ in 0..<100_000 {
            let (r, g, b) = (UInt8(random.next() & 255), UInt8(random.next() & 255), UInt8(random.next() & 255))
            let value = memo.cells.value(r, g, b)
            XCTAssertEqual(value, UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
            seen.insert(value)
        }
        XCTAssertEqual(counter.calls, seen.count)
        XCTAssertEqual(memo.computed, seen.count)
        let packed = PackedColourMemo { r, g, b in (b, r, g) }
        for r in stride(from: 0, through: 255, by: 15) {
            for g in 0...255 {
                for b in [0, 8, 255] {
                    let value = packed.cells.value(UInt8(r), UInt8(g), UInt8(b))
                    XCTAssertTrue(value == (UInt8(b), UInt8(r), UInt8(g)), "\(r) \(g) \(b) gave \(value)")
                }
            }
        }
        // Every colour has its own cell.
        var indices = Set<Int>()
        for r in stride(from: 0, through: 255, by: 5) {
            for g in 0...255 {
                for b in [0, 7, 8, 255] {
                    let (block, offset) = ColourCells.position(UInt8(r), UInt8(g), UInt8(b))
                    XCTAssertTrue(block >= 0 && block < 1 << 15 && offset >= 0 && offset < 1 << 9)
                    indices.insert(block << 9 | offset)
                }
            }
        }
        XCTAssertEqual(indices.count, 52 * 256 * 4)
    }
}
