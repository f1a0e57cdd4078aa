import AdjustKit
import Foundation
import XCTest

/// The AAE reader on synthetic files (Support/AAEBuilder): flags, disabled adjustments, other
/// format identifiers, accessors and their errors, limits, and the master-size check.
final class AAEReaderTests: XCTestCase {
    private let crop = AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":0,"yOrigin":378,"width":4032,"height":2268}"#)

    private func refused(_ bytes: [UInt8], limits: AAELimits = .default, line: UInt = #line) -> AAEError? {
        do {
            _ = try AAEDocument(contentsOf: bytes, limits: limits)
            XCTFail("accepted", line: line)
            return nil
        } catch {
            XCTAssertFalse(error.description.contains("\n"), "one line: \(error.description)", line: line)
            return error
        }
    }

    func testBothPlistFormsReadTheSame() throws {
        let xml = try AAEDocument(contentsOf: AAEBuilder.aae([crop], format: .xml))
        let binary = try AAEDocument(contentsOf: AAEBuilder.aae([crop], format: .binary))
        XCTAssertEqual(xml, binary)
        XCTAssertEqual(xml.formatVersion, "1.11")
        XCTAssertEqual(xml.editorBundleID, "com.apple.Photos")
        XCTAssertEqual(xml.metadata, AAEMetadata(masterWidth: 4032, masterHeight: 3024, orientation: 0))
        let c = try XCTUnwrap(xml.adjustment("Crop"))
        XCTAssertEqual([try c.number("xOrigin"), try c.number("yOrigin"), try c.number("width"), try c.number("height")],
                       [0, 378, 4032, 2268])
    }

    func testEnabledAsBooleanOrZeroOneAndDisabledDropped() throws {
        let doc = try AAEDocument(contentsOf: AAEBuilder.aae([
            AAEBuilder.adjustment("SmartTone", enabled: "1"),
            AAEBuilder.adjustment("SmartColor", enabled: "0"),
            AAEBuilder.adjustment("Orientation", enabled: "true", settings: #"{"value":8}"#),
            AAEBuilder.adjustment("Effect", enabled: "false", settings: #"{"effectName":"Noir"}"#),
            AAEBuilder.adjustment("LivePhotoKeyFrame", enabled: nil),
        ]))
        XCTAssertEqual(doc.adjustments.map(\.identifier), ["SmartTone", "Orientation", "LivePhotoKeyFrame"])
        XCTAssertEqual(doc.disabledAdjustments, ["SmartColor", "Effect"])
    }

    func testEnabledOfAnotherTypeIsRefused() {
        let error = refused(AAEBuilder.aae([AAEBuilder.adjustment("Crop", enabled: #""yes""#)]))
        XCTAssertEqual(error, .malformedPayload(path: "adjustments[0].enabled", problem: "is a string, not a boolean or 0/1"))
        XCTAssertEqual(refused(AAEBuilder.aae([AAEBuilder.adjustment("Crop", enabled: "2")])),
                       .malformedPayload(path: "adjustments[0].enabled", problem: "is a number, not a boolean or 0/1"))
    }

    func testOtherFormatIdentifiersAreRefusedNamingFormatAndEditor() {
        for (identifier, editor) in [("com.apple.Photos.externalEdit", "com.apple.Photos"),
                                     ("com.pixelmator.photo", "com.pixelmatorteam.pixelmator.photo"),
                                     ("com.apple.video.slomo", "com.apple.camera")] {
            for format in [AAEBuilder.Format.xml, .binary] {
                let bytes = AAEBuilder.plist(data: [1, 2, 3], format: format, identifier: identifier, editor: editor)
                let error = refused(bytes)
                XCTAssertEqual(error, .unsupportedFormat(identifier: identifier, editor: editor))
                XCTAssertEqual(error?.description,
                               "AAE edit in format \"\(identifier)\" by \"\(editor)\" cannot be replayed (only com.apple.photo can)")
            }
        }
        XCTAssertEqual(refused(AAEBuilder.plist(data: [1], format: .xml, identifier: "x.y", editor: nil)),
                       .unsupportedFormat(identifier: "x.y", editor: "an unnamed editor"))
    }

    func testMissingKeys() {
        XCTAssertEqual(refused(AAEBuilder.plist(data: AAEBuilder.deflate(Array(AAEBuilder.payload([]).utf8)),
                                                format: .xml, editor: nil)),
                       .missingPlistKey("adjustmentEditorBundleID"))
        let noData = try! PropertyListSerialization.data(fromPropertyList: [
            "adjustmentFormatIdentifier": "com.apple.photo", "adjustmentEditorBundleID": "com.apple.Photos",
            "adjustmentFormatVersion": "1.4"], format: .xml, options: 0)
        XCTAssertEqual(refused([UInt8](noData)), .missingPlistKey("adjustmentData"))
        let array = try! PropertyListSerialization.data(fromPropertyList: ["a"], format: .binary, options: 0)
        XCTAssertEqual(refused([UInt8](array)), .malformedPropertyList("the root is not a dictionary"))
        XCTAssertEqual(refused(Array("adjustmentFormatIdentifier = x;".utf8)), .notAPropertyList)
        XCTAssertEqual(refused([]), .notAPropertyList)
    }

    func testPayloadShape() {
        func payload(_ json: String) -> [UInt8] {
            AAEBuilder.plist(data: AAEBuilder.deflate(Array(json.utf8)), format: .binary)
        }
        XCTAssertEqual(refused(payload("[]")), .malformedPayload(path: "the top level", problem: "is an array, not an object"))
        XCTAssertEqual(refused(payload(#"{"adjustments":[]}"#)), .malformedPayload(path: "metadata", problem: "is missing"))
        XCTAssertEqual(refused(payload(#"{"metadata":{"masterWidth":1.5,"masterHeight":2,"orientation":1},"adjustments":[]}"#)),
                       .malformedPayload(path: "metadata.masterWidth", problem: "is 1.5, not a whole number within ±2³¹"))
        XCTAssertEqual(refused(payload(#"{"metadata":{"masterWidth":1,"masterHeight":2,"orientation":1}}"#)),
                       .malformedPayload(path: "adjustments", problem: "is missing"))
        XCTAssertEqual(refused(payload(#"{"metadata":{"masterWidth":1,"masterHeight":2,"orientation":1},"adjustments":[{"settings":{}}]}"#)),
                       .malformedPayload(path: "adjustments[0].identifier", problem: "is missing or not a string"))
        XCTAssertEqual(refused(payload(#"{"metadata":{"masterWidth":1,"masterHeight":2,"orientation":1},"adjustments":[{"identifier":"Crop","settings":[]}]}"#)),
                       .malformedPayload(path: "adjustments[0].settings", problem: "is an array, not an object"))
        XCTAssertEqual(refused(payload(#"{"metadata":{"masterWidth":-4,"masterHeight":2,"orientation":1},"adjustments":[]}"#)),
                       .pixelValueOutOfRange(adjustment: "metadata", key: "masterWidth", value: -4, limit: 1_048_576))
    }

    func testAccessorErrorsNameAdjustmentAndKey() throws {
        let doc = try AAEDocument(contentsOf: AAEBuilder.aae([AAEBuilder.adjustment(
            "Effect", settings: #"{"effectName":"Noir","effectIntensity":"half","auto":1,"nested":{"a":[1,null]}}"#)]))
        let effect = try XCTUnwrap(doc.adjustment("Effect"))
        XCTAssertEqual(try effect.string("effectName"), "Noir")
        XCTAssertEqual(try effect.flag("auto"), true)
        XCTAssertEqual(try effect.object("nested")["a"], .array([.number(1), .null]))
        XCTAssertNil(try effect.optionalNumber("effectVersion"))
        XCTAssertThrowsError(try effect.number("effectIntensity")) { error in
            XCTAssertEqual(error as? AAEError, .wrongSettingType(adjustment: "Effect", key: "effectIntensity",
                                                                 expected: "a number", found: "a string"))
            XCTAssertEqual("\(error)", #"AAE adjustment "Effect" setting "effectIntensity" must be a number, got a string"#)
        }
        XCTAssertThrowsError(try effect.number("effectVersion")) { error in
            XCTAssertEqual("\(error)", #"AAE adjustment "Effect" has no setting "effectVersion""#)
        }
        XCTAssertThrowsError(try effect.flag("effectName")) { error in
            XCTAssertEqual(error as? AAEError, .wrongSettingType(adjustment: "Effect", key: "effectName",
                                                                 expected: "a boolean or 0/1", found: "a string"))
        }
    }

    func testCropPixelValuesAreBounded() throws {
        let huge = AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":0,"yOrigin":0,"width":1e12,"height":10}"#)
        let error = refused(AAEBuilder.aae([huge], format: .binary))
        XCTAssertEqual(error, .pixelValueOutOfRange(adjustment: "Crop", key: "width", value: 1e12, limit: 1_048_576))
        XCTAssertEqual(error?.description, #"AAE adjustment "Crop" setting "width" is 1000000000000.0, beyond the ±1048576.0 pixel limit"#)
        // A value of the wrong type is no hostile magnitude: the document reads, and that one
        // adjustment is not replayed (aae-format.md §10), with the reason.
        let wrongType = AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":"left","yOrigin":0,"width":5,"height":10}"#)
        var notes: [String] = []
        let chain = try EditChain(aae: AAEDocument(contentsOf: AAEBuilder.aae([wrongType])), notes: &notes)
        XCTAssertEqual(chain.notReplayed, [#"Crop (setting "xOrigin" must be a number, got a string)"#])
        // A disabled crop is not checked: it is never used.
        XCTAssertNoThrow(try AAEDocument(contentsOf: AAEBuilder.aae([
            AAEBuilder.adjustment("Crop", enabled: "false", settings: #"{"width":1e12}"#)])))
    }

    func testLimitsEachFire() {
        let file = AAEBuilder.aae([crop])
        XCTAssertEqual(refused(file, limits: AAELimits(maxFileBytes: 100)), .fileTooLarge(bytes: file.count, limit: 100))
        // The builder's binary plist: the top dictionary, its 6 keys and their 6 values.
        XCTAssertEqual(refused(AAEBuilder.aae([crop], format: .binary), limits: AAELimits(maxPlistObjects: 3)),
                       .tooManyPlistObjects(count: 13, limit: 3))
        // XML: the top dictionary, its 6 values, the extra array and its 5 000 integers.
        let manyXML = AAEBuilder.plist(data: [0], format: .xml, extra: ["extra": Array(0..<5000)])
        XCTAssertEqual(refused(manyXML), .tooManyPlistObjects(count: 5008, limit: 4096))
        let manyBinary = AAEBuilder.plist(data: [0], format: .binary, extra: ["extra": Array(0..<5000)])
        guard case .tooManyPlistObjects(let count, 4096)? = refused(manyBinary), count > 5000 else {
            return XCTFail("binary plist with 5 000 integers")
        }
        let compressed = AAEBuilder.deflate(Array(AAEBuilder.payload([crop]).utf8)).count
        XCTAssertEqual(refused(file, limits: AAELimits(maxCompressedBytes: 20)), .payloadTooLarge(bytes: compressed, limit: 20))
        XCTAssertEqual(refused(file, limits: AAELimits(maxInflatedBytes: 100)), .inflatedTooLarge(limit: 100))
        XCTAssertEqual(refused(file, limits: AAELimits(maxJSONDepth: 3)), .jsonNestingTooDeep(limit: 3))
        XCTAssertEqual(refused(file, limits: AAELimits(maxJSONValues: 10)), .tooManyJSONValues(limit: 10))
        XCTAssertEqual(refused(file, limits: AAELimits(maxContainerCount: 3)), .containerTooLarge(limit: 3))
        XCTAssertEqual(refused(file, limits: AAELimits(maxNumberLength: 3)), .numberOutOfRange("4032… (4 characters)"))
        XCTAssertEqual(refused(AAEBuilder.aae([crop, crop, crop]), limits: AAELimits(maxAdjustments: 2)),
                       .tooManyAdjustments(count: 3, limit: 2))
        XCTAssertEqual(refused(file, limits: AAELimits(maxPixelValue: 4000)),
                       .pixelValueOutOfRange(adjustment: "metadata", key: "masterWidth", value: 4032, limit: 4000))
        // At the limits exactly, it reads.
        XCTAssertNoThrow(try AAEDocument(contentsOf: file, limits: AAELimits(maxFileBytes: file.count, maxJSONDepth: 4,
                                                                             maxPixelValue: 4032)))
    }

    func testJSONScanAgreesWithTheParserOnStrings() throws {
        // Brackets, commas and quotes inside strings (escaped or not) are not structure: the list
        // is the 5th level, the adjustment object has 5 members.
        let tricky = AAEBuilder.adjustment("SmartTone", settings: #"{"note":"[[{,\"]}\\","list":["a,b","]"],"e":-1.5e-3}"#)
        let doc = try AAEDocument(contentsOf: AAEBuilder.aae([tricky]), limits: AAELimits(maxJSONDepth: 5, maxContainerCount: 5))
        let tone = try XCTUnwrap(doc.adjustment("SmartTone"))
        XCTAssertEqual(try tone.string("note"), #"[[{,"]}\"#)
        XCTAssertEqual(tone.settings["list"], .array([.string("a,b"), .string("]")]))
        XCTAssertEqual(try tone.number("e"), -0.0015)
    }

    func testMasterSizeCheck() {
        // The three kinds of master size seen in samples (spec §2).
        XCTAssertNil(AAEMasterSizeCheck.warning(master: (4416, 3312), photo: (4416, 3312)))
        XCTAssertNil(AAEMasterSizeCheck.warning(master: (3024, 4032), photo: (4032, 3024)))
        XCTAssertNil(AAEMasterSizeCheck.warning(master: (2268, 4032), photo: (4032, 3024), crop: (4032, 2268)))
        XCTAssertNil(AAEMasterSizeCheck.warning(master: (4032, 2268), photo: (4032, 3024), crop: (4032, 2268)))
        XCTAssertNil(AAEMasterSizeCheck.warning(master: (0, 0), photo: (4032, 3024)))
        XCTAssertEqual(AAEMasterSizeCheck.warning(master: (4416, 3312), photo: (4032, 3024)),
                       "the edit was made on a 4416×3312 image, but the photo is 4032×3024: it may belong to another photo")
        XCTAssertEqual(AAEMasterSizeCheck.warning(master: (2268, 4032), photo: (4000, 3000), crop: (4032, 2267.5)),
                       "the edit was made on a 2268×4032 image, but the photo is 4000×3000 (and the crop is 4032×2267.5): "
                       + "it may belong to another photo")
    }
}
