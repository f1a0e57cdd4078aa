import XCTest
@testable import XMPParse

/// `XMPLimits.strictNamespaces`: conformance problems outside the strict namespaces are warnings.
final class XMPStrictNamespaceTests: XCTestCase {
    static let aas = "http://ns.apple.com/adjustment-settings/1.0/"
    static let exif = "http://ns.adobe.com/exif/1.0/"
    let lenient = XMPLimits(strictNamespaces: [aas])

    private func packet(_ body: String) -> [UInt8] {
        Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
               + "<rdf:Description rdf:about=\"\" xmlns:aas=\"\(Self.aas)\" xmlns:exif=\"\(Self.exif)\" "
               + "xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\(body)</rdf:Description></rdf:RDF></x:xmpmeta>").utf8)
    }

    func testARepeatOutsideTheStrictNamespacesKeepsTheFirstAndWarns() throws {
        let bytes = packet("<exif:Make>SONY</exif:Make><exif:Make>Other</exif:Make><aas:CropW>60</aas:CropW>")
        let parsed = try XMPPacketParser.parse(bytes, limits: lenient)
        XCTAssertEqual(parsed[Self.exif, "Make"], .text("SONY"))
        XCTAssertEqual(parsed[Self.aas, "CropW"], .text("60"))
        XCTAssertEqual(parsed.warnings, ["property {\(Self.exif)}Make appears twice; the first is kept"])
        // Every namespace strict (the default): the same packet is refused, as before.
        XCTAssertThrowsError(try XMPPacketParser.parse(bytes)) { error in
            XCTAssertEqual(error as? XMPError, .duplicateProperty(XMPName(namespace: Self.exif, name: "Make")))
        }
    }

    func testARepeatAcrossDescriptionsIsTheSame() throws {
        let bytes = Array(String(decoding: packet("<exif:Make>SONY</exif:Make>"), as: UTF8.self)
            .replacingOccurrences(of: "</rdf:RDF>", with: "<rdf:Description xmlns:exif=\"\(Self.exif)\" exif:Make=\"SONY\"/></rdf:RDF>").utf8)
        let parsed = try XMPPacketParser.parse(bytes, limits: lenient)
        XCTAssertEqual(parsed.warnings.count, 1)
    }

    func testARepeatedStrictPropertyStillFailsNamingIt() {
        let bytes = packet("<aas:CropW>60</aas:CropW><aas:CropW>50</aas:CropW><exif:Make>SONY</exif:Make>")
        XCTAssertThrowsError(try XMPPacketParser.parse(bytes, limits: lenient)) { error in
            XCTAssertEqual(error as? XMPError, .duplicateProperty(XMPName(namespace: Self.aas, name: "CropW")))
        }
    }

    func testAnUnknownConstructOutsideIsSkippedInsideFails() throws {
        let literal = "<dc:description rdf:parseType=\"Literal\"><b>x</b></dc:description>"
        let parsed = try XMPPacketParser.parse(packet(literal + "<aas:CropW>60</aas:CropW>"), limits: lenient)
        XCTAssertNil(parsed[XMPName(namespace: "http://purl.org/dc/elements/1.1/", name: "description")])
        XCTAssertEqual(parsed[Self.aas, "CropW"], .text("60"))
        XCTAssertEqual(parsed.warnings.count, 1)
        XCTAssertTrue(parsed.warnings[0].contains("rdf:parseType=\"Literal\""), parsed.warnings[0])
        let strictLiteral = "<aas:CropW rdf:parseType=\"Literal\"><b>x</b></aas:CropW>"
        XCTAssertThrowsError(try XMPPacketParser.parse(packet(strictLiteral), limits: lenient)) { error in
            guard case .malformedRDF? = error as? XMPError else { return XCTFail("\(error)") }
        }
    }

    func testLimitsHoldInEveryNamespace() {
        let doctype = Array("<!DOCTYPE x [<!ENTITY a \"b\">]>".utf8) + packet("<exif:Make>&a;</exif:Make>")
        XCTAssertThrowsError(try XMPPacketParser.parse(doctype, limits: lenient)) { error in
            XCTAssertEqual(error as? XMPError, .doctypeForbidden)
        }
        var few = lenient
        few.maxProperties = 2
        let many = packet("<exif:Make>A</exif:Make><exif:Make>B</exif:Make><exif:Make>C</exif:Make>")
        XCTAssertThrowsError(try XMPPacketParser.parse(many, limits: few)) { error in
            XCTAssertEqual(error as? XMPError, .tooManyProperties(limit: 2))
        }
    }
}
