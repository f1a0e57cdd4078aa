import Foundation
import XCTest
import XMPParse

final class MetadataDumpTests: XCTestCase {
    private let xmp = packet("<aas:CropX>7</aas:CropX>")

    private func json(_ object: Any) throws -> [UInt8] {
        [UInt8](try JSONSerialization.data(withJSONObject: object))
    }

    func testJSONWithNestedKey() throws {
        let dump = try json(["asset": ["filename": "IMG_0001.JPG", "metadata": ["AdjustmentXMP": xmp]]])
        let extracted = try MetadataDump.adjustmentXMP(in: dump)
        XCTAssertEqual(extracted, Array(xmp.utf8))
        XCTAssertEqual(try XMPPacketParser.parse(extracted)[Namespaces.aas, "CropX"], .text("7"))
    }

    func testJSONArrayRootWithLeadingWhitespaceAndBOM() throws {
        let dump = [0xEF, 0xBB, 0xBF, 0x20, 0x0A] + (try json([["Other": 1], ["AdjustmentXMP": "<x/>"]]))
        XCTAssertEqual(try MetadataDump.adjustmentXMP(in: dump), Array("<x/>".utf8))
    }

    func testShallowestKeyWins() throws {
        let dump = try json(["a": ["AdjustmentXMP": "deep"], "AdjustmentXMP": "shallow"])
        XCTAssertEqual(try MetadataDump.adjustmentXMP(in: dump), Array("shallow".utf8))
    }

    func testXMLPropertyList() throws {
        let escaped = xmp.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let dump = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>PixelWidth</key><integer>2592</integer>
              <key>AdjustmentXMP</key>
              <string>\(escaped)</string>
            </dict>
            </plist>
            """
        XCTAssertEqual(try MetadataDump.adjustmentXMP(in: Array(dump.utf8)), Array(xmp.utf8))
    }

    func testBinaryPropertyListWithDataValue() throws {
        let root: [String: Any] = ["Assets": [["AdjustmentXMP": Data(xmp.utf8), "Orientation": 6]]]
        let dump = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        XCTAssertEqual(Array(dump.prefix(6)), Array("bplist".utf8))
        XCTAssertEqual(try MetadataDump.adjustmentXMP(in: [UInt8](dump)), Array(xmp.utf8))
    }

    func testMissingKey() throws {
        XCTAssertThrowsXMPError(try MetadataDump.adjustmentXMP(in: try json(["Adjustment": xmp])), .noAdjustmentXMPKey)
        XCTAssertThrowsXMPError(try MetadataDump.adjustmentXMP(in: try json(["AdjustmentXMP": 42])), .noAdjustmentXMPKey)
        XCTAssertEqual(XMPError.noAdjustmentXMPKey.description, "no AdjustmentXMP key in metadata dump")
    }

    func testUnreadableInput() {
        let inputs: [[UInt8]] = [
            [0xFF, 0x00, 0x13, 0x37],
            Array("{ \"AdjustmentXMP\": ".utf8),
            Array("just some words".utf8),
            [],
        ]
        for input in inputs {
            XCTAssertThrowsXMPError(try MetadataDump.adjustmentXMP(in: input), .unreadableMetadataDump, "\(input)")
        }
        XCTAssertEqual(XMPError.unreadableMetadataDump.description, "metadata dump is neither a property list nor JSON")
    }

    func testHostileNestingFailsWithoutCrashing() {
        let deepJSON = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsXMPError(try MetadataDump.adjustmentXMP(in: Array(deepJSON.utf8)), .unreadableMetadataDump)
        let deepPlist = "<plist version=\"1.0\">" + String(repeating: "<array>", count: 100_000)
            + String(repeating: "</array>", count: 100_000) + "</plist>"
        XCTAssertThrowsXMPError(try MetadataDump.adjustmentXMP(in: Array(deepPlist.utf8)), .unreadableMetadataDump)
    }

    func testSizeCap() throws {
        let dump = try json(["AdjustmentXMP": String(repeating: " ", count: 100)])
        let limits = XMPLimits(maxPacketBytes: 20)
        XCTAssertThrowsXMPError(try MetadataDump.adjustmentXMP(in: dump, limits: limits),
                                .metadataDumpTooLarge(bytes: dump.count, limit: 80))
    }
}
