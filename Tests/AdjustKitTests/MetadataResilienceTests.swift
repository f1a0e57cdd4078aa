import AdjustKit
import CZlib
import Foundation
import XCTest
import XMPParse

/// Metadata never costs a photo (issue 20 scope 6), one test per item, on the built binary where
/// the photo is what matters. The JPEGs are made by scripts/make-metadata-resilience-fixtures
/// (Fixtures/xmp-conformance/, a 120×80 photo); the HEIC is Fixtures/heic/iphone-xr-irot270.heic.
final class MetadataResilienceTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws { scratch = try ScratchFolder.make("adjust-metaresilience") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func fixture(_ name: String) -> String { TestFixtures.path("Fixtures/xmp-conformance/\(name)") }
    private func output(_ name: String) -> String { scratch.appendingPathComponent(name).path }
    private let repeatedMake = "embedded XMP: property {http://ns.adobe.com/exif/1.0/}Make appears twice; the first is kept"
    private let trailerCut = "embedded XMP: the packet's closing <?xpacket end…?> is cut short; read without it"

    // MARK: 1. A packet exiftool reads is read

    /// Metadata-extractor issue 308's shape: the XMP APP1 stops 2 bytes short, so the packet ends
    /// `<?xpacket end="w"` (its `?>` is stray bytes libjpeg skips), and it repeats exif:Make. The
    /// edit in it is rendered (the 60×40 crop); the output carries the packet, trailer left out.
    func testAPacketWithACutTrailerAndARepeatedPropertyIsRead() throws {
        let input = fixture("trailer-cut-with-edit.jpg"), out = output("cut.jpg")
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", input, "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: warning: \(input): \(trailerCut)\n"
                                   + "adjust: warning: \(input): \(repeatedMake)\n"
                                   + "adjust: warning: \(input): harmless JPEG warning, pixels intact: "
                                   + "Corrupt JPEG data: 2 extraneous bytes before marker 0xdb\n")
        let bytes = try TestFixtures.bytes(out)
        XCTAssertEqual(try JPEGDecoder().header(of: bytes).size, PixelSize(width: 60, height: 40))
        let packet = String(decoding: try XCTUnwrap(JPEGSegments.xmpPacket(in: bytes)), as: UTF8.self)
        XCTAssertTrue(packet.contains("<exif:Make>SONY</exif:Make>"), packet)
        XCTAssertFalse(packet.contains("aas:"), packet)

        // Every cut of the trailer, from its '<' to its last character, reads the same packet; a
        // cut anywhere else still refuses the packet as malformed.
        let whole = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:Make="SONY"/></rdf:RDF></x:xmpmeta>"#.utf8)
        let trailer = Array(#"<?xpacket end="w"?>"#.utf8)
        for cut in 1..<trailer.count {
            let parsed = try XMPPacketParser.parse(whole + Array(" \n".utf8) + trailer.prefix(cut))
            XCTAssertEqual(parsed["http://ns.adobe.com/exif/1.0/", "Make"], .text("SONY"), "cut at \(cut)")
            XCTAssertEqual(parsed.warnings, [PacketTrailer.Repair.unclosed.description])
        }
        XCTAssertEqual(try XMPPacketParser.parse(whole + trailer + Array("\u{1}junk".utf8)).warnings,
                       [PacketTrailer.Repair.junkAfter(count: 5).description])
        XCTAssertThrowsError(try XMPPacketParser.parse(Array(whole.dropLast(3)) + trailer.prefix(5)))
    }

    // MARK: 2. An unreadable packet without the edit's namespace is left out

    func testAnUnreadablePacketWithoutTheEditIsLeftOutWithOneWarningAndWithItIsRefused() throws {
        let input = fixture("unreadable-xmp.jpg"), out = output("unreadable.jpg")
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", input, "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        // One warning: the carry-over leaves the packet out without a second one.
        XCTAssertEqual(run.stderr, "adjust: warning: \(input): embedded XMP unreadable, rendered without it: "
                                   + "malformed XML at line 1: Opening and ending tag mismatch: Make line 1 and Model\n"
                                   + "adjust: note: \(input): no edit found; written upright\n")
        let bytes = try TestFixtures.bytes(out)
        XCTAssertEqual(try JPEGDecoder().header(of: bytes).size, PixelSize(width: 120, height: 80))
        XCTAssertNil(try JPEGSegments.xmpPacket(in: bytes))

        let withEdit = fixture("unreadable-xmp-with-edit.jpg"), refusedOut = output("refused.jpg")
        let refused = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", withEdit, "-o", refusedOut])
        XCTAssertEqual(refused.status, 65)
        XCTAssertEqual(refused.stderr, "adjust: error: \(withEdit): embedded XMP: malformed XML at line 1: "
                                       + "Opening and ending tag mismatch: Make line 1 and Model\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: refusedOut))
    }

    // MARK: 3. The segment scan resynchronises as libjpeg does

    /// An APP11 whose length says 1, then stray bytes: libjpeg (djpeg) decodes the file with a
    /// warning, and so does adjust, reading the edit's XMP after them.
    func testASegmentWithABogusLengthIsSkippedAsLibjpegSkipsIt() throws {
        let input = fixture("bogus-segment-length-with-edit.jpg"), out = output("bogus.jpg")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/djpeg") {
            let djpeg = try BinaryRun.run("/usr/bin/djpeg", ["-outfile", "/dev/null", input])
            XCTAssertEqual(djpeg.status, 2, "djpeg decodes it with a warning: \(djpeg.stderr)")
        }
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", input, "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: warning: \(input): JPEG segment 0xEB at offset 2 declares a length of 1, "
                                   + "under its own 2 bytes; the metadata scan resumed at the next marker, as libjpeg does\n"
                                   + "adjust: warning: \(input): harmless JPEG warning, pixels intact: "
                                   + "Corrupt JPEG data: 5 extraneous bytes before marker 0xe1\n")
        XCTAssertEqual(try JPEGDecoder().header(of: TestFixtures.bytes(out)).size, PixelSize(width: 60, height: 40))
    }

    // MARK: 4. PNG outputs keep the ICC profile and EXIF

    func testPNGOutputsCarryTheICCProfileAndTheRewrittenEXIF() throws {
        // An iPhone HEIC: Display P3, EXIF Orientation 6 (the pixels turned by irot).
        let heic = HEICTests.irot270, png = output("heic.png")
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", heic, "-o", png, "--max-size", "320"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let chunks = try Self.chunks(TestFixtures.bytes(png))
        XCTAssertEqual(Array(chunks.map(\.type).prefix(3)), ["IHDR", "iCCP", "eXIf"])
        XCTAssertFalse(chunks.contains { $0.type == "sRGB" }, "sRGB and iCCP together")
        let iccp = try XCTUnwrap(chunks.first { $0.type == "iCCP" }).data
        let keyword = Array("ICC profile".utf8) + [0, 0]
        XCTAssertEqual(Array(iccp.prefix(keyword.count)), keyword)
        let original = try HEICDecoder().header(of: TestFixtures.bytes(heic)).metadata
        XCTAssertEqual(try Self.inflated(Array(iccp.dropFirst(keyword.count))), try XCTUnwrap(original.iccProfile))
        let exif = try XCTUnwrap(chunks.first { $0.type == "eXIf" }).data
        XCTAssertTrue(exif.starts(with: Array("MM".utf8)) || exif.starts(with: Array("II".utf8)))
        XCTAssertEqual(ExifOrientation.read(inJPEG: Self.jpegHead(exif: exif)).value, 1)

        do {
            // Installed by the README's set-up: a missing tool fails here, it is not skipped.
            let exiftool = try XCTUnwrap(Self.tool("exiftool"), "exiftool (libimage-exiftool-perl) is not installed")
            let tags = try BinaryRun.run(exiftool, ["-s", "-s", "-s", "-n", "-ICC_Profile:ProfileDescription",
                                                    "-EXIF:Orientation", "-EXIF:ExifImageWidth", "-EXIF:Make", png])
            XCTAssertEqual(tags.stdout, "Display P3\n1\n240\nApple\n", tags.stderr)   // 240 × 320, upright
        }
        do {
            let pngcheck = try XCTUnwrap(Self.tool("pngcheck"), "pngcheck is not installed (README set-up)")
            let check = try BinaryRun.run(pngcheck, [png])
            XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        }

        // A JPEG with EXIF Orientation 6 and no profile: eXIf with Orientation 1, no iCCP.
        let jpegPNG = output("jpeg.png")
        XCTAssertEqual(try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", TestFixtures.image("Landscape_6.jpg"), "-o", jpegPNG]).status, 0)
        let fromJPEG = try Self.chunks(TestFixtures.bytes(jpegPNG))
        XCTAssertFalse(fromJPEG.contains { $0.type == "iCCP" })
        let jpegExif = try XCTUnwrap(fromJPEG.first { $0.type == "eXIf" }).data
        XCTAssertEqual(ExifOrientation.read(inJPEG: Self.jpegHead(exif: jpegExif)).value, 1)

        // --strip-metadata: neither.
        let stripped = output("stripped.png")
        let strippedRun = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", heic, "-o", stripped, "--max-size", "64", "--strip-metadata"])
        XCTAssertEqual(strippedRun.status, 0, strippedRun.stderr)
        XCTAssertFalse(try Self.chunks(TestFixtures.bytes(stripped)).contains { ["iCCP", "eXIf"].contains($0.type) })
    }

    // MARK: - Helpers

    private static func tool(_ name: String) -> String? {
        ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Every chunk of a PNG, in order.
    private static func chunks(_ png: [UInt8]) throws -> [(type: String, data: [UInt8])] {
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var result: [(type: String, data: [UInt8])] = [], position = 8
        while position + 12 <= png.count {
            let length = png[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self)
            guard position + 12 + length <= png.count else { throw XCTSkip("chunk \(type) runs past the end") }
            result.append((type, Array(png[(position + 8)..<(position + 8 + length)])))
            position += 12 + length
        }
        return result
    }

    private static func inflated(_ stream: [UInt8]) throws -> [UInt8] {
        var size = uLong(1 << 22)
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { o in
            stream.withUnsafeBufferPointer { uncompress(o.baseAddress, &size, $0.baseAddress, uLong(stream.count)) }
        }
        XCTAssertEqual(status, Z_OK)
        return Array(out.prefix(Int(size)))
    }

    /// A JPEG head holding `exif` (TIFF) as its Exif APP1, for `ExifOrientation`.
    private static func jpegHead(exif: [UInt8]) -> [UInt8] {
        let payload = Array("Exif\0\0".utf8) + exif
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xD9]
    }
}
