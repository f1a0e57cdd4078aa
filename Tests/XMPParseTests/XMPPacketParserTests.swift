import XCTest
@testable import XMPParse

final class XMPPacketParserTests: XCTestCase {
    /// Fixtures/xmp/ios5-crop.xmp is the real iPad iOS 5.1.1 payload copied verbatim from
    /// docs/spec/xmp-format.md §2: element form, no xpacket wrapper.
    func testRealIOS5CropPayload() throws {
        let packet = try XMPPacketParser.parse(try FixtureFile.bytes("Fixtures/xmp/ios5-crop.xmp"))
        let expected: [String: String] = [
            "AffineA": "1", "AffineB": "0", "AffineC": "0", "AffineD": "1",
            "AffineX": "-331", "AffineY": "-161",
            "CropX": "0", "CropY": "0", "CropW": "1938", "CropH": "1420",
        ]
        XCTAssertEqual(packet, XMPPacket(properties: Dictionary(uniqueKeysWithValues:
            expected.map { (aas($0.key), XMPValue.text($0.value)) })))
        XCTAssertEqual(packet[Namespaces.aas, "AffineX"], .text("-331"))
        XCTAssertEqual(packet[namespace: Namespaces.aas, name: "CropH"], .text("1420"))
        XCTAssertEqual(packet[aas("CropW")]?.text, "1938")
        XCTAssertTrue(packet.hasProperties(inNamespace: Namespaces.aas))
        XCTAssertFalse(packet.hasProperties(inNamespace: Namespaces.crs))
    }

    func testAttributeFormEqualsElementForm() throws {
        let attributes = try parse(packet("", descriptionAttributes: #"aas:CropX="0" aas:CropY=" 12 " aas:CropW="1938" aas:CropH="1420""#))
        let elements = try parse(packet("""
            <aas:CropX>0</aas:CropX>
            <aas:CropY>
                12
            </aas:CropY>
            <aas:CropW>1938</aas:CropW><aas:CropH>1420</aas:CropH>
            """))
        XCTAssertEqual(attributes, elements)
        XCTAssertEqual(attributes.properties, [
            aas("CropX"): .text("0"), aas("CropY"): .text("12"),
            aas("CropW"): .text("1938"), aas("CropH"): .text("1420"),
        ])
    }

    func testSeveralDescriptionsMerge() throws {
        let packet = try parse("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
              <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:aas="\(Namespaces.aas)" aas:Vibrance="0.25"/>
                <rdf:Description rdf:about="" xmlns:crs="\(Namespaces.crs)">
                  <crs:Vibrance>12.5</crs:Vibrance>
                  <crs:AlreadyApplied>False</crs:AlreadyApplied>
                </rdf:Description>
                <rdf:Description rdf:about=""/>
              </rdf:RDF>
            </x:xmpmeta>
            """)
        XCTAssertEqual(packet.properties, [
            aas("Vibrance"): .text("0.25"),
            XMPName(namespace: Namespaces.crs, name: "Vibrance"): .text("12.5"),
            XMPName(namespace: Namespaces.crs, name: "AlreadyApplied"): .text("False"),
        ])
    }

    func testXPacketWrapperAndNULPadding() throws {
        let xml = "\u{FEFF}<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + packet("<aas:Shadows>0.5</aas:Shadows>")
            + "\n" + String(repeating: " ", count: 100) + "\n<?xpacket end=\"w\"?>"
        let bytes = Array(xml.utf8) + [0, 0, 0]
        XCTAssertEqual(try XMPPacketParser.parse(bytes).properties, [aas("Shadows"): .text("0.5")])
    }

    func testRDFAsRootWithoutXMPMeta() throws {
        let packet = try parse("""
              <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description xmlns:aas="\(Namespaces.aas)" aas:CropX="3"/>
              </rdf:RDF>
            """)
        XCTAssertEqual(packet.properties, [aas("CropX"): .text("3")])
    }

    func testRDFInsideArbitraryWrapperAndSeveralRDFElements() throws {
        let packet = try parse("""
            <wrapper xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:aas="\(Namespaces.aas)">
              <inner><rdf:RDF><rdf:Description aas:CropX="1"/></rdf:RDF></inner>
              <rdf:RDF><rdf:Description aas:CropY="2"/></rdf:RDF>
            </wrapper>
            """)
        XCTAssertEqual(packet.properties, [aas("CropX"): .text("1"), aas("CropY"): .text("2")])
    }

    func testPrefixesAreIrrelevant() throws {
        let packet = try parse("""
            <meta:xmpmeta xmlns:meta="adobe:ns:meta/">
              <r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <r:Description r:about="" xmlns:foo="\(Namespaces.aas)" foo:CropX="5">
                  <foo:CropY>6</foo:CropY>
                  <CropW xmlns="\(Namespaces.aas)">7</CropW>
                  <foo:Filters><r:Seq><r:li>CIPhotoEffectMono</r:li></r:Seq></foo:Filters>
                </r:Description>
              </r:RDF>
            </meta:xmpmeta>
            """)
        XCTAssertEqual(packet.properties, [
            aas("CropX"): .text("5"), aas("CropY"): .text("6"), aas("CropW"): .text("7"),
            aas("Filters"): .array(.seq, [.text("CIPhotoEffectMono")]),
        ])
    }

    func testSeqBagAlt() throws {
        let packet = try parse(packet("""
            <aas:Ordered><rdf:Seq><rdf:li>1</rdf:li><rdf:li>2</rdf:li></rdf:Seq></aas:Ordered>
            <aas:Unordered><rdf:Bag><rdf:li>b</rdf:li><rdf:li>a</rdf:li></rdf:Bag></aas:Unordered>
            <aas:Title><rdf:Alt>
              <rdf:li xml:lang="x-default">Default</rdf:li>
              <rdf:li xml:lang="fr">Défaut</rdf:li>
            </rdf:Alt></aas:Title>
            <aas:Nothing><rdf:Seq/></aas:Nothing>
            """))
        XCTAssertEqual(packet.properties, [
            aas("Ordered"): .array(.seq, [.text("1"), .text("2")]),
            aas("Unordered"): .array(.bag, [.text("b"), .text("a")]),
            aas("Title"): .array(.alt, [.text("Default"), .text("Défaut")]),
            aas("Nothing"): .array(.seq, []),
        ])
        XCTAssertEqual(packet[aas("Ordered")]?.arrayItems, [.text("1"), .text("2")])
    }

    private let firstEye: XMPValue = .structure([
        redEye("p"): .text("0.25 0.75 0.02"),
        redEye("iod"): .text("120"),
        redEye("sr"): .text("10 40 100 160"),
    ])
    private let secondEye: XMPValue = .structure([
        redEye("p"): .text("0.5 0.75 0.02"),
        redEye("fc"): .text("1"),
    ])

    func testArrayOfStructsWithParseTypeResource() throws {
        let packet = try parse(packet("""
            <aas:RedEyeCorrections>
              <rdf:Seq>
                <rdf:li rdf:parseType="Resource" re:iod="120">
                  <re:p>0.25 0.75 0.02</re:p>
                  <re:sr>10 40 100 160</re:sr>
                </rdf:li>
                <rdf:li rdf:parseType="Resource">
                  <re:p>0.5 0.75 0.02</re:p>
                  <re:fc>1</re:fc>
                </rdf:li>
              </rdf:Seq>
            </aas:RedEyeCorrections>
            """))
        XCTAssertEqual(packet[aas("RedEyeCorrections")], .array(.seq, [firstEye, secondEye]))
    }

    func testArrayOfStructsWithNestedDescription() throws {
        let packet = try parse(packet("""
            <aas:RedEyeCorrections>
              <rdf:Seq>
                <rdf:li>
                  <rdf:Description re:p="0.25 0.75 0.02" re:iod="120">
                    <re:sr>10 40 100 160</re:sr>
                  </rdf:Description>
                </rdf:li>
                <rdf:li><rdf:Description re:p="0.5 0.75 0.02" re:fc="1"/></rdf:li>
              </rdf:Seq>
            </aas:RedEyeCorrections>
            """))
        XCTAssertEqual(packet[aas("RedEyeCorrections")], .array(.seq, [firstEye, secondEye]))
    }

    func testArrayOfStructsWrittenAsAttributeOnlyItems() throws {
        let packet = try parse(packet("""
            <aas:RedEyeCorrections><rdf:Seq>
              <rdf:li re:p="0.5 0.75 0.02" re:fc="1"/>
            </rdf:Seq></aas:RedEyeCorrections>
            """))
        XCTAssertEqual(packet[aas("RedEyeCorrections")], .array(.seq, [secondEye]))
    }

    func testStructPropertiesInAllForms() throws {
        let packet = try parse(packet("""
            <aas:ResourceForm rdf:parseType="Resource" re:fc="1"><re:p>0.5 0.75 0.02</re:p></aas:ResourceForm>
            <aas:DescriptionForm><rdf:Description re:fc="1"><re:p>0.5 0.75 0.02</re:p></rdf:Description></aas:DescriptionForm>
            <aas:EmptyStruct rdf:parseType="Resource"/>
            """))
        XCTAssertEqual(packet.properties, [
            aas("ResourceForm"): secondEye,
            aas("DescriptionForm"): secondEye,
            aas("EmptyStruct"): .structure([:]),
        ])
        XCTAssertEqual(packet[aas("ResourceForm")]?.structFields?[redEye("fc")], .text("1"))
    }

    func testFiltersArrayOfStrings() throws {
        let packet = try parse(packet("""
            <aas:Filters>
              <rdf:Seq>
                <rdf:li>CIPhotoEffectChrome</rdf:li>
                <rdf:li>CIExposureAdjust,EV=0.5</rdf:li>
                <rdf:li>CIColorMatrix, RVector=[1 0 0 0], Name=&quot;x &amp; y&quot;, Extra=nil</rdf:li>
                <rdf:li><![CDATA[CIPhotoEffectFade,Extrapolate=0]]></rdf:li>
              </rdf:Seq>
            </aas:Filters>
            """))
        XCTAssertEqual(packet[aas("Filters")], .array(.seq, [
            .text("CIPhotoEffectChrome"),
            .text("CIExposureAdjust,EV=0.5"),
            .text(#"CIColorMatrix, RVector=[1 0 0 0], Name="x & y", Extra=nil"#),
            .text("CIPhotoEffectFade,Extrapolate=0"),
        ]))
    }

    func testSurroundingWhitespaceTrimmedInnerKept() throws {
        let packet = try parse(packet("""
            <aas:RedEyeModel>
               two  spaces\tand tab
            </aas:RedEyeModel>
            <aas:Empty></aas:Empty>
            <aas:Comment>1<!-- ignored -->2</aas:Comment>
            <aas:Link rdf:resource=" http://example.com/ "/>
            """))
        XCTAssertEqual(packet.properties, [
            aas("RedEyeModel"): .text("two  spaces\tand tab"),
            aas("Empty"): .text(""),
            aas("Comment"): .text("12"),
            aas("Link"): .text("http://example.com/"),
        ])
    }

    func testUnqualifiedAndXMLAttributesAreNotProperties() throws {
        let packet = try parse("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description about="" xml:lang="en" rdf:ID="x" xmlns:aas="\(Namespaces.aas)" aas:CropX="1"/>
            </rdf:RDF>
            """)
        XCTAssertEqual(packet.properties, [aas("CropX"): .text("1")])
    }

    func testEmptyDescriptionAndEmptyRDFAreEmptyPackets() throws {
        XCTAssertEqual(try parse(packet("")), XMPPacket())
        XCTAssertEqual(try parse(#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>"#), XMPPacket())
        XCTAssertFalse(try parse(packet("")).hasProperties(inNamespace: Namespaces.aas))
    }

    func testLimitsAtTheirExactValuesAreAccepted() throws {
        let ios5 = try FixtureFile.bytes("Fixtures/xmp/ios5-crop.xmp")
        // x:xmpmeta, rdf:RDF, rdf:Description, aas:CropX: four levels, ten values.
        let exact = XMPLimits(maxPacketBytes: ios5.count, maxDepth: 4, maxProperties: 10)
        XCTAssertEqual(try XMPPacketParser.parse(ios5, limits: exact).properties.count, 10)
    }
}
