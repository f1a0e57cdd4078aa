@testable import AdjustKit
import XCTest
import XMPParse

/// XMP packet → EditChain for every filter kind and form, and the writer's round trip.
final class ChainXMPTests: XCTestCase {
    private func chain(_ body: String, warnings: UnsafeMutablePointer<[String]>? = nil) throws -> EditChain {
        let packet = try XMPPacketParser.parse(Array(Self.packet(body).utf8))
        var collected: [String] = []
        let chain = try EditChain(xmp: packet, warnings: &collected)
        warnings?.pointee = collected
        return chain
    }

    static func packet(_ body: String, attributes: String = "") -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:aas="http://ns.apple.com/adjustment-settings/1.0/"
          xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
          xmlns:re="http://ns.apple.com/adjustment-settings/1.0/sType/redeye"
          xmlns:rel="http://ns.apple.com/adjustment-settings/1.0/sType/red-eye" \(attributes)>
        \(body)
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }

    func testRealIOS5PayloadIsAffineThenCrop() throws {
        let chain = try TestFixtures.chain("ios5-crop.xmp")
        XCTAssertEqual(chain.steps, [EditStep(AffineMap.translation(-331, -161)), EditStep(Crop(x: 0, y: 0, width: 1938, height: 1420))])
    }

    func testEveryPropertyFilterInElementForm() throws {
        let chain = try self.chain("""
        <aas:Vibrance>0.0919118</aas:Vibrance>
        <aas:Shadows>0.3</aas:Shadows><aas:Highlights>0.8</aas:Highlights>
        <aas:FaceBalanceOrigI>0.05</aas:FaceBalanceOrigI><aas:FaceBalanceOrigQ>-0.01</aas:FaceBalanceOrigQ>
        <aas:FaceBalanceStrength>0.5</aas:FaceBalanceStrength><aas:FaceBalanceWarmth>1</aas:FaceBalanceWarmth>
        <aas:Curve0x>0</aas:Curve0x><aas:Curve0y>0.1</aas:Curve0y><aas:Curve1x>0.25</aas:Curve1x><aas:Curve1y>0.3</aas:Curve1y>
        <aas:Curve2x>0.5</aas:Curve2x><aas:Curve2y>0.55</aas:Curve2y><aas:Curve3x>0.75</aas:Curve3x><aas:Curve3y>0.8</aas:Curve3y>
        <aas:Curve4x>1</aas:Curve4x><aas:Curve4y>0.95</aas:Curve4y>
        """)
        XCTAssertEqual(chain.vibrance, Vibrance(amount: 0.0919118))
        XCTAssertEqual(chain.highlightShadow, HighlightShadow(shadows: 0.3, highlights: 0.8))
        XCTAssertEqual(chain.faceBalance, FaceBalance(origI: 0.05, origQ: -0.01, strength: 0.5, warmth: 1))
        XCTAssertEqual(chain.toneCurve?.points.map(\.y), [0.1, 0.3, 0.55, 0.8, 0.95])
        XCTAssertEqual(chain.steps.map(\.filterName),
                       ["CIFaceBalance", "CIVibrance", "CIToneCurve", "CIHighlightShadowAdjust"])
    }

    func testAttributeFormAndExponentNumbers() throws {
        let packet = try XMPPacketParser.parse(Array(Self.packet("", attributes:
            #"aas:CropX="1.5e+01" aas:CropY="0" aas:CropW="1.23457e+06" aas:CropH="-0""#).utf8))
        var warnings: [String] = []
        let chain = try EditChain(xmp: packet, warnings: &warnings)
        XCTAssertEqual(chain.crop, Crop(x: 15, y: 0, width: 1_234_570, height: 0))
        XCTAssertEqual(warnings, [])
    }

    func testCanonicalOrderIgnoresDocumentOrder() throws {
        let chain = try self.chain("""
        <aas:Filters><rdf:Seq><rdf:li>CIPhotoEffectNoir</rdf:li><rdf:li>CIExposureAdjust,EV=0.5</rdf:li></rdf:Seq></aas:Filters>
        <aas:CropX>0</aas:CropX><aas:CropY>0</aas:CropY><aas:CropW>10</aas:CropW><aas:CropH>10</aas:CropH>
        <aas:Vibrance>0.5</aas:Vibrance>
        <aas:AffineA>1</aas:AffineA><aas:AffineB>0</aas:AffineB><aas:AffineC>0</aas:AffineC>
        <aas:AffineD>1</aas:AffineD><aas:AffineX>2</aas:AffineX><aas:AffineY>3</aas:AffineY>
        """)
        XCTAssertEqual(chain.steps.map(\.filterName),
                       ["CIVibrance", "CIAffineTransform", "CICrop", "CIPhotoEffectNoir", "CIExposureAdjust"])
        XCTAssertEqual(chain.serializedFilters[1].meaning, .exposure(ExposureAdjust(ev: 0.5)))
        XCTAssertEqual(chain.serializedFilters[0].meaning, .photoEffect(.noir))
    }

    func testSerializedFilterGrammar() throws {
        let filter = try SerializedFilterSyntax.parse(#"CIFoo,Extrapolate=0, Center=[1 2.5 -3], Name="a, b",Mask=nil"#)
        XCTAssertEqual(filter.name, "CIFoo")
        XCTAssertEqual(filter.parameters, [
            .init(key: "Extrapolate", value: .number(0)), .init(key: "Center", value: .vector([1, 2.5, -3])),
            .init(key: "Name", value: .text("a, b")), .init(key: "Mask", value: .null)])
        XCTAssertEqual(filter.meaning, .unsupported)
        for bad in ["", ",EV=1", "CIExposureAdjust,EV", "CIExposureAdjust,EV=abc", "CIX,A=[1 2",
                    #"CIX,A="open"#, "CIX,A=1 2", "CIExposureAdjust,EV=nan"] {
            XCTAssertThrowsError(try SerializedFilterSyntax.parse(bad), "\(bad) should be rejected")
        }
    }

    func testRedEyeStructsBothNamingsAndVariants() throws {
        let chain = try self.chain("""
        <aas:RedEyeW>2592</aas:RedEyeW><aas:RedEyeH>1936</aas:RedEyeH><aas:RedEyeISV>1</aas:RedEyeISV>
        <aas:RedEyeOrt>6</aas:RedEyeOrt><aas:RedEyeSNR>0.5</aas:RedEyeSNR><aas:RedEyeModel>m1</aas:RedEyeModel>
        <aas:RedEyeCorrections><rdf:Seq>
          <rdf:li rdf:parseType="Resource"><re:p>0.4 0.6 0.02</re:p><re:s>1000 800</re:s><re:rr>790 810 990 1010</re:rr></rdf:li>
          <rdf:li><rdf:Description rel:snappedX="1200" rel:snappedY="820" rel:pointX="0.5"/></rdf:li>
          <rdf:li rdf:parseType="Resource"><re:hb>1 2 3 4</re:hb><re:s>10 20</re:s></rdf:li>
        </rdf:Seq></aas:RedEyeCorrections>
        """)
        let redEye = try XCTUnwrap(chain.redEye)
        XCTAssertEqual(redEye.model, "m1")
        XCTAssertEqual(redEye.corrections.map(\.naming), [.short, .long, .short])
        XCTAssertEqual(redEye.corrections.map(\.variant), [.classic, .classic, .convexHull])
        XCTAssertEqual(redEye.corrections[0].fields["rr"], "790 810 990 1010")
        XCTAssertEqual(redEye.corrections[1].fields["snappedX"], "1200")
    }

    func testCameraRawCropFallbackOnlyWithoutAasGeometry() throws {
        let crs = #"crs:HasCrop="True" crs:AlreadyApplied="False" crs:CropLeft="0.25" crs:CropBottom="0.5""#
        let packet = try XMPPacketParser.parse(Array(Self.packet("", attributes: crs).utf8))
        var warnings: [String] = []
        let chain = try EditChain(xmp: packet, warnings: &warnings)
        XCTAssertEqual(chain.cameraRawCrop, CameraRawCrop(left: 0.25, top: 0, right: 1, bottom: 0.5, angle: 0))
        // l = 100, r = 400, t = 200 − 0 = 200, b = 200 − 100 = 100 on a 400 × 200 image.
        let resolved = chain.resolvingSizeDependentGeometry(storedSize: PixelSize(width: 400, height: 200))
        XCTAssertEqual(resolved.affine, .translation(-100, -100))
        XCTAssertEqual(resolved.crop, Crop(x: 0, y: 0, width: 300, height: 100))

        let applied = try XMPPacketParser.parse(Array(Self.packet("", attributes:
            crs.replacingOccurrences(of: "\"False\"", with: "\"True\"")).utf8))
        XCTAssertNil(try EditChain(xmp: applied, warnings: &warnings).cameraRawCrop, "AlreadyApplied=True")
        let withAas = try XMPPacketParser.parse(Array(Self.packet(
            "<aas:CropX>0</aas:CropX><aas:CropY>0</aas:CropY><aas:CropW>5</aas:CropW><aas:CropH>5</aas:CropH>",
            attributes: crs).utf8))
        XCTAssertNil(try EditChain(xmp: withAas, warnings: &warnings).cameraRawCrop, "aas crop wins")
    }

    func testIncompleteFiltersAndUnknownPropertiesAreReported() throws {
        var warnings: [String] = []
        let chain = try self.chain("""
        <aas:AffineA>1</aas:AffineA><aas:CropX>0</aas:CropX><aas:Sparkle>11</aas:Sparkle>
        """, warnings: &warnings)
        XCTAssertTrue(chain.isEmpty)
        XCTAssertEqual(warnings, [
            "incomplete CIAffineTransform ignored: missing aas:AffineB, aas:AffineC, aas:AffineD, aas:AffineX, aas:AffineY",
            "incomplete CICrop ignored: missing aas:CropY, aas:CropW, aas:CropH",
            "unknown adjustment properties ignored: aas:Sparkle"])
    }

    func testBadValuesAreTypedErrors() throws {
        let cases: [(String, ChainError)] = [
            ("<aas:Vibrance>abc</aas:Vibrance>",
             .invalidNumber(property: "aas:Vibrance", text: "abc", reason: "\(XMPError.notANumber("abc"))")),
            ("<aas:Vibrance><rdf:Seq><rdf:li>1</rdf:li></rdf:Seq></aas:Vibrance>",
             .expectedSimpleValue(property: "aas:Vibrance")),
            ("<aas:Filters>CIPhotoEffectMono</aas:Filters>", .expectedArray(property: "aas:Filters")),
        ]
        for (body, expected) in cases {
            XCTAssertThrowsError(try chain(body)) { XCTAssertEqual($0 as? ChainError, expected, body) }
        }
        XCTAssertThrowsError(try chain("<aas:Shadows>1e999</aas:Shadows><aas:Highlights>1</aas:Highlights>")) {
            guard case .invalidNumber(let property, _, _)? = $0 as? ChainError else { return XCTFail("\($0)") }
            XCTAssertEqual(property, "aas:Shadows")
        }
        XCTAssertThrowsError(try chain("""
        <aas:RedEyeW>1</aas:RedEyeW><aas:RedEyeH>1</aas:RedEyeH><aas:RedEyeISV>1</aas:RedEyeISV>
        <aas:RedEyeOrt>1</aas:RedEyeOrt><aas:RedEyeSNR>1</aas:RedEyeSNR>
        <aas:RedEyeCorrections><rdf:Seq><rdf:li rdf:parseType="Resource"><re:s>10</re:s></rdf:li></rdf:Seq></aas:RedEyeCorrections>
        """)) { XCTAssertEqual($0 as? ChainError, .malformedRedEyeCorrection(index: 0, reason: "field s must hold 2 finite numbers, got \"10\"")) }
    }

    // MARK: - Writer round trips

    static let everyKind = EditChain(
        redEye: RedEyeCorrections(width: 2592, height: 1936, isv: 1, ort: 6, snr: 0.25, model: "m",
                                  corrections: [
                                    RedEyeCorrection(naming: .short, fields: ["p": "0.4 0.6 0.02", "s": "1000 800", "hb": "1 2"]),
                                    RedEyeCorrection(naming: .long, fields: ["snappedX": "12", "pointX": "0.5"])]),
        faceBalance: FaceBalance(origI: 0.05, origQ: -0.01, strength: 0.5, warmth: 0.75),
        vibrance: Vibrance(amount: -0.35),
        toneCurve: ToneCurve(points: [Point(x: 0, y: 0.05), Point(x: 0.25, y: 0.3), Point(x: 0.5, y: 0.5),
                                      Point(x: 0.75, y: 0.7), Point(x: 1, y: 0.98)]),
        highlightShadow: HighlightShadow(shadows: 0.3, highlights: 0.6),
        affine: AffineMap(a: 0.99863, b: 0.052336, c: -0.052336, d: 0.99863, tx: -12.5, ty: 3),
        crop: Crop(x: 37, y: 96, width: 1660.5, height: 1100),
        serializedFilters: [SerializedFilter(name: "CIPhotoEffectChrome"),
                            SerializedFilter(name: "CIExposureAdjust", parameters: [.init(key: "EV", value: .number(-0.5))]),
                            SerializedFilter(name: "CIUnknownThing", parameters: [
                                .init(key: "V", value: .vector([1, 2])), .init(key: "S", value: .text("x & <y>")),
                                .init(key: "N", value: .null)])])

    private func roundTrip(_ chain: EditChain, style: NumberStyle) throws -> EditChain {
        let text = chain.adjustmentXMP(numberStyle: style)
        var warnings: [String] = []
        let parsed = try EditChain(xmp: try XMPPacketParser.parse(Array(text.utf8)), warnings: &warnings)
        XCTAssertEqual(warnings, [], text)
        return parsed
    }

    func testRoundTripEveryKindWithCoreImageNumbers() throws {
        XCTAssertEqual(try roundTrip(Self.everyKind, style: .coreImage), Self.everyKind)
        var crs = EditChain(); crs.cameraRawCrop = CameraRawCrop(left: 0.1, top: 0.2, right: 0.9, bottom: 0.7, angle: 2.5)
        XCTAssertEqual(try roundTrip(crs, style: .coreImage), crs)
    }

    func testRoundTripIsExactForAnyDoubleWithExactNumbers() throws {
        var generator = SplitMix64(seed: 0xAD1057)   // fixed seed: the same 50 chains every run
        for _ in 0..<50 {
            let v = (0..<6).map { _ in Double.random(in: -5000...5000, using: &generator) }
            // Away from |a| ≤ 0.001, which the writer omits by design (tested separately).
            let amount = Double.random(in: 0.002...1, using: &generator) * (Bool.random(using: &generator) ? 1 : -1)
            let chain = EditChain(vibrance: Vibrance(amount: amount),
                                  affine: AffineMap(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]),
                                  crop: Crop(x: v[5], y: v[4], width: abs(v[0]), height: abs(v[1])))
            XCTAssertEqual(try roundTrip(chain, style: .exact), chain)
        }
    }

    func testCoreImageStyleWritesPercentG() throws {
        let text = EditChain(affine: .translation(-331, 1234567.0), crop: Crop(x: 0, y: 0, width: 0.0919118, height: 1))
            .adjustmentXMP()
        XCTAssertTrue(text.contains("<aas:AffineX>-331</aas:AffineX>"), text)
        XCTAssertTrue(text.contains("<aas:AffineY>1.23457e+06</aas:AffineY>"), text)
        XCTAssertTrue(text.contains("<aas:CropW>0.0919118</aas:CropW>"), text)
    }

    func testWriterOmitsIdentityFiltersLikeIOS() throws {
        let chain = EditChain(vibrance: Vibrance(amount: 0.0005),
                              highlightShadow: HighlightShadow(shadows: 0.004, highlights: 0.999))
        let text = chain.adjustmentXMP()
        XCTAssertFalse(text.contains("Vibrance"))
        XCTAssertFalse(text.contains("Shadows"))
        XCTAssertTrue(try roundTrip(chain, style: .coreImage).isEmpty)
    }

    func testRealPayloadRoundTripsThroughTheWriter() throws {
        let chain = try TestFixtures.chain("ios5-crop.xmp")
        let written = chain.adjustmentXMP()
        XCTAssertEqual(try roundTrip(chain, style: .coreImage), chain)
        XCTAssertTrue(written.contains("         <aas:AffineX>-331</aas:AffineX>"), "3-space indent style")
    }
}
