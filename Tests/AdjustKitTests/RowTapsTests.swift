@testable import AdjustKit
import CSamplerIntrinsics
import XCTest

/// `adjust_row_taps` (the interior sampler's block of positions and weights) against the
/// per-pixel arithmetic it replaces: `RowPositions.source`, then ⌊·⌋, the fractions rounded to
/// Float and the four bilinear weights in Float, bit for bit.
final class RowTapsTests: XCTestCase {
    func testBlockIsThePerPixelArithmeticBitForBit() {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<200 {
            let angle = Double.random(in: -0.8...0.8, using: &generator)
            let scale = Double.random(in: 0.05...3, using: &generator)
            let height = Double(Int.random(in: 3_000...9_000, using: &generator))
            let (a, b) = (cos(angle) * scale, sin(angle) * scale)
            let positions = RowPositions(a: a, b: b, cqy: Double.random(in: 2_500...3_000, using: &generator),
                                         dqy: Double.random(in: -1_000...(-500), using: &generator), sourceHeight: height)
            let count = Int.random(in: 1...97, using: &generator)
            let first = Double.random(in: 0...800, using: &generator)
            // Column centres at a pitch, as a grid row has them, and some at odd places.
            let centres = (0..<count).map { i in
                trial % 3 == 0 ? Double.random(in: 0...900, using: &generator) : first + Double(i) * scale + 0.5
            }
            var (x0, y0) = ([Int32](repeating: -1, count: count), [Int32](repeating: -1, count: count))
            var weights = [Float](repeating: .nan, count: 4 * count)
            adjust_row_taps(centres, count, positions.a, positions.cqy, positions.b, positions.dqy, positions.sourceHeight,
                            &x0, &y0, &weights)
            for i in 0..<count {
                let (fx, fy) = positions.source(centres[i])
                XCTAssert(fx >= 0 && fy >= 0, "trial \(trial): the case leaves the interior")
                let (x, y) = (fx.rounded(.down), fy.rounded(.down))
                let (wx, wy) = (Float(fx - x), Float(fy - y))
                XCTAssertEqual(Int(x0[i]), Int(x), "trial \(trial), column \(i): x0")
                XCTAssertEqual(Int(y0[i]), Int(y), "trial \(trial), column \(i): y0")
                let expected = [(1 - wx) * (1 - wy), wx * (1 - wy), (1 - wx) * wy, wx * wy]
                XCTAssertEqual(weights[(4 * i)..<(4 * i + 4)].map(\.bitPattern), expected.map(\.bitPattern),
                               "trial \(trial), column \(i): weights")
            }
        }
    }
}
