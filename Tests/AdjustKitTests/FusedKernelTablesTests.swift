@testable import AdjustKit
import Foundation
import XCTest

/// The tables the fused renderer uses instead of per-pixel `powf`: each against the function it
/// replaces.
final class FusedKernelTablesTests: XCTestCase {
    /// `ByteQuantizer` must agree with `WorkingSpace.byte` on every Float, not just typical ones:
    /// a million random values in [−0.1, 1.1], every Float within 64 ULPs of each threshold, and
    /// the lowest and highest Float of every bucket of its index (the Floats in (0, 1) sharing
    /// their top 16 bits).
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
            for top in UInt32(0)...(Float(1).bitPattern >> 16) {
                for v in [Float(bitPattern: top << 16), Float(bitPattern: top << 16 | 0xFFFF)] {
                    XCTAssertEqual(quantizer.byte(v), space.byte(v), "\(space) bucket \(top): \(v)")
                }
            }
        }
    }

    /// Each threshold the quantizer's search finds is the one a bisection of every Float bit
    /// pattern in [0, 2] finds (the search it replaced), in the linear space: the smallest Float
    /// whose `byte` is the code.
    func testByteQuantizerThresholdsAreTheBisectionsThresholds() {
        let space = WorkingSpace.linear
        for k in 1...255 {
            var lo = Float(0).bitPattern, hi = Float(2).bitPattern
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if Int(space.byte(Float(bitPattern: mid))) >= k { hi = mid } else { lo = mid + 1 }
            }
            XCTAssertEqual(ByteQuantizer.threshold(k, space: space).bitPattern, lo, "code \(k)")
        }
    }

    /// `Bound.codes`, the pixel copy's quantizer of four values at once, against
    /// `WorkingSpace.byte` value by value in both spaces: random values in [−0.1, 1.1], each
    /// code's neighbourhood, every bucket's ends, and the values outside (0, 1) of either sign
    /// (zeros, subnormals, infinities, NaNs), each in every lane.
    func testByteQuantizerLanesAgreeWithTheExactCurve() {
        var values: [Float] = [0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-30, 1, Float(1).nextDown,
                               Float(1).nextUp, 2, 254.5 / 255, 1e30, .greatestFiniteMagnitude, .infinity, .nan,
                               Float(bitPattern: 0x7FFF_FFFF), Float(bitPattern: 0x7F80_0001)]
        values += values.map { -$0 }
        var random = SplitMix64(seed: 13)
        for _ in 0..<200_000 { values.append(Float(Double(random.next() >> 11) / Double(1 << 53) * 1.2 - 0.1)) }
        for top in UInt32(0)...(Float(1).bitPattern >> 16) {
            values += [Float(bitPattern: top << 16), Float(bitPattern: top << 16 | 0xFFFF)]
        }
        for space in WorkingSpace.allCases {
            var all = values
            for code in 1...255 {
                var bits = space.working(fromEncoded: (Float(code) - 0.5) / 255).bitPattern &- 64
                for _ in 0..<128 { all.append(Float(bitPattern: bits)); bits &+= 1 }
            }
            // Each value in each lane, beside three others.
            all += all.prefix(30) + all.prefix(30).reversed()
            ByteQuantizer(space: space).withBound { bound in
                for i in 0..<(all.count - 3) {
                    let lanes = Lanes(all[i], all[i + 1], all[i + 2], all[i + 3]), codes = bound.codes(lanes)
                    for lane in 0..<4 where codes[lane] != Int32(space.byte(lanes[lane])) {
                        XCTFail("\(space) codes lane \(lane) of \(lanes): \(codes[lane]), byte \(space.byte(lanes[lane]))")
                        return
                    }
                }
            }
        }
    }

    /// `Bound.store`, four pixels to RGBA8: each channel's `WorkingSpace.byte` and the alpha, black
    /// where the alpha is 0, for groups of greys (coded once), of colours, of greys but for one
    /// value, and with a NaN; the one-pixel form the same.
    func testByteQuantizerStoresPixelsAsTheyAreCoded() {
        let greys = Lanes(0.1, 0.5, 0.999, 0.0001), colour = Lanes(0.3, 0.02, 0.7, 1)
        var oneOff = greys
        oneOff[2] = 0.4
        let groups: [(Lanes, Lanes, Lanes)] = [(greys, greys, greys), (greys, colour, greys.squareRoot()),
                                               (greys, greys, oneOff), (greys, Lanes(0.2, .nan, 0.3, 0.3), greys)]
        let alphaSets: [SIMD4<UInt8>] = [SIMD4(255, 255, 255, 255), SIMD4(0, 128, 255, 0), SIMD4(1, 0, 0, 7)]
        for space in WorkingSpace.allCases {
            ByteQuantizer(space: space).withBound { bound in
                for (r, g, b) in groups {
                    for alphas in alphaSets {
                        var four = [UInt8](repeating: 99, count: 16), one = [UInt8](repeating: 99, count: 16)
                        four.withUnsafeMutableBytes { bound.store(r, g, b, alphas: alphas, into: $0.baseAddress!) }
                        for lane in 0..<4 {
                            one.withUnsafeMutableBufferPointer {
                                bound.store(r[lane], g[lane], b[lane], alpha: alphas[lane], into: $0.baseAddress! + 4 * lane)
                            }
                        }
                        let expected: [UInt8] = (0..<4).flatMap { lane -> [UInt8] in
                            alphas[lane] == 0 ? [0, 0, 0, 0]
                                : [space.byte(r[lane]), space.byte(g[lane]), space.byte(b[lane]), alphas[lane]]
                        }
                        XCTAssertEqual(four, expected, "\(space) \(r) \(g) \(b) \(alphas)")
                        XCTAssertEqual(one, expected, "\(space) one by one: \(r) \(g) \(b) \(alphas)")
                    }
                }
            }
        }
    }

    /// `ByteQuantizer` has no test for values outside (0, 1): its clamped bucket index and its
    /// NaN sentinel do that work, and must agree with `WorkingSpace.byte` on zeros, infinities,
    /// NaNs, subnormals and the values next to 1, of either sign.
    func testByteQuantizerAgreesOutsideZeroToOne() {
        let quantizer = ByteQuantizer(space: .linear)
        let positive: [Float] = [0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-30, 1, Float(1).nextDown,
                                 Float(1).nextUp, 2, 1e30, .greatestFiniteMagnitude, .infinity, .nan,
                                 Float(bitPattern: 0x7FFF_FFFF), Float(bitPattern: 0x7F80_0001)]
        for v in positive + positive.map({ -$0 }) {
            XCTAssertEqual(quantizer.byte(v), WorkingSpace.linear.byte(v), "\(v) (bits \(String(v.bitPattern, radix: 16)))")
        }
    }

    /// `Bound.code(finite:)`, the sampler's quantizer for blends of decode-table texels, skips
    /// the space and NaN selections and must still agree with `WorkingSpace.byte` on finite
    /// values: random values in [−0.1, 1.1], each threshold's neighbourhood, every bucket's ends,
    /// and the finite values outside (0, 1) that the clamped index handles.
    func testByteQuantizerOfFiniteValuesAgreesWithTheExactCurve() {
        var values: [Float] = [0, -0.0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1, Float(1).nextDown,
                               Float(1).nextUp, 2, .greatestFiniteMagnitude, -.leastNonzeroMagnitude, -1,
                               -.greatestFiniteMagnitude]
        var random = SplitMix64(seed: 11)
        for _ in 0..<1_000_000 { values.append(Float(Double(random.next() >> 11) / Double(1 << 53) * 1.2 - 0.1)) }
        for code in 1...255 {
            var bits = WorkingSpace.linear.working(fromEncoded: (Float(code) - 0.5) / 255).bitPattern &- 64
            for _ in 0..<128 { values.append(Float(bitPattern: bits)); bits &+= 1 }
        }
        for top in UInt32(0)...(Float(1).bitPattern >> 16) {
            values += [Float(bitPattern: top << 16), Float(bitPattern: top << 16 | 0xFFFF)]
        }
        ByteQuantizer(space: .linear).withBound { bound in
            for v in values where bound.code(finite: v) != WorkingSpace.linear.byte(v) {
                XCTFail("code(finite: \(v)) = \(bound.code(finite: v)), byte = \(WorkingSpace.linear.byte(v))")
                return
            }
        }
    }

    /// `Bound.code(unitBlend:)`, the sampler's quantizer for blends of texels in [0, 1], reads
    /// its bucket without clamping and must agree with `WorkingSpace.byte` on all of [+0, 2):
    /// random values there, each threshold's neighbourhood, and both ends of every bucket from
    /// +0's to 2.0's predecessor's (those above 1.0's, past the buckets `code(finite:)` reads).
    func testByteQuantizerOfUnitBlendsAgreesWithTheExactCurve() {
        var values: [Float] = [0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1, Float(1).nextDown, Float(1).nextUp,
                               Float(2).nextDown]
        var random = SplitMix64(seed: 12)
        for _ in 0..<1_000_000 { values.append(min(Float(2).nextDown, Float(Double(random.next() >> 11) / Double(1 << 53) * 2))) }
        for code in 1...255 {
            var bits = WorkingSpace.linear.working(fromEncoded: (Float(code) - 0.5) / 255).bitPattern &- 64
            for _ in 0..<128 { values.append(Float(bitPattern: bits)); bits &+= 1 }
        }
        for top in UInt32(0)..<(Float(2).bitPattern >> 16) {
            values += [Float(bitPattern: top << 16), Float(bitPattern: top << 16 | 0xFFFF)]
        }
        ByteQuantizer(space: .linear).withBound { bound in
            for v in values where bound.code(unitBlend: v) != WorkingSpace.linear.byte(v) {
                XCTFail("code(unitBlend: \(v)) = \(bound.code(unitBlend: v)), byte = \(WorkingSpace.linear.byte(v))")
                return
            }
        }
    }

    /// `EncodingTable` stays within 2·10⁻⁷ of `SRGBTransfer.encode` (what the shrink
    /// averages): a million values spread over [0, 1], a million spread over the bottom octaves
    /// (where the curve bends most), the kink, and the exact curve outside [0, 1).
    func testEncodingTableIsWithinAFewFloatStepsOfTheCurve() {
        let table = EncodingTable.linear
        var worst: Float = 0, worstAt: Float = 0
        func check(_ v: Float) {
            let error = abs(table(v) - SRGBTransfer.encode(v))
            if error > worst { (worst, worstAt) = (error, v) }
        }
        for i in 0...1_000_000 { check(Float(i) / 1_000_000) }
        for i in 0...1_000_000 { check(Float(i) / 1_000_000 * 0.02) }
        var bits = Float(0.0031308).bitPattern &- 1000
        for _ in 0..<2000 { check(Float(bitPattern: bits)); bits &+= 1 }
        XCTAssertLessThan(worst, 2e-7, "worst at \(worstAt)")   // 5·10⁻⁵ of a code, 3 Float steps near 1
        XCTAssertEqual(table(1), SRGBTransfer.encode(1))
        XCTAssertEqual(table(1.5), SRGBTransfer.encode(1.5))
        XCTAssertEqual(table(-0.25), SRGBTransfer.encode(-0.25))
        XCTAssertEqual(table(0.001), SRGBTransfer.encode(0.001))
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

    /// One memo shared by several threads (as the renderer's workers share it): every value
    /// right, each colour computed at least once and at most once a thread.
    func testColourMemosAreRightWhenSharedByThreads() {
        let threads = 8, colours = 40_000
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var calls: [UInt32: Int] = [:]
            func count(_ key: UInt32) { lock.lock(); calls[key, default: 0] += 1; lock.unlock() }
        }
        let counter = Counter()
        let memo = ColourMemo<SIMD3<Float>> { r, g, b in
            counter.count(UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
            return SIMD3(Float(r), Float(g) + 0.5, Float(b) * 2)
        }
        let packed = PackedColourMemo { r, g, b in (g, b, r) }
        // Every thread walks the same colours, in a different order, so that they race on them.
        var random = SplitMix64(seed: 3)
        let keys = (0..<colours).map { _ in UInt32(truncatingIfNeeded: random.next()) & 0xFFFFFF }
        final class Failures: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            func add() { lock.lock(); count += 1; lock.unlock() }
        }
        let failures = Failures()
        // Handed to the threads as the renderer hands them (see `HandedOver`).
        let memos = HandedOver((memo, packed))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let (cells, packedCells) = (memos.value.0.cells, memos.value.1.cells)
            for n in 0..<colours {
                let key = keys[(n * (2 * thread + 1)) % colours]
                let (r, g, b) = (UInt8(key >> 16), UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key))
                if cells.value(r, g, b) != SIMD3(Float(r), Float(g) + 0.5, Float(b) * 2) { failures.add() }
                if packedCells.value(r, g, b) != (g, b, r) { failures.add() }
            }
        }
        XCTAssertEqual(failures.count, 0)
        let distinct = Set(keys)
        XCTAssertEqual(Set(counter.calls.keys), distinct)
        XCTAssertLessThanOrEqual(counter.calls.values.max() ?? 0, threads)
        XCTAssertEqual(memo.computed, counter.calls.values.reduce(0, +))
    }
}
