import XCTest
import XMPParse

final class JPEGSegmentsTests: XCTestCase {
    private let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    private let exifHeader = Array("Exif\0\0".utf8)
    private let xmpPacket = Array(packet("<aas:CropX>7</aas:CropX>").utf8)
    private let tiffBody: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]

    private func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// SOI, APP0 (JFIF), APP1 XMP, fill bytes, APP1 Exif, SOS with a little scan data, EOI.
    private var jpeg: [UInt8] {
        [0xFF, 0xD8]
            + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
            + segment(0xE1, xmpHeader + xmpPacket)
            + [0xFF, 0xFF]  // fill bytes before the next marker
            + segment(0xE1, exifHeader + tiffBody)
            + segment(0xDA, [1, 1, 0, 0, 0x3F, 0])
            + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD9]
    }

    private var xmpSegmentOffset: Int { 2 + 4 + 14 }

    func testAPP1PayloadsInFileOrder() throws {
        let payloads = try JPEGSegments.app1Payloads(in: jpeg)
        XCTAssertEqual(payloads.map { Array($0) }, [xmpHeader + xmpPacket, exifHeader + tiffBody])
    }

    func testXMPPacketIsThePayloadAfterTheSignature() throws {
        let found = try XCTUnwrap(try JPEGSegments.xmpPacket(in: jpeg))
        XCTAssertEqual(found, xmpPacket)
        XCTAssertEqual(try XMPPacketParser.parse(found)[Namespaces.aas, "CropX"], .text("7"))
    }

    func testExifPayloadKeepsItsHeader() throws {
        XCTAssertEqual(try JPEGSegments.exifPayload(in: jpeg), exifHeader + tiffBody)
    }

    func testJPEGWithoutMetadata() throws {
        let bare: [UInt8] = [0xFF, 0xD8] + segment(0xDB, [0, 1, 2]) + segment(0xDA, [0]) + [0xFF, 0xD9]
        XCTAssertEqual(try JPEGSegments.app1Payloads(in: bare).count, 0)
        XCTAssertNil(try JPEGSegments.xmpPacket(in: bare))
        XCTAssertNil(try JPEGSegments.exifPayload(in: bare))
    }

    func testExtendedXMPIsNotTheStandardPacket() throws {
        let extended = Array("http://ns.adobe.com/xmp/extension/\0".utf8) + Array(repeating: 0x41, count: 40)
        let file: [UInt8] = [0xFF, 0xD8] + segment(0xE1, extended) + [0xFF, 0xD9]
        XCTAssertNil(try JPEGSegments.xmpPacket(in: file))
    }

    func testStandaloneMarkersAndSegmentsAfterSOSAreIgnored() throws {
        let file: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD0, 0xFF, 0x01] + segment(0xDA, [0])
            + [0x00, 0x11] + segment(0xE1, exifHeader + tiffBody)
        XCTAssertNil(try JPEGSegments.exifPayload(in: file))
    }

    func testNotAJPEG() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for bytes in [[], [0xFF], [0xD8, 0xFF], png] as [[UInt8]] {
            XCTAssertThrowsXMPError(try JPEGSegments.app1Payloads(in: bytes), .notAJPEG)
        }
        XCTAssertEqual(XMPError.notAJPEG.description, "not a JPEG file")
    }

    func testEveryTruncationBeforeSOSFailsCleanly() {
        let full = jpeg
        let sosOffset = full.count - 16
        XCTAssertEqual(Array(full[sosOffset...(sosOffset + 1)]), [0xFF, 0xDA])
        for length in 2...(sosOffset + 1) {
            let error = thrownXMPError(try JPEGSegments.app1Payloads(in: Array(full.prefix(length))))
            guard case .truncatedJPEGSegment? = error else {
                XCTFail("prefix of \(length) bytes: \(String(describing: error))")
                continue
            }
        }
    }

    func testTruncationReportsTheSegmentOffset() {
        let cut = Array(jpeg.prefix(xmpSegmentOffset + 10))
        XCTAssertThrowsXMPError(try JPEGSegments.xmpPacket(in: cut), .truncatedJPEGSegment(offset: xmpSegmentOffset))
        XCTAssertEqual(XMPError.truncatedJPEGSegment(offset: 20).description, "truncated JPEG segment at offset 20")
    }

    func testLengthFieldClaimingMoreThanTheFileOrLessThanItself() throws {
        let tooLong: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45] + [0xFF, 0xD9]
        XCTAssertThrowsXMPError(try JPEGSegments.app1Payloads(in: tooLong), .truncatedJPEGSegment(offset: 2))
        // A length under 2 is read as libjpeg's skip_variable reads it: no payload, and the walk
        // resynchronises at the next marker, past the stray bytes, with a warning.
        let tooShort: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01, 0x42, 0xFF, 0xD9]
        let scan = try JPEGSegments.scan(tooShort)
        XCTAssertEqual(scan.app1Payloads.count, 0)
        XCTAssertEqual(scan.warnings, ["JPEG segment 0xE1 at offset 2 declares a length of 1, under its own 2 bytes; "
                                       + "the metadata scan resumed at the next marker, as libjpeg does"])
    }

    func testGarbageWhereAMarkerBelongs() throws {
        // Stray bytes before a marker are skipped as libjpeg skips them ("Corrupt JPEG data: N
        // extraneous bytes before marker", pixels intact), so the segment after them is found.
        let garbage: [UInt8] = [0xFF, 0xD8] + segment(0xE0, [1, 2]) + [0x42, 0x00, 0x17] + segment(0xE1, [7, 8]) + [0xFF, 0xD9]
        XCTAssertEqual(try JPEGSegments.app1Payloads(in: garbage).map(Array.init), [[7, 8]])
        let garbageToTheEnd: [UInt8] = [0xFF, 0xD8] + segment(0xE0, [1, 2]) + [0x42, 0x43]
        XCTAssertThrowsXMPError(try JPEGSegments.app1Payloads(in: garbageToTheEnd), .truncatedJPEGSegment(offset: 8))
        // libjpeg's next_marker skips a 0xFF00 with the stray bytes; a second SOI is refused.
        let stuffed: [UInt8] = [0xFF, 0xD8, 0xFF, 0x00] + segment(0xE1, [9]) + [0xFF, 0xD9]
        XCTAssertEqual(try JPEGSegments.app1Payloads(in: stuffed).map(Array.init), [[9]])
        let secondSOI: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD8, 0xFF, 0xD9]
        XCTAssertThrowsXMPError(try JPEGSegments.app1Payloads(in: secondSOI), .badJPEGMarker(offset: 2))
    }
}
