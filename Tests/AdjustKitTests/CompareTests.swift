import AdjustKit
import Foundation
import XCTest

/// `ImageComparator` on hand-made images, and `adjust compare` end to end.
final class CompareTests: XCTestCase {
    typealias Run = BinaryRun

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-compare")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: CLITests.binary), "build the adjust product first")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func adjust(_ arguments: String...) throws -> Run {
        try BinaryRun.run(CLITests.binary, arguments, in: scratch)
    }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    private func image(_ width: Int, _ height: Int, _ pixels: [UInt8]) -> RGBA8Image {
        RGBA8Image(size: PixelSize(width: width, height: height), pixels: pixels)
    }

    // MARK: - Library

    func testFiguresOnATinyOpaqueImage() throws {
        let a = image(2, 1, [10, 20, 30, 255, 0, 0, 0, 255])
        let b = image(2, 1, [13, 20, 26, 255, 0, 0, 1, 255])
        let c = try ImageComparator.compare(a, b)
        XCTAssertFalse(c.comparesAlpha)
        XCTAssertEqual(c.channels.map(\.name), ["R", "G", "B"])
        XCTAssertEqual(c.channels.map(\.maxDifference), [3, 0, 4])
        XCTAssertEqual(c.channels.map(\.meanDifference), [1.5, 0, 2.5])
        XCTAssertEqual(c.sumOfSquares, 9 + 16 + 1)
        XCTAssertEqual(c.meanSquaredError, 26.0 / 6)
        XCTAssertEqual(c.psnr, 10 * log10(255.0 * 255.0 / (26.0 / 6)))
        XCTAssertEqual(c.differingPixels, 2)
        XCTAssertEqual(c.maxDifference, 4)
        XCTAssertFalse(c.isIdentical)
    }

    func testAlphaIsComparedWhenEitherImageIsTranslucent() throws {
        let a = image(2, 1, [10, 20, 30, 255, 5, 5, 5, 255])
        let b = image(2, 1, [10, 20, 30, 128, 5, 5, 7, 255])
        let c = try ImageComparator.compare(a, b)
        XCTAssertTrue(c.comparesAlpha)
        XCTAssertEqual(c.channels.map(\.name), ["R", "G", "B", "A"])
        XCTAssertEqual(c.channels.map(\.maxDifference), [0, 0, 2, 127])
        XCTAssertEqual(c.channels.map(\.meanDifference), [0, 0, 1, 63.5])
        XCTAssertEqual(c.sumOfSquares, 4 + 127 * 127)
        XCTAssertEqual(c.psnr, 10 * log10(255.0 * 255.0 / (Double(4 + 127 * 127) / 8)))
    }

    func testIdenticalImagesHaveInfinitePSNR() throws {
        let a = image(1, 2, [1, 2, 3, 255, 4, 5, 6, 255])
        let c = try ImageComparator.compare(a, a)
        XCTAssertTrue(c.isIdentical)
        XCTAssertEqual(c.psnr, .infinity)
        XCTAssertEqual(c.maxDifference, 0)
        XCTAssertEqual(c.differingPixels, 0)
    }

    func testDifferentSizesAreRefused() {
        let a = image(2, 1, [UInt8](repeating: 255, count: 8))
        let b = image(1, 2, [UInt8](repeating: 255, count: 8))
        XCTAssertThrowsError(try ImageComparator.compare(a, b)) { error in
            XCTAssertEqual("\(error)", "the images differ in size: 2×1 and 1×2")
        }
    }

    func testDifferenceImageIsAmplifiedEightTimesAndOpaque() throws {
        let a = image(2, 1, [10, 20, 30, 255, 0, 100, 0, 0])
        let b = image(2, 1, [13, 20, 26, 255, 40, 100, 0, 255])
        let d = try ImageComparator.differenceImage(a, b)
        XCTAssertEqual(d.pixels, [24, 0, 32, 255, 255, 0, 0, 255])
    }

    func testLoadReadsPNGAndJPEGAndRefusesOtherFiles() throws {
        let png = try ImageComparator.load(TestFixtures.path("Fixtures/golden/ios5-sample.png"))
        XCTAssertEqual(png.format, .png)
        XCTAssertEqual(png.image.size, PixelSize(width: 355, height: 485))
        let jpeg = try ImageComparator.load(TestFixtures.image("Landscape_6.jpg"))
        XCTAssertEqual(jpeg.format, .jpeg)
        let stored = try JPEGDecoder().decode(TestFixtures.bytes(TestFixtures.image("Landscape_6.jpg")))
        XCTAssertEqual(jpeg.image.size, stored.size, "no EXIF orientation applied")
        XCTAssertTrue(jpeg.image.isOpaque)
        XCTAssertThrowsError(try ImageComparator.load(TestFixtures.xmp("ios5-crop.xmp"))) { error in
            XCTAssertEqual((error as? FileError)?.kind, .invalidContent)
        }
    }

    // MARK: - CLI

    /// The golden image with pixel (x, y) raised by +10 in R, written as a PNG; returns the path.
    private func goldenWithOnePixelChanged() throws -> (golden: String, changed: String, index: Int) {
        let golden = TestFixtures.path("Fixtures/golden/ios5-sample.png")
        var img = try PNGCodec.decode(TestFixtures.bytes(golden))
        let index = (0..<img.size.pixelCount).first { img.pixels[$0 * 4] <= 245 && $0 > 1000 }!
        img.pixels[index * 4] += 10
        let changed = path("changed.png")
        try Data(PNGCodec.encode(img)).write(to: URL(fileURLWithPath: changed))
        return (golden, changed, index)
    }

    func testIdenticalImagesPrintInfAndExitZero() throws {
        let golden = TestFixtures.path("Fixtures/golden/ios5-sample.png")
        let text = try adjust("compare", golden, golden, "--max-diff", "0", "--min-psnr", "1000")
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stderr, "")
        XCTAssertTrue(text.stdout.contains("PSNR: inf\n"), text.stdout)
        XCTAssertTrue(text.stdout.contains("R          0  0\n"), text.stdout)

        let json = try adjust("compare", golden, golden, "--json")
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["psnr"] as? String, "inf")
        XCTAssertEqual(object["withinThresholds"] as? Bool, true)
    }

    func testOnePixelChangeGivesExactFigures() throws {
        let (golden, changed, _) = try goldenWithOnePixelChanged()
        let pixels = 355.0 * 485.0
        let expectedPSNR = 10 * log10(255.0 * 255.0 / (100.0 / (3 * pixels)))
        XCTAssertEqual(expectedPSNR, 85.26171707, accuracy: 1e-8)

        let json = try adjust("compare", golden, changed, "--json")
        XCTAssertEqual(json.status, 0, "no thresholds: exit 0")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let psnr = try XCTUnwrap(object["psnr"] as? Double)
        XCTAssertEqual(psnr, expectedPSNR, accuracy: 1e-9)
        XCTAssertEqual(object["differingPixels"] as? Int, 1)
        XCTAssertEqual(object["alphaCompared"] as? Bool, false)
        let channels = try XCTUnwrap(object["channels"] as? [String: [String: Any]])
        XCTAssertEqual(Set(channels.keys), ["R", "G", "B"])
        XCTAssertEqual(channels["R"]?["max"] as? Int, 10)
        XCTAssertEqual(try XCTUnwrap(channels["R"]?["mean"] as? Double), 10 / pixels, accuracy: 1e-15)
        for name in ["G", "B"] {
            XCTAssertEqual(channels[name]?["max"] as? Int, 0)
            XCTAssertEqual(channels[name]?["mean"] as? Double, 0)
        }

        let strict = try adjust("compare", golden, changed, "--max-diff", "0")
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stdout.contains("PSNR: 85.2617 dB\n"), strict.stdout)
        XCTAssertTrue(strict.stdout.contains("R         10  5.80804e-05\n"), strict.stdout)
        XCTAssertTrue(strict.stdout.contains("G          0  0\n"), strict.stdout)
        XCTAssertEqual(strict.stderr.split(separator: "\n").count, 1, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("max difference 10 (R) exceeds --max-diff 0"), strict.stderr)

        let tolerant = try adjust("compare", golden, changed, "--max-diff", "10")
        XCTAssertEqual(tolerant.status, 0, tolerant.stderr)
        XCTAssertEqual(tolerant.stderr, "")

        let psnrFails = try adjust("compare", golden, changed, "--min-psnr", "90")
        XCTAssertEqual(psnrFails.status, 1)
        XCTAssertTrue(psnrFails.stderr.contains("PSNR 85.2617 dB is below --min-psnr 90"), psnrFails.stderr)
        XCTAssertEqual(try adjust("compare", golden, changed, "--min-psnr", "85", "--max-diff", "10").status, 0)
        let both = try adjust("compare", golden, changed, "--min-psnr", "90", "--max-diff", "9")
        XCTAssertEqual(both.status, 1)
        XCTAssertEqual(both.stderr.split(separator: "\n").count, 1, both.stderr)
        XCTAssertTrue(both.stderr.contains("--max-diff 9") && both.stderr.contains("--min-psnr 90"), both.stderr)
    }

    func testDiffImageIsWritten() throws {
        let (golden, changed, index) = try goldenWithOnePixelChanged()
        let out = path("diff.png")
        let run = try adjust("compare", golden, changed, "--diff-image", out, "--max-diff", "0")
        XCTAssertEqual(run.status, 1, "the diff image is written even when a threshold fails")
        let diff = try PNGCodec.decode(TestFixtures.bytes(out))
        XCTAssertEqual(diff.size, PixelSize(width: 355, height: 485))
        var expected = [UInt8](repeating: 0, count: diff.size.pixelCount * 4)
        for i in 0..<diff.size.pixelCount { expected[i * 4 + 3] = 255 }
        expected[index * 4] = 80
        XCTAssertEqual(diff.pixels, expected)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        XCTAssertEqual(leftovers.filter { $0.hasPrefix(".") }, [], "no temporary files left")
    }

    func testDifferentSizesExit65WithBothSizes() throws {
        let a = TestFixtures.path("Fixtures/golden/ios5-sample.png")
        let b = TestFixtures.path("Fixtures/golden/seed-example.png")
        let run = try adjust("compare", a, b, "--diff-image", path("diff.png"))
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("adjust: error: \(b): "), run.stderr)
        XCTAssertTrue(run.stderr.contains("243×385") && run.stderr.contains("355×485"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("diff.png")))
    }

    func testJPEGInputsAndErrors() throws {
        let jpeg = TestFixtures.image("Landscape_6.jpg")
        let same = try adjust("compare", jpeg, jpeg, "--max-diff", "0")
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertTrue(same.stdout.contains("(JPEG, "), same.stdout)
        XCTAssertTrue(same.stdout.contains("PSNR: inf"), same.stdout)

        let missing = try adjust("compare", jpeg, path("nope.png"))
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)

        let notImage = try adjust("compare", jpeg, TestFixtures.xmp("ios5-crop.xmp"))
        XCTAssertEqual(notImage.status, 65)
        XCTAssertTrue(notImage.stderr.contains("not a PNG or JPEG"), notImage.stderr)

        XCTAssertEqual(try adjust("compare", jpeg, jpeg, "--max-diff", "256").status, 64)
        XCTAssertEqual(try adjust("compare", jpeg, jpeg, "--min-psnr", "nan").status, 64)
        XCTAssertEqual(try adjust("compare", jpeg, jpeg, "--diff-image", path("d.jpg")).status, 64)

        let input = path("a.png")
        try FileManager.default.copyItem(atPath: TestFixtures.path("Fixtures/golden/ios5-sample.png"), toPath: input)
        let before = try TestFixtures.bytes(input)
        let overwrite = try adjust("compare", input, input, "--diff-image", input)
        XCTAssertEqual(overwrite.status, 73, overwrite.stderr)
        XCTAssertEqual(try TestFixtures.bytes(input), before, "an input is never overwritten")
    }
}
