import AdjustKit
import Foundation
import XCTest

/// Pure-translation crops, on every orientation: the PNG written is, pixel for pixel, the
/// corresponding sub-rectangle of the decoded original, then oriented.
final class TranslationCropTests: XCTestCase {
    /// `rowFromBottom`: the CI y of the kept rectangle's top edge; the raster row is H − that.
    private func assertPNGIsOrientedSubRectangle(image: String, xmp: String, column: Int, rowFromBottom: Int,
                                                 width: Int, height: Int) throws {
        let edit = try PhotoEdit(imagePath: TestFixtures.image(image), editPath: TestFixtures.xmp(xmp))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("translation-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try edit.write(try edit.render().encoded(as: .png), to: out)
        let written = TestImage(try PNGCodec.decode(try TestFixtures.bytes(out)))

        let original = try TestFixtures.decoded(image)
        let orientation = try TestFixtures.exifOrientation(image)
        let row = original.height - rowFromBottom
        let expected = GeometryOracle.orient(original.crop(x: column, y: row, width: width, height: height), orientation)
        let got = written.rgb()
        XCTAssertEqual([got.width, got.height], [expected.width, expected.height], "\(image) with \(xmp)")
        // Compared by summary so that a failure prints figures, not megabytes of pixels.
        XCTAssertTrue(got == expected, "\(image) with \(xmp): \(ImageMetrics.differences(got, expected))")
    }

    func testEveryOrientation() throws {
        // translate(−250, −180), crop 640 × 410 at the origin: columns 250…889, CI rows 180…590,
        // i.e. raster rows H − 590 … H − 181 (H = 1200, or 1800 for 5–8, stored on their side).
        for n in 0...8 {
            try assertPNGIsOrientedSubRectangle(image: "Landscape_\(n).jpg", xmp: "translate-crop.xmp",
                                                column: 250, rowFromBottom: 590, width: 640, height: 410)
        }
    }

    func testIOS5SampleOnAnOrientation6IPhonePhoto() throws {
        // xmp-format.md §2: kept stored rows 355…1774, columns 331…2268.
        try assertPNGIsOrientedSubRectangle(image: "iphone4s-2592x1936.jpg", xmp: "ios5-crop.xmp",
                                            column: 331, rowFromBottom: 1936 - 355, width: 1938, height: 1420)
    }

    func testSeedExampleKeepsColumns108To1648AndRowsHMinus1938ToHMinus966() throws {
        try assertPNGIsOrientedSubRectangle(image: "canon-a85.jpg", xmp: "seed-example.xmp",
                                            column: 108, rowFromBottom: 1938, width: 1541, height: 973)
    }

    func testHeightNotMultipleOf8() throws {
        try assertPNGIsOrientedSubRectangle(image: "landscape-1800x1195.jpg", xmp: "translate-crop.xmp",
                                            column: 250, rowFromBottom: 590, width: 640, height: 410)
    }
}
