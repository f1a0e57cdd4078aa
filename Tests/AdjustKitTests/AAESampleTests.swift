import AdjustKit
import XCTest

/// The real AAE files in Fixtures/aae (osxphotos, see Fixtures/SOURCES.md). Expected values were
/// read from the files independently of the reader: inflated with Python's zlib (wbits −15) and
/// printed with its json module, and checked against the sample table in Fixtures/SOURCES.md.
final class AAESampleTests: XCTestCase {
    private func read(_ name: String) throws -> AAEDocument {
        let bytes = try TestFixtures.bytes(TestFixtures.path("Fixtures/aae/\(name)"))
        do { return try AAEDocument(contentsOf: bytes) } catch {
            XCTFail("\(name): \(error)")
            throw error
        }
    }

    func testIMG1994SmartAdjustmentsWithZeroOneFlags() throws {
        let doc = try read("IMG_1994.AAE")
        XCTAssertEqual(doc.formatIdentifier, "com.apple.photo")
        XCTAssertEqual(doc.formatVersion, "1.5")
        XCTAssertEqual(doc.editorBundleID, "com.apple.Photos")
        XCTAssertEqual(doc.baseVersion, 0)
        XCTAssertEqual(doc.metadata, AAEMetadata(masterWidth: 4416, masterHeight: 3312, orientation: 1))
        XCTAssertEqual(doc.adjustments.map(\.identifier), ["SmartBlackAndWhite", "SmartColor", "SmartTone"])
        XCTAssertEqual(doc.disabledAdjustments, [])
        XCTAssertTrue(doc.adjustments.allSatisfy { $0.enabled && $0.formatVersion == 1 })
        // Written as 0/1 in this file (`"enabled": 1`, `"auto": 0`).
        let bw = try XCTUnwrap(doc.adjustment("SmartBlackAndWhite"))
        XCTAssertEqual(try bw.number("inputBlackAndWhite"), -0.5889986478365384)
        XCTAssertEqual(try bw.flag("auto"), false)
        XCTAssertEqual(bw.settings["auto"], .number(0))
        XCTAssertEqual(try bw.number("offsetStrength"), 0)
        let colour = try XCTUnwrap(doc.adjustment("SmartColor"))
        XCTAssertEqual(try colour.number("inputColor"), -0.845615484775641)
        XCTAssertEqual(try colour.object("statistics")["satPercentile98"], .number(0.800000011920929))
        let tone = try XCTUnwrap(doc.adjustment("SmartTone"))
        XCTAssertEqual(try tone.number("inputLight"), 0.22465695112179485)
        let statistics = try tone.object("statistics")
        XCTAssertEqual(statistics["p50"], .number(0.34901960784313724))
        XCTAssertEqual(statistics["lightMap"]?.stringValue?.prefix(12), "MTgyOTM6Mzoz")
    }

    func testIMG1853LivePhotoKeyFrameWithoutEnabledKey() throws {
        let doc = try read("IMG_1853.AAE")
        XCTAssertEqual(doc.formatVersion, "1.4")
        XCTAssertEqual(doc.editorBundleID, "com.apple.Photos")
        XCTAssertEqual(doc.metadata, AAEMetadata(masterWidth: 3024, masterHeight: 4032, orientation: 6))
        XCTAssertEqual(doc.adjustments.map(\.identifier), ["LivePhotoKeyFrame"])
        // This file's entry has no `enabled` key: it counts as enabled.
        let frame = try XCTUnwrap(doc.adjustment("LivePhotoKeyFrame"))
        XCTAssertTrue(frame.enabled)
        let time = try frame.object("time")
        XCTAssertEqual(time["value"], .number(1740))
        XCTAssertEqual(time["timescale"], .number(600))
        XCTAssertEqual(FilterRegistry.aaeSupport(of: frame), .notForStills)
    }

    func testMacOSRendersPlistWithPipelineVersion() throws {
        let doc = try read("D1D4040D-D141-44E8-93EA-E403D9F63E07.plist")
        XCTAssertEqual(doc.formatVersion, "1.4")
        XCTAssertEqual(doc.metadata, AAEMetadata(masterWidth: 1080, masterHeight: 601, orientation: 1, pipelineVersion: "OSX.4"))
        XCTAssertEqual(doc.adjustments.map(\.identifier), ["SmartBlackAndWhite"])
        let bw = try XCTUnwrap(doc.adjustment("SmartBlackAndWhite"))
        XCTAssertEqual(try bw.number("inputBlackAndWhite"), 0.6521423969072164)
        XCTAssertEqual(try bw.object("statistics"), [:])
        XCTAssertNil(try bw.optionalFlag("auto"))
    }

    func testIMG3582DepthAndBlackAndWhiteWithBooleanFlags() throws {
        let doc = try read("IMG_3582.AAE")
        XCTAssertEqual(doc.formatVersion, "1.11")
        XCTAssertEqual(doc.editorBundleID, "com.apple.Photos")
        XCTAssertEqual(doc.metadata, AAEMetadata(masterWidth: 4284, masterHeight: 5712, orientation: 6))
        XCTAssertEqual(doc.adjustments.map(\.identifier), ["SmartBlackAndWhite", "DepthEffect"])
        let bw = try XCTUnwrap(doc.adjustment("SmartBlackAndWhite"))
        XCTAssertEqual(bw.settings["auto"], .bool(false))
        XCTAssertEqual(try bw.flag("auto"), false)
        XCTAssertEqual(try bw.number("inputBlackAndWhite"), 0.3332932692307693)
        let depth = try XCTUnwrap(doc.adjustment("DepthEffect"))
        XCTAssertEqual(try depth.number("aperture"), 2.799999952316284)
        XCTAssertEqual(try depth.flag("glassesMatteAllowed"), true)
        XCTAssertEqual(try depth.object("depthInfo")["faces"], .array([]))
        XCTAssertEqual(FilterRegistry.aaeSupport(of: depth), .approximate)
    }

    func testCaptureTimeFiles() throws {
        let o3582 = try read("IMG_O3582.AAE")
        XCTAssertEqual(o3582.editorBundleID, "com.apple.camera")
        XCTAssertEqual(o3582.formatVersion, "1.11")
        XCTAssertEqual(o3582.metadata, AAEMetadata(masterWidth: 4284, masterHeight: 5712, orientation: 0))
        XCTAssertEqual(o3582.adjustments.map(\.identifier), ["DepthEffect"])

        let o5747 = try read("IMG_O5747.aae")
        XCTAssertEqual(o5747.editorBundleID, "com.apple.camera")
        XCTAssertEqual(o5747.formatVersion, "1.11")
        XCTAssertEqual(o5747.metadata, AAEMetadata(masterWidth: 4284, masterHeight: 5712, orientation: 0))
        XCTAssertEqual(o5747.adjustments.map(\.identifier), ["DepthEffect"])
        XCTAssertEqual(try o5747.adjustment("DepthEffect")?.object("focusRect")["x"], .number(0.654))

        let o3932 = try read("IMG_O3932.aae")
        XCTAssertEqual(o3932.editorBundleID, "com.apple.camera")
        XCTAssertEqual(o3932.formatVersion, "1.10")
        XCTAssertEqual(o3932.metadata, AAEMetadata(masterWidth: 0, masterHeight: 0, orientation: 0))
        XCTAssertEqual(o3932.adjustments.map(\.identifier), ["PortraitVideo"])
        let video = try XCTUnwrap(o3932.adjustment("PortraitVideo"))
        XCTAssertEqual(video.settings["renderingVersionAtCapture"], .number(3))
        XCTAssertEqual(FilterRegistry.aaeSupport(of: video), .notForStills)
    }

    /// Each sample's master size against the photo it belongs to (SOURCES.md): no warning for the
    /// right photo, a warning for a wrong one.
    func testSampleMasterSizes() throws {
        let doc = try read("IMG_1994.AAE")
        let master = (doc.metadata.masterWidth, doc.metadata.masterHeight)
        XCTAssertNil(AAEMasterSizeCheck.warning(master: master, photo: (4416, 3312)))
        XCTAssertNotNil(AAEMasterSizeCheck.warning(master: master, photo: (4032, 3024)))
        let heic = try read("IMG_1853.AAE")   // 3024×4032 oriented, for a 4032×3024 stored HEIC
        XCTAssertNil(AAEMasterSizeCheck.warning(master: (heic.metadata.masterWidth, heic.metadata.masterHeight),
                                                photo: (4032, 3024)))
    }
}
