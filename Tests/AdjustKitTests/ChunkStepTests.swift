@testable import AdjustKit
import XCTest

/// Chunk steps (`ChunkStep`) next to each other in the stored frame's per-pixel tail run in one
/// pass over each row (`ChunkSteps`), and that pass gives every pixel the bits each step's own
/// single-pixel form gives it, one step after the other.
final class ChunkStepTests: XCTestCase {
    private func tail(_ filters: [any EditFilter], space: WorkingSpace = .linear) throws -> [any StoredRowStep] {
        try ColourProgram(chain: EditChain(filters), options: ColourOptions(workingSpace: space)).storedTail
    }

    /// SmartTone's local stages, then its global ones, SmartColor and SmartBlackAndWhite: one
    /// pass of two steps, the local light and a tabulated run of the three per-colour kernels
    /// (`TabulatedColourRun`). A step that runs the row its own way (a per-colour kernel that is
    /// not written on lanes) ends the pass, and the chunk steps after it start another.
    func testAdjacentChunkStepsShareOnePass() throws {
        let tone = try FusedRendererTests.realSmartTone()
        let steps = try tail([tone, SmartColor(color: -0.5), SmartBlackAndWhite(hue: 0.3)])
        XCTAssertEqual(steps.count, 1)
        XCTAssertTrue(steps.first is ChunkSteps)
        let pass = try XCTUnwrap(steps.first?.chunkSteps)
        XCTAssertEqual(pass.count, 2)
        XCTAssertTrue(pass.first is any StoredPositionalKernel)
        XCTAssertEqual((pass.last as? TabulatedColourRun)?.steps.count, 3)

        let curves = Curves(red: [Point(x: 0, y: 0.1), Point(x: 1, y: 0.9)])
        let split = try tail([tone, SmartColor(color: -0.5), curves, SmartBlackAndWhite(hue: 0.3)])
        XCTAssertEqual(split.map { $0.chunkSteps?.count }, [2, nil, 1])
    }

    /// A row of 777 pixels from column 13 (so the last chunk's last group is padded) of a
    /// 1000 × 250 image (too small to read the tabulated run's table, so it computes its
    /// kernels), through the one pass, against each step's single-pixel form in chain order
    /// (SmartTone's local stages read the light map at the pixel's own centre, the others one
    /// colour): the same bits, in both working spaces.
    func testOnePassGivesEachStepsOwnBits() throws {
        let tone = try FusedRendererTests.realSmartTone()
        let (size, x0, y, count) = (PixelSize(width: 1000, height: 250), 13, 201, 777)
        var random = SplitMix64(seed: 5)
        let input = (0..<(count * 3)).map { _ in Float(Double(random.next() >> 11) / Double(1 << 53)) }
        for space in WorkingSpace.allCases {
            let steps = try tail([tone, SmartColor(color: 0.6), SmartBlackAndWhite(hue: -0.2, offsetTone: 0.3)], space: space)
            let pass = try XCTUnwrap(steps.first as? ChunkSteps)
            let run = try XCTUnwrap(pass.steps.last as? TabulatedColourRun)
            XCTAssertFalse(run.readsTable(imageSize: size))
            let kernels = pass.steps.dropLast() + run.steps
            XCTAssertEqual(kernels.count, 4)
            var row = input
            row.withUnsafeMutableBufferPointer {
                pass.apply(row: $0.baseAddress!, count: count, x0: x0, y: y, imageSize: size)
            }
            let v = (Float(y) + 0.5) / Float(size.height)
            for i in 0..<count {
                var (r, g, b) = (input[i * 3], input[i * 3 + 1], input[i * 3 + 2])
                let u = (Float(x0 + i) + 0.5) / Float(size.width)
                for step in kernels {
                    if let placed = step as? any StoredPositionalKernel {
                        placed.apply(&r, &g, &b, u: u, v: v)
                    } else {
                        try XCTUnwrap(step as? any PixelKernel).apply(&r, &g, &b)
                    }
                }
                let got = (row[i * 3], row[i * 3 + 1], row[i * 3 + 2])
                guard got.0.bitPattern == r.bitPattern, got.1.bitPattern == g.bitPattern, got.2.bitPattern == b.bitPattern else {
                    return XCTFail("\(space) pixel \(i): one pass gave \(got), the steps one by one \((r, g, b))")
                }
            }
        }
    }
}
