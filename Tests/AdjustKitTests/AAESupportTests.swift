@testable import AdjustKit
import XCTest

/// Spec aae-format.md §3: for every identifier in its table, a synthetic AAE (XML and binary
/// property list) that reads and gets the level the spec gives. The expected levels are written
/// here from the spec's table, not taken from the filters' own `aaeSupport`.
final class AAESupportTests: XCTestCase {
    /// (identifier, settings JSON, expected level) per the spec's rows.
    static let cases: [(String, String, AAESupportLevel)] = [
        ("Crop", #"{"xOrigin":0,"yOrigin":378,"width":4032,"height":2268,"straightenAngle":0.05,"pitch":0,"yaw":0,"constraintWidth":16,"constraintHeight":9,"auto":false,"originalCrop":true,"smart":false}"#, .exact),
        ("Crop", #"{"xOrigin":10,"yOrigin":20,"width":3000,"height":2000,"pitch":12.5,"yaw":0}"#, .approximate),
        ("Crop", #"{"xOrigin":10,"yOrigin":20,"width":3000,"height":2000,"pitch":0,"yaw":-4}"#, .approximate),
        ("Orientation", #"{"value":6}"#, .exact),
        ("Effect", #"{"effectName":"Mono","effectVersion":0,"effectIntensity":0.5}"#, .approximate),
        ("Effect", #"{"effectName":"Tonal"}"#, .approximate),
        ("Effect", #"{"effectName":"Noir"}"#, .approximate),
        ("Effect", #"{"effectName":"Fade"}"#, .approximate),
        ("Effect", #"{"effectName":"Chrome"}"#, .approximate),
        ("Effect", #"{"effectName":"Process"}"#, .approximate),
        ("Effect", #"{"effectName":"Transfer"}"#, .approximate),
        ("Effect", #"{"effectName":"Instant"}"#, .approximate),
        ("Effect", #"{"effectName":"Vivid","effectIntensity":1}"#, .unsupported),
        ("Effect", #"{"effectName":"DramaticCool"}"#, .unsupported),
        ("Effect", #"{"effectName":"Silvertone"}"#, .unsupported),
        ("Effect3D", #"{"effectName":"3DVivid"}"#, .approximate),
        ("Effect", #"{"effectName":"3DDramaticCool","effectVersion":1}"#, .approximate),
        ("WhiteBalance", #"{"colorType":"faceBalance","faceI":0.1,"faceQ":-0.05,"faceStrength":0.8,"faceWarmth":0.3}"#, .strong),
        ("WhiteBalance", #"{"colorType":1,"faceI":0.1,"faceQ":-0.05,"faceStrength":0.8,"faceWarmth":0.3}"#, .strong),
        ("WhiteBalance", #"{"colorType":"tempTint","temperature":5600,"tint":10}"#, .approximate),
        ("WhiteBalance", #"{"colorType":"warmTint","warmTemp":0.2,"warmTint":0.1,"warmFace":0}"#, .approximate),
        ("WhiteBalance", #"{"colorType":"neutralGray","grayY":0.5,"grayI":0.01,"grayQ":0.02,"grayWarmth":0}"#, .approximate),
        ("SmartTone", #"{"inputLight":0.2,"offsetExposure":0,"offsetContrast":0,"auto":0,"statistics":{"lightMap":"AAAA"}}"#, .approximate),
        ("SmartColor", #"{"inputColor":-0.8,"offsetSaturation":0,"offsetCast":0,"auto":false}"#, .approximate),
        ("SmartBlackAndWhite", #"{"inputBlackAndWhite":0.3,"offsetStrength":0,"offsetTone":0,"offsetNeutralGamma":0,"offsetGrain":0,"auto":false}"#, .approximate),
        ("RKCurvesOperation", #"{"RGBCurvePoints":[{"x":0,"y":0},{"x":1,"y":1}]}"#, .approximate),
        ("RKLevelsOperation", #"{"inputBlackSrcRGB":0,"inputBlackDstRGB":0}"#, .approximate),
        ("DGVignetteEffectOperation", #"{"inputKeys":{"inputIntensity":0.5,"inputRadius":0.6,"inputFalloff":0.5}}"#, .approximate),
        ("DGDefinition2Operation", #"{"inputIntensity":0.5}"#, .approximate),
        ("RKProSharpenOperation", #"{"inputSharpness":0.5,"inputEdgeScale":0.5,"inputFalloff":0.7}"#, .approximate),
        ("RKNoiseReductionOperation", #"{"radius":3,"edgeDetail":1.5}"#, .approximate),
        ("Grain", #"{"amount":0.5,"iso":800,"seed":0.25}"#, .approximate),
        ("RKSelectiveColorOperation", #"{"corrections":[{"red":1,"green":0,"blue":0,"hueShift":20}]}"#, .approximate),
        ("RKRetouchOperation", "{}", .unsupported),
        ("RedEyeBB", "{}", .unsupported),
        ("RKRedEyeOperation", "{}", .unsupported),
        ("DepthEffect", #"{"aperture":2.8}"#, .approximate),
        ("PortraitEffect", "{}", .unsupported),
        ("SemanticStyle", "{}", .unsupported),
        ("LivePhotoKeyFrame", #"{"time":{"value":1740,"timescale":600,"flags":1,"epoch":0}}"#, .notForStills),
        ("VideoPosterFrame", "{}", .notForStills),
        ("Trim", "{}", .notForStills),
        ("SlowMotion", "{}", .notForStills),
        ("Mute", "{}", .notForStills),
        ("AutoLoop", "{}", .notForStills),
        ("VideoStabilize", "{}", .notForStills),
        ("VideoCrossfadeLoop", "{}", .notForStills),
        ("PortraitVideo", "{}", .notForStills),
        ("CinematicAudio", "{}", .notForStills),
        ("HighResolutionFusion", "{}", .notForStills),
        ("SomethingAppleAddsNext", "{}", .unknown),
    ]

    func testEveryIdentifierInBothPlistForms() throws {
        for (identifier, settings, level) in Self.cases {
            for format in [AAEBuilder.Format.xml, .binary] {
                let bytes = AAEBuilder.aae([AAEBuilder.adjustment(identifier, settings: settings)], format: format)
                let context = "\(identifier) \(settings) (\(format))"
                let doc: AAEDocument
                do { doc = try AAEDocument(contentsOf: bytes) } catch { XCTFail("\(context): \(error)"); continue }
                XCTAssertEqual(doc.adjustments.map(\.identifier), [identifier], context)
                let adjustment = try XCTUnwrap(doc.adjustments.first)
                XCTAssertEqual(FilterRegistry.aaeSupport(of: adjustment), level, context)
            }
        }
    }

    /// Every identifier a filter reads or the registry lists has a row here, and only the made-up
    /// one is unknown.
    func testEveryKnownIdentifierIsTested() {
        let known = Set(FilterRegistry.aaeKinds.keys).union(FilterRegistry.unsupportedAAEIdentifiers)
            .union(FilterRegistry.notForStillsAAENotes.keys)
        let tested = Set(Self.cases.map(\.0))
        XCTAssertEqual(known.subtracting(tested), [], "identifiers without a test")
        XCTAssertEqual(tested.subtracting(known), ["SomethingAppleAddsNext"])
    }

    func testUserCubeMakesNewerEffectsApproximate() {
        let vivid = AAEAdjustment(identifier: "Effect", settings: ["effectName": .string("Vivid")])
        XCTAssertEqual(FilterRegistry.aaeSupport(of: vivid), .unsupported)
        XCTAssertEqual(FilterRegistry.aaeSupport(of: vivid, hasUserCube: true), .approximate)
        let threeD = AAEAdjustment(identifier: "Effect3D", settings: ["effectName": .string("3DVivid")])
        XCTAssertEqual(FilterRegistry.aaeSupport(of: threeD), .approximate, "a built-in approximation")
        XCTAssertEqual(FilterRegistry.aaeSupport(of: threeD, hasUserCube: true), .approximate)
    }

    /// Reading does what the level says: a replayed level gives only steps of the identifier's own
    /// filter (and the metadata's orientation), an unsupported or unknown one an
    /// `UnsupportedAdjustment` (marked unknown only for the unknown), a not-for-stills one a note.
    func testReadingFollowsTheLevel() throws {
        for (identifier, settings, level) in Self.cases {
            let doc = try AAEDocument(contentsOf: AAEBuilder.aae([AAEBuilder.adjustment(identifier, settings: settings)], format: .xml))
            var notes: [String] = []
            let chain = try EditChain(aae: doc, notes: &notes)
            let context = "\(identifier) \(settings)"
            let unsupported = chain.all(UnsupportedAdjustment.self)
            switch level {
            case .exact, .strong, .approximate:
                let kind = try XCTUnwrap(FilterRegistry.aaeKinds[identifier], context)
                XCTAssertEqual(unsupported, [], context)
                for step in chain.filters {
                    let stepKind = ObjectIdentifier(type(of: step))
                    XCTAssertTrue(stepKind == ObjectIdentifier(kind) || stepKind == ObjectIdentifier(PhotosOrientation.self), context)
                }
            case .unsupported, .unknown:
                XCTAssertEqual(unsupported.map(\.isUnknown), [level == .unknown], context)
                XCTAssertEqual(notes, [], context)
            case .notForStills:
                XCTAssertEqual(unsupported, [], context)
                XCTAssertEqual(notes.count, 1, context)
                XCTAssertTrue(notes.first?.hasPrefix("\(identifier) ignored: ") == true, context)
            }
        }
    }
}
