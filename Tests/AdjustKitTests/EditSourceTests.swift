import AdjustKit
import Foundation
import XCTest

/// Where edits come from (xmp-format.md §8): XMP files, metadata dumps, a JPEG's own XMP,
/// sidecars, or nothing.
final class EditSourceTests: XCTestCase {
    private var scratch: URL!
    private let ios5 = EditChain(affine: .translation(-331, -161), crop: Crop(x: 0, y: 0, width: 1938, height: 1420))

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-source")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private var packet: String { get throws { try String(contentsOfFile: TestFixtures.xmp("ios5-crop.xmp"), encoding: .utf8) } }

    /// A copy of a fixture JPEG with an XMP APP1 segment inserted after SOI.
    private func jpegWithXMP(_ xmp: String) throws -> [UInt8] {
        let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    func testJSONMetadataDump() throws {
        let json = try JSONSerialization.data(withJSONObject: ["asset": ["AdjustmentXMP": try packet, "other": 1]])
        let loaded = try EditSource().load(editFile: try write("dump.json", [UInt8](json)))
        XCTAssertEqual(loaded.chain, ios5)
        guard case .metadataDump = loaded.origin else { return XCTFail("\(loaded.origin)") }
    }

    func testPlistMetadataDumps() throws {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let plist = try PropertyListSerialization.data(fromPropertyList: ["AdjustmentXMP": try packet],
                                                           format: format, options: 0)
            let loaded = try EditSource().load(editFile: try write("dump-\(format.rawValue).plist", [UInt8](plist)))
            XCTAssertEqual(loaded.chain, ios5, "\(format)")
        }
    }

    func testEmbeddedAasXMPIsFoundAndUsed() throws {
        let path = try write("embedded.jpg", try jpegWithXMP(try packet))
        let found = try EditSource().find(forImage: path, jpeg: try TestFixtures.bytes(path))
        XCTAssertEqual(found.chain, ios5)
        XCTAssertEqual(found.origin, .embedded(path))
        XCTAssertEqual(try EditSource().load(editFile: path).chain, ios5, "--xmp may name such a JPEG")
    }

    func testEmbeddedXMPWithoutAasFallsBackToTheSidecar() throws {
        let foreign = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="3"/></rdf:RDF></x:xmpmeta>
        """
        let path = try write("IMG_1.jpg", try jpegWithXMP(foreign))
        XCTAssertEqual(try EditSource().find(forImage: path, jpeg: try TestFixtures.bytes(path)).origin, .none)
        let sidecar = try write("IMG_1.xmp", Array(try packet.utf8))
        let found = try EditSource().find(forImage: path, jpeg: try TestFixtures.bytes(path))
        XCTAssertEqual(found.origin, .sidecar(sidecar))
        XCTAssertEqual(found.chain, ios5)
    }

    /// Broken XMP without a trace of the edit's namespace is left out with a warning (xmp-format.md §8);
    /// broken XMP that shows one is the edit itself, broken: an error naming the image.
    func testBrokenEmbeddedXMPIsAnErrorNamingTheImage() throws {
        let unrelated = try write("unrelated.jpg", try jpegWithXMP("<x:xmpmeta><unclosed></x:xmpmeta>"))
        let found = try EditSource().find(forImage: unrelated, jpeg: try TestFixtures.bytes(unrelated))
        XCTAssertEqual(found.origin, .none)
        XCTAssertEqual(found.warnings.count, 1)
        XCTAssertTrue(found.warnings[0].hasPrefix("embedded XMP unreadable, rendered without it: malformed XML"), "\(found.warnings)")
        let path = try write("broken.jpg", try jpegWithXMP(#"<x:xmpmeta xmlns:aas="http://ns.apple.com/adjustment-settings/1.0/"><unclosed></x:xmpmeta>"#))
        XCTAssertThrowsError(try EditSource().find(forImage: path, jpeg: try TestFixtures.bytes(path))) { error in
            let fileError = error as? FileError
            XCTAssertEqual(fileError?.path, path)
            XCTAssertTrue(fileError?.problem.hasPrefix("embedded XMP: malformed XML") ?? false, "\(error)")
        }
    }

    func testDumpWithoutTheKeyNamesTheProblem() throws {
        let path = try write("nokey.json", Array(#"{"Other": "x"}"#.utf8))
        XCTAssertThrowsError(try EditSource().load(editFile: path)) { error in
            XCTAssertEqual((error as? FileError)?.kind, .invalidContent)
            XCTAssertTrue("\(error)".contains("AdjustmentXMP"), "\(error)")
        }
    }
}
