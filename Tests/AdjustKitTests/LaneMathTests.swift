@testable import AdjustKit
import Foundation
import XCTest

/// `LaneMath` against Foundation's double-precision functions, an oracle independent of it: the
/// accuracy its doc comment promises on the ranges the Smart kernels use.
final class LaneMathTests: XCTestCase {
    /// x from 10⁻⁶ to 4 on a geometric grid (the kernels' values are in [0, 1], a little beyond
    /// after a levels stage), each power the kernels use and the extremes of the highlights' power.
    /// `truncate` is ⌊x⌋ on 0 ≤ x < 2²², `float` exact on |e| < 2²²: every integer and its
    /// neighbours on both sides up to 2¹⁶, then spread out to the top of the range, in every lane.
    func testTruncateAndFloatAreExactInTheirRanges() {
        var values: [Float] = [0, -0.0, 0.5, 1 - Float.ulpOfOne / 2, 4_194_303, 4_194_303.5, Float(4_194_304).nextDown]
        for n in 0...65_536 { values += [Float(n), Float(n).nextUp, Float(n).nextDown.magnitude] }
        for k in 0..<4096 { values.append(Float(k) * 1024.37) }
        for start in stride(from: 0, to: values.count - 3, by: 1) where start % 4 == 0 || start < 16 {
            let x = Lanes(values[start], values[start + 1], values[start + 2], values[start + 3])
            let t = LaneMath.truncate(x)
            for lane in 0..<4 {
                XCTAssertEqual(t[lane], Int32(x[lane].rounded(.down)), "truncate \(x[lane])")
            }
        }
        for e: Int32 in [0, 1, -1, 4_194_303, -4_194_303, 12_345, -150, 128] {
            let f = LaneMath.float(LaneBits(e, -e, e / 2, e &* 3 % 4_194_304))
            XCTAssertEqual(f, Lanes(Float(e), Float(-e), Float(e / 2), Float(e &* 3 % 4_194_304)), "float \(e)")
        }
    }

    func testPowerIsWithinFourMillionthsRelative() {
        let xs = (0..<40_000).map { Float(1e-6 * pow(4e6, Double($0) / 39_999)) }
        var worst = 0.0
        for p: Float in [0.43, 1 / 2.4, 2.4, 0.1, 0.95, 2.1] {
            for start in stride(from: 0, to: xs.count, by: Lanes.scalarCount) {
                var lanes = Lanes()
                for i in lanes.indices { lanes[i] = xs[min(start + i, xs.count - 1)] }
                let got = LaneMath.pow(lanes, p)
                for i in lanes.indices {
                    let x = Double(lanes[i]), want = Foundation.pow(x, Double(p))
                    worst = max(worst, abs(Double(got[i]) - want) / want)
                }
            }
        }
        XCTAssertLessThan(worst, 4e-6, "worst relative error \(worst)")
    }

    func testPowerOfZeroIsZeroAndExp2Saturates() {
        XCTAssertEqual(LaneMath.pow(Lanes(repeating: 0), 0.43), Lanes(repeating: 0))
        XCTAssertEqual(LaneMath.pow(Lanes(repeating: -0.5), 2.4), Lanes(repeating: 0), "negative values give 0")
        XCTAssertEqual(LaneMath.exp2(Lanes(repeating: -200)), Lanes(repeating: 0))
        XCTAssertEqual(LaneMath.exp2(Lanes(repeating: 3))[0], 8, accuracy: 8e-6)
        XCTAssertEqual(LaneMath.exp2(Lanes(repeating: -2.5))[0], Float(Foundation.pow(2, -2.5)), accuracy: 1e-7)
    }

    /// The sRGB curves within a thousandth of a code of `SRGBTransfer`'s (libm `powf`) over every
    /// value a kernel hands them, negatives included (odd symmetry).
    func testSRGBCurvesMatchTheScalarOnes() {
        var worst: Float = 0
        for start in stride(from: -2000, through: 6000, by: Lanes.scalarCount) {
            var x = Lanes()
            for i in x.indices { x[i] = Float(start + i) / 4000 }
            let (encoded, decoded) = (LaneMath.srgbEncode(x), LaneMath.srgbDecode(x))
            for i in x.indices {
                worst = max(worst, abs(encoded[i] - SRGBTransfer.encode(x[i])), abs(decoded[i] - SRGBTransfer.decode(x[i])))
            }
        }
        XCTAssertLessThan(worst * 255, 1e-3, "worst difference \(worst * 255) codes")
    }

    /// `LanePowerTable` within 2·10⁻⁶ relative of Foundation's power over its whole range, on a
    /// geometric grid fine enough to land inside every bucket several times (2⁻²⁰ to 2, 21
    /// octaves of 128 buckets; 200 000 points), for SmartBlackAndWhite's power and two others.
    func testPowerTableIsWithinTwoMillionthsRelative() {
        let low = Foundation.pow(2, -20.0), high = Double(Float(2).nextDown)
        let xs = (0..<200_000).map { Float(low * Foundation.pow(high / low, Double($0) / 199_999)) }
        for p in [0.43, 1 / 2.4, 0.9] {
            let table = LanePowerTable(power: p)
            var worst = 0.0
            for start in stride(from: 0, to: xs.count, by: Lanes.scalarCount) {
                var lanes = Lanes()
                for i in lanes.indices { lanes[i] = xs[min(start + i, xs.count - 1)] }
                let got = table(lanes)
                for i in lanes.indices {
                    let want = Foundation.pow(Double(lanes[i]), p)
                    worst = max(worst, abs(Double(got[i]) - want) / want)
                }
            }
            XCTAssertLessThan(worst, 2e-6, "x^\(p): worst relative error \(worst)")
        }
    }

    /// Below and above the table: 0 and negatives give 0, a value under 2⁻²⁰ reads as 2⁻²⁰, and
    /// one at or above 2 as just below 2.
    func testPowerTableEdges() {
        let table = LanePowerTable(power: 0.43)
        XCTAssertEqual(table(Lanes(0, -0.5, -.infinity, 0)), Lanes(repeating: 0))
        let floor = Float(Foundation.pow(Foundation.pow(2, -20.0), 0.43)), top = Float(Foundation.pow(2, 0.43))
        let got = table(Lanes(1e-9, Float(Foundation.pow(2, -20.0)), 2, 1000))
        XCTAssertEqual(got[0], floor, accuracy: floor * 2e-6)
        XCTAssertEqual(got[1], floor, accuracy: floor * 2e-6)
        XCTAssertEqual(got[2], top, accuracy: top * 2e-6)
        XCTAssertEqual(got[3], top, accuracy: top * 2e-6)
    }
}
