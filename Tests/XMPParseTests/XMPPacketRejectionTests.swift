import Foundation
import XCTest
@testable import XMPParse

final class XMPPacketRejectionTests: XCTestCase {
    private let declarationFixtures = [
        "doctype-plain.xmp", "doctype-billion-laughs.xmp", "doctype-xxe-file.xmp", "utf16-doctype.xmp",
    ]

    func testEveryDoctypeFixtureIsRefused() throws {
        for name in declarationFixtures {
            let bytes = try FixtureFile.malformed(name)
            XCTAssertThrowsXMPError(try XMPPacketParser.parse(bytes), .doctypeForbidden, "\(name)")
        }
    }

    /// The byte scan is only a shortcut: with it bypassed, the SAX hooks alone must stop libxml2.
    func testSAXHooksRefuseDeclarationsWithoutTheByteScan() throws {
        for name in declarationFixtures {
            let utf8 = try XMLTextEncoding.utf8(from: try FixtureFile.malformed(name))
            XCTAssertThrowsXMPError(try HardenedXMLReader.withRootElement(ofUTF8: utf8) { _ in () }, .doctypeForbidden, "\(name)")
        }
    }

    func testUTF16DoctypeEvadesTheByteScanButNotTheParser() throws {
        let bytes = try FixtureFile.malformed("utf16-doctype.xmp")
        XCTAssertFalse(DeclarationScan.containsDeclaration(bytes))
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(bytes), .doctypeForbidden)
    }

    func testExternalEntityContentNeverAppears() throws {
        for name in ["doctype-xxe-file.xmp", "utf16-doctype.xmp"] {
            let utf8 = try XMLTextEncoding.utf8(from: try FixtureFile.malformed(name))
            let error = thrownXMPError(try HardenedXMLReader.withRootElement(ofUTF8: utf8) { root throws(XMPError) in
                var reader = RDFPropertyReader(limits: .default)
                return try reader.readPacket(root: LibXMLElement(node: root))
            })
            XCTAssertEqual(error, .doctypeForbidden)
            XCTAssertFalse(String(describing: error).contains("root:"))
        }
    }

    func testUnclosedElementIsMalformedXMLWithLine() throws {
        let error = thrownXMPError(try XMPPacketParser.parse(try FixtureFile.malformed("malformed-unclosed.xmp")))
        guard case .malformedXML(let line, let message)? = error else {
            return XCTFail("expected malformedXML, got \(String(describing: error))")
        }
        XCTAssertEqual(line, 7)
        XCTAssertEqual(message, "Opening and ending tag mismatch: CropX line 5 and Description")
        XCTAssertEqual(error?.description,
                       "malformed XML at line 7: Opening and ending tag mismatch: CropX line 5 and Description")
    }

    func testUnboundPrefixIsMalformedXML() {
        let error = thrownXMPError(try parse(#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description aas:CropX="1"/></rdf:RDF>"#))
        guard case .malformedXML(1, let message)? = error else {
            return XCTFail("expected malformedXML at line 1, got \(String(describing: error))")
        }
        XCTAssertTrue(message.contains("aas"), message)
    }

    func testEmptyInputIsMalformedXML() {
        let error = thrownXMPError(try XMPPacketParser.parse([]))
        guard case .malformedXML? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testDeepNestingIsRefused() throws {
        let bytes = try FixtureFile.malformed("deep-nesting.xmp")
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(bytes), .nestingTooDeep(limit: 32))
        XCTAssertEqual(XMPError.nestingTooDeep(limit: 32).description, "XMP nesting deeper than 32 levels")
        // Sanity: the same file is otherwise fine.
        let generous = XMPLimits(maxDepth: 200)
        XCTAssertNotNil(try XMPPacketParser.parse(bytes, limits: generous)[Namespaces.aas, "Level0"]?.structFields)
    }

    func testDepthCountsOutsideRDFToo() throws {
        let ios5 = try FixtureFile.bytes("Fixtures/xmp/ios5-crop.xmp")
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(ios5, limits: XMPLimits(maxDepth: 3)), .nestingTooDeep(limit: 3))
        let wrapped = String(repeating: "<a>", count: 40) + #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>"#
            + String(repeating: "</a>", count: 40)
        XCTAssertThrowsXMPError(try parse(wrapped), .nestingTooDeep(limit: 32))
    }

    func testTooManyPropertiesAtDefaultLimit() throws {
        func elements(_ count: Int) -> String {
            (0..<count).map { "<aas:P\($0)>\($0)</aas:P\($0)>" }.joined(separator: "\n")
        }
        XCTAssertEqual(try parse(packet(elements(10_000))).properties.count, 10_000)
        XCTAssertThrowsXMPError(try parse(packet(elements(10_001))), .tooManyProperties(limit: 10_000))
        XCTAssertEqual(XMPError.tooManyProperties(limit: 10_000).description, "XMP packet has more than 10000 values")
    }

    /// libxml2 2.9 checks attributes pairwise: unchecked, this 4 MiB packet takes it many minutes.
    func testAttributeBombIsRefusedBeforeParsing() {
        let attributes = (0..<400_000).map { "a:n\($0)=\"\"" }.joined(separator: " ")
        let bomb = #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:a="urn:a"><rdf:Description "#
            + attributes + "/></rdf:RDF>"
        XCTAssertThrowsXMPError(try parse(String(bomb.prefix(4 << 20))), .tooManyAttributes(limit: 1_024))
        XCTAssertEqual(XMPError.tooManyAttributes(limit: 1_024).description,
                       "an XML element in the XMP packet has more than 1024 attributes")
    }

    func testAttributeCapCountsEveryAttributeOfTheElement() {
        // rdf:about and the two xmlns declarations of `packet` are attributes too.
        func attributes(_ count: Int) -> String {
            (0..<count).map { #"aas:P\#($0)="\#($0)""# }.joined(separator: " ")
        }
        XCTAssertEqual(try parse(packet("", descriptionAttributes: attributes(1_021))).properties.count, 1_021)
        XCTAssertThrowsXMPError(try parse(packet("", descriptionAttributes: attributes(1_022))), .tooManyAttributes(limit: 1_024))
    }

    /// The worst input the attribute cap lets through: 4 MiB of elements with 1 024 attributes
    /// each. It must still come back (in about a second), here with the first repeat.
    func testWorstCaseUnderTheAttributeCapFinishes() {
        let element = "<rdf:Description " + (0..<1_023).map { "a:n\($0)=\"\"" }.joined(separator: " ") + "/>"
        let head = #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:a="urn:a">"#
        let body = String(repeating: element, count: ((4 << 20) - head.utf8.count - 10) / element.utf8.count)
        // Bounded: a regression to quadratic work fails here instead of hanging the suite.
        let text = head + body + "</rdf:RDF>"
        let outcome = ParseOutcome()
        let done = expectation(description: "the 4 MB packet is parsed or refused")
        DispatchQueue.global().async {
            outcome.set(Result { try parse(text) })
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        guard let result = outcome.get() else { return XCTFail("the parse did not finish within 60 s") }
        XCTAssertThrowsXMPError(try result.get(), .duplicateProperty(XMPName(namespace: "urn:a", name: "n0")))
    }

    func testTooManyNamespaceDeclarations() {
        func declarations(_ count: Int) -> String {
            (0..<count).map { #"xmlns:p\#($0)="urn:\#($0)""# }.joined(separator: " ")
        }
        // `packet` declares x, rdf, aas and re.
        XCTAssertEqual(try parse(packet("", descriptionAttributes: declarations(252))), XMPPacket())
        XCTAssertThrowsXMPError(try parse(packet("", descriptionAttributes: declarations(253))),
                                .tooManyNamespaceDeclarations(limit: 256))
        XCTAssertEqual(XMPError.tooManyNamespaceDeclarations(limit: 256).description,
                       "XMP packet declares more than 256 namespaces")
    }

    func testArrayItemsAndStructFieldsCountAsValues() {
        let body = """
            <aas:Filters><rdf:Seq><rdf:li>A</rdf:li><rdf:li>B</rdf:li></rdf:Seq></aas:Filters>
            <aas:Eye rdf:parseType="Resource"><re:p>1</re:p></aas:Eye>
            """
        // Filters + 2 items + Eye + 1 field = 5 values.
        XCTAssertEqual(try parse(packet(body), limits: XMPLimits(maxProperties: 5)).properties.count, 2)
        XCTAssertThrowsXMPError(try parse(packet(body), limits: XMPLimits(maxProperties: 4)), .tooManyProperties(limit: 4))
    }

    func testPacketTooLarge() {
        let limit = XMPLimits.default.maxPacketBytes
        let padded = Array(packet("<aas:CropX>0</aas:CropX>").utf8)
        let bytes = padded + [UInt8](repeating: 0x20, count: limit + 1 - padded.count)
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(bytes), .packetTooLarge(bytes: 4_194_305, limit: 4_194_304))
        XCTAssertEqual(XMPError.packetTooLarge(bytes: 4_194_305, limit: 4_194_304).description,
                       "XMP packet is 4194305 bytes, over the 4194304-byte limit")
        // One byte less is within the cap and parses.
        XCTAssertEqual(try XMPPacketParser.parse(Array(bytes.dropLast())).properties, [aas("CropX"): .text("0")])
    }

    func testDuplicatePropertyAcrossDescriptions() throws {
        let bytes = try FixtureFile.malformed("duplicate-property.xmp")
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(bytes), .duplicateProperty(aas("CropX")))
        XCTAssertEqual(XMPError.duplicateProperty(aas("CropX")).description,
                       "property {http://ns.apple.com/adjustment-settings/1.0/}CropX appears twice")
    }

    func testDuplicateWithinOneDescriptionAndWithinAStruct() {
        XCTAssertThrowsXMPError(try parse(packet("<aas:CropX>1</aas:CropX>", descriptionAttributes: #"aas:CropX="1""#)),
                                .duplicateProperty(aas("CropX")))
        XCTAssertThrowsXMPError(try parse(packet(#"<aas:Eye rdf:parseType="Resource" re:p="1"><re:p>2</re:p></aas:Eye>"#)),
                                .duplicateProperty(redEye("p")))
    }

    func testNoRDF() throws {
        XCTAssertThrowsXMPError(try XMPPacketParser.parse(try FixtureFile.malformed("no-rdf.xmp")), .noRDF)
        XCTAssertThrowsXMPError(try parse("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>"), .noRDF)
        XCTAssertEqual(XMPError.noRDF.description, "no rdf:RDF element in XMP packet")
    }

    func testNumbersThatDoNotParseSurviveThePacketParser() throws {
        let notANumber = try XMPPacketParser.parse(try FixtureFile.malformed("not-a-number.xmp"))
        let cropX = try XCTUnwrap(notANumber[Namespaces.aas, "CropX"]?.text)
        XCTAssertThrowsXMPError(try XMPNumber.parse(cropX), .notANumber("abc"))

        let nonFinite = try XMPPacketParser.parse(try FixtureFile.malformed("non-finite.xmp"))
        let cropW = try XCTUnwrap(nonFinite[Namespaces.aas, "CropW"]?.text)
        XCTAssertThrowsXMPError(try XMPNumber.parse(cropW), .nonFiniteNumber("1e999"))
    }

    func testShapesXMPNeverWritesAreMalformedRDF() {
        let cases = [
            packet(#"<aas:X rdf:parseType="Literal"><b>1</b></aas:X>"#),
            packet("<aas:X><re:a>1</re:a><re:b>2</re:b></aas:X>"),
            packet("<aas:X>text<rdf:Seq/></aas:X>"),
            packet("<aas:X><rdf:Seq><re:notLi>1</re:notLi></rdf:Seq></aas:X>"),
            packet(#"<aas:X re:a="1">text</aas:X>"#),
            packet("<unqualified>1</unqualified>"),
            #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Bag/></rdf:RDF>"#,
        ]
        for xml in cases {
            let error = thrownXMPError(try parse(xml))
            guard case .malformedRDF? = error else {
                XCTFail("expected malformedRDF for \(xml), got \(String(describing: error))")
                continue
            }
        }
    }
}

/// A parse's result handed from the thread that ran it to the test (the lock orders the two).
private final class ParseOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<XMPPacket, any Error>?
    func set(_ value: Result<XMPPacket, any Error>) { lock.withLock { result = value } }
    func get() -> Result<XMPPacket, any Error>? { lock.withLock { result } }
}
