@testable import AdjustKit
import XCTest

/// The Smart models' per-colour kernels after SmartTone's local light, read from a table
/// (`TabulatedColourRun`), against the same kernels computed (`ChunkSteps` of the run's steps):
/// within 1 code of the 8-bit output; colours the table does not cover, and runs or images it
/// is not used for, the computed bits themselves.
final class TabulatedColourRunTests: XCTestCase {
    /// Large enough to read the table.
    private let large = PixelSize(width: 4000, height: 3000)

    /// The tabulated run of `filters`' stored-frame tail (after SmartTone's local stages).
    private func run(_ filters: [any EditFilter], space: WorkingSpace) throws -> TabulatedColourRun {
        let tail = try ColourProgram(chain: EditChain(filters), options: ColourOptions(workingSpace: space)).storedTail
        let pass = try XCTUnwrap(tail.first?.chunkSteps)
        return try XCTUnwrap(pass.last as? TabulatedColourRun)
    }

    private func chains() throws -> [(String, [any EditFilter])] {
        let tone = try FusedRendererTests.realSmartTone()
        return [("Tone + Color + B&W", [tone, SmartColor(color: 0.6), SmartBlackAndWhite(hue: -0.2, offsetTone: 0.3)]),
                ("Tone + Color", [tone, SmartColor(color: -0.7)])]
    }

    /// `row` through `step` as a run of `size`'s row 7 from column 0.
    private func applied(_ step: any StoredRowStep, to row: [Float], size: PixelSize) -> [Float] {
        var out = row
        out.withUnsafeMutableBufferPointer { step.apply(row: $0.baseAddress!, count: row.count / 3, x0: 0, y: 7, imageSize: size) }
        return out
    }

    /// 60 000 random colours, uniform in the encoded values, as working values.
    private func randomColours(space: WorkingSpace, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<180_000).map { _ in space.working(fromEncoded: Float(Double(random.next() >> 11) / Double(1 << 53))) }
    }

    func testTableIsWithinOneCodeOfTheKernels() throws {
        for space in WorkingSpace.allCases {
            for (name, filters) in try chains() {
                let run = try run(filters, space: space)
                XCTAssertTrue(run.readsTable(imageSize: large))
                let input = randomColours(space: space, seed: 11)
                let table = applied(run, to: input, size: large)
                let exact = applied(ChunkSteps(steps: run.steps), to: input, size: large)
                var (differing, worst) = (0, 0)
                for i in input.indices {
                    let d = abs(Int(space.byte(table[i])) - Int(space.byte(exact[i])))
                    if d > 0 { differing += 1 }
                    worst = max(worst, d)
                }
                XCTAssertLessThanOrEqual(worst, 1, "\(name), \(space)")
                XCTAssertLessThan(Double(differing) / Double(input.count), 0.05, "\(name), \(space): \(differing) values differ")
                // The table is read, not the kernels run: some value differs in its bits.
                XCTAssertTrue(zip(table, exact).contains { $0.bitPattern != $1.bitPattern }, "\(name), \(space)")
            }
        }
    }

    /// Colours outside [0, 1] and NaN: their groups of four computed, the kernels' own bits.
    func testColoursOutsideTheGridAreComputed() throws {
        for space in WorkingSpace.allCases {
            let run = try run(try chains()[0].1, space: space)
            var input = randomColours(space: space, seed: 12)
            let odd: [Float] = [1.02, -0.01, .nan, 3, -2, .infinity]
            for (k, value) in odd.enumerated() { input[k * 300 + k % 3] = value }   // pixels 100·k, one channel
            let table = applied(run, to: input, size: large)
            let exact = applied(ChunkSteps(steps: run.steps), to: input, size: large)
            for k in odd.indices {
                let group = (k * 100) / 4 * 4
                for i in (group * 3)..<(group * 3 + 12) {
                    XCTAssertEqual(table[i].bitPattern, exact[i].bitPattern, "\(space): value \(odd[k]), sample \(i)")
                }
            }
        }
    }

    /// An image under the table's size, and a run of one kernel (SmartTone's global stages after
    /// its local ones, alone), compute every pixel.
    func testSmallImagesAndSingleKernelsAreComputed() throws {
        let tone = try FusedRendererTests.realSmartTone()
        for space in WorkingSpace.allCases {
            let small = PixelSize(width: 1000, height: 250)
            let run = try run(try chains()[0].1, space: space)
            XCTAssertFalse(run.readsTable(imageSize: small))
            let single = try self.run([tone], space: space)
            XCTAssertEqual(single.steps.count, 1)
            XCTAssertFalse(single.readsTable(imageSize: large))
            let input = randomColours(space: space, seed: 13)
            for (step, size) in [(run, small), (single, large)] {
                let got = applied(step, to: input, size: size)
                let exact = applied(ChunkSteps(steps: step.steps), to: input, size: size)
                XCTAssertTrue(zip(got, exact).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(space), \(step.steps.count) kernels")
            }
        }
    }
}
