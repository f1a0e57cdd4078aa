@testable import AdjustKit
import XCTest

/// `ChunkPass`, the steps of a pass called in place: each step runs on every chunk, in chain
/// order, with the chunk's place, and `ChunkSteps` runs a row through its pass as the steps
/// would one after another.
final class ChunkPassTests: XCTestCase {
    /// Doubles red, then adds `add` and the pixel's column to it: the order of two of these shows.
    private struct Step: ChunkStep {
        let add: Float
        func apply(_ chunk: RGBPlanes, x: Int, y: Int, imageSize: PixelSize) {
            for group in 0..<chunk.groups {
                let columns = Lanes(Float(x + 4 * group), Float(x + 4 * group + 1), Float(x + 4 * group + 2),
                                    Float(x + 4 * group + 3))
                chunk.r[group] = chunk.r[group] * 2 + Lanes(repeating: add) + columns
            }
        }

        func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
            RGBPlanes.forEachChunk(row: row, count: count) { chunk, start in apply(chunk, x: x0 + start, y: y, imageSize: imageSize) }
        }
    }

    func testStepsRunInChainOrderOnEveryChunk() {
        let count = 600   // two whole chunks of 256 pixels and a part of one
        let size = PixelSize(width: 1000, height: 1)
        var row = (0..<count * 3).map { Float($0 % 7) }
        var expected = row
        let steps: [any ChunkStep] = [Step(add: 1), Step(add: 10), Step(add: 100)]
        expected.withUnsafeMutableBufferPointer { p in
            for step in steps { step.apply(row: p.baseAddress!, count: count, x0: 5, y: 0, imageSize: size) }
        }
        row.withUnsafeMutableBufferPointer { p in
            ChunkSteps(steps: steps).apply(row: p.baseAddress!, count: count, x0: 5, y: 0, imageSize: size)
        }
        XCTAssertEqual(row, expected)
        // Red of pixel 0: ((0·2 + 1 + 5)·2 + 10 + 5)·2 + 100 + 5 = 159; another order would differ.
        XCTAssertEqual(row[0], 159)
    }
}
