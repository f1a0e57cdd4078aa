import XCTest
@testable import XMPParse

final class XMLTextEncodingTests: XCTestCase {
    private let xml = #"<?xml version="1.0" encoding="UTF-16"?>"# + "\n" + packet("<aas:RedEyeModel>Ωμέγα 𝄞</aas:RedEyeModel>")
    private let expected = XMPPacket(properties: [aas("RedEyeModel"): .text("Ωμέγα 𝄞")])

    private func utf16(bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        let units = (byteOrderMark ? [0xFEFF] : []) + Array(xml.utf16)
        return units.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    private func utf32(bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        let scalars = (byteOrderMark ? [0xFEFF] : []) + xml.unicodeScalars.map(\.value)
        return scalars.flatMap { value -> [UInt8] in
            let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }
    }

    func testUTF16AndUTF32PacketsParse() throws {
        for bigEndian in [false, true] {
            for byteOrderMark in [false, true] {
                XCTAssertEqual(try XMPPacketParser.parse(utf16(bigEndian: bigEndian, byteOrderMark: byteOrderMark)), expected)
                XCTAssertEqual(try XMPPacketParser.parse(utf32(bigEndian: bigEndian, byteOrderMark: byteOrderMark)), expected)
            }
        }
    }

    func testUTF8WithByteOrderMark() throws {
        XCTAssertEqual(try XMPPacketParser.parse([0xEF, 0xBB, 0xBF] + Array(xml.utf8)), expected)
    }

    func testBrokenUTF16AndUTF32() {
        let oddLength = utf16(bigEndian: false, byteOrderMark: true) + [0x3C]
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(oddLength), .invalidEncoding("UTF-16"))
        let loneSurrogate: [UInt8] = [0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x3E, 0x00]
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(loneSurrogate), .invalidEncoding("UTF-16"))
        let beyondUnicode: [UInt8] = [0x00, 0x00, 0xFE, 0xFF, 0x00, 0x11, 0x00, 0x00]
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(beyondUnicode), .invalidEncoding("UTF-32"))
        XCTAssertEqual(XMPError.invalidEncoding("UTF-16").description, "XMP packet is not valid UTF-16 text")
    }

    /// A declared encoding could otherwise smuggle markup past the byte scans (UTF-7 spells `<`
    /// as `+ADw-`); libxml2 is made to read UTF-8 regardless, so the trick is plain bad XML.
    func testDeclaredEncodingsAreIgnored() {
        let utf7 = #"<?xml version="1.0" encoding="UTF-7"?>+ADw-!DOCTYPE x+AFs-+AD4-"# + packet("")
        let error = thrownXMPError(try parse(utf7))
        guard case .malformedXML(1, _)? = error else { return XCTFail("got \(String(describing: error))") }

        let latin1 = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?>"#.utf8)
            + Array(packet("<aas:RedEyeModel>caf").utf8) + [0xE9] + Array("</aas:RedEyeModel>".utf8)
        guard case .malformedXML? = thrownXMPError(try XMPPacketParser.parse(latin1)) else {
            return XCTFail("Latin-1 bytes must not be accepted as UTF-8")
        }
    }
}
