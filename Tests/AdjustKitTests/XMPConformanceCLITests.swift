import AdjustKit
import Foundation
import XCTest
import XMPParse

/// Only the edit's own XMP is strict: Fixtures/xmp-conformance (scripts/make-xmp-conformance-fixtures)
/// holds a 120×80 photo whose XMP repeats `exif:Make`, as a 2003 Sony camera file's does.
final class XMPConformanceCLITests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-xmpconf")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func fixture(_ name: String) -> String { TestFixtures.path("Fixtures/xmp-conformance/\(name)") }
    private let repeatedMake = "property {http://ns.adobe.com/exif/1.0/}Make appears twice; the first is kept"

    func testARepeatedNonAdjustmentPropertyRendersWithOneWarning() throws {
        let input = fixture("sony-make-twice.jpg"), output = scratch.appendingPathComponent("out.jpg").path
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", input, "-o", output])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: warning: \(input): embedded XMP: \(repeatedMake)\n"
                                   + "adjust: note: \(input): no edit found; written upright\n")
        XCTAssertEqual(try JPEGDecoder().header(of: TestFixtures.bytes(output)).size, PixelSize(width: 120, height: 80))
    }

    /// The edit beside the repeat is read and rendered (the 60×40 crop), and the output carries
    /// the XMP as it was, both exif:Make elements included, only the aas: properties removed.
    func testTheEditBesideARepeatedPropertyIsRenderedAndTheXMPCarriedAsIs() throws {
        let input = fixture("sony-make-twice-with-edit.jpg"), output = scratch.appendingPathComponent("out.jpg").path
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", input, "-o", output])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: warning: \(input): embedded XMP: \(repeatedMake)\n")
        let bytes = try TestFixtures.bytes(output)
        XCTAssertEqual(try JPEGDecoder().header(of: bytes).size, PixelSize(width: 60, height: 40))
        let packet = String(decoding: try XCTUnwrap(JPEGSegments.xmpPacket(in: bytes)), as: UTF8.self)
        XCTAssertEqual(packet.components(separatedBy: "<exif:Make>SONY</exif:Make>").count - 1, 2, packet)
        XCTAssertFalse(packet.contains("aas:Crop"), packet)
    }

    func testARepeatedAdjustmentPropertyIsRefusedNamingIt() throws {
        let input = fixture("aas-cropw-twice.jpg"), output = scratch.appendingPathComponent("out.jpg").path
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", input, "-o", output])
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.stderr, "adjust: error: \(input): embedded XMP: property "
                                   + "{http://ns.apple.com/adjustment-settings/1.0/}CropW appears twice\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    /// `adjust batch` records the warning with the photo and renders it.
    func testBatchRecordsTheWarning() throws {
        let out = scratch.appendingPathComponent("batch").path
        let run = try BinaryRun.run(CLITests.binary, ["batch", fixture("sony-make-twice.jpg"), "--out", out, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains(#""status":"no-edit""#) || run.stdout.contains(#""status" : "no-edit""#), run.stdout)
        XCTAssertTrue(run.stdout.contains("Make appears twice; the first is kept"), run.stdout)
    }
}
