@testable import AdjustKit
import Foundation
import XCTest

/// Each real AAE sample (Fixtures/aae, decoded contents in Fixtures/SOURCES.md) gives its
/// documented outcome as an edit: which steps it becomes, at which support level, and what is
/// noted or refused. (AAESampleTests checks what the reader reads; this checks what it means.)
final class AAESampleOutcomeTests: XCTestCase {
    private func load(_ name: String) throws -> LoadedEdit {
        try EditSource().load(editFile: TestFixtures.path("Fixtures/aae/\(name)"))
    }

    private func summary(_ edit: LoadedEdit) -> [String] {
        edit.chain.steps.map { "\($0.filterName) [\($0.support.rawValue)]" }
    }

    func testSmartAdjustmentsBecomeApproximateSteps() throws {
        let edit = try load("IMG_1994.AAE")
        XCTAssertEqual(edit.origin, .aae(TestFixtures.path("Fixtures/aae/IMG_1994.AAE")))
        XCTAssertEqual(summary(edit), ["SmartTone [approximate]", "SmartColor [approximate]",
                                       "SmartBlackAndWhite [approximate]", "Orientation [exact]"],
                       "Apple's order, §4; metadata.orientation 1 is the absolute orientation, §5.4")
        XCTAssertEqual(edit.masterSize, PixelSize(width: 4416, height: 3312))
        XCTAssertNil(edit.masterSizeWarning(storedSize: PixelSize(width: 3312, height: 4416)), "H×W fits too")
        XCTAssertNotNil(edit.masterSizeWarning(storedSize: PixelSize(width: 1800, height: 1200)))
    }

    func testMacOSRenderPlistIsBlackAndWhite() throws {
        XCTAssertEqual(summary(try load("D1D4040D-D141-44E8-93EA-E403D9F63E07.plist")), ["SmartBlackAndWhite [approximate]", "Orientation [exact]"])
    }

    func testLivePhotoKeyFrameIsNotedNotRendered() throws {
        let edit = try load("IMG_1853.AAE")
        XCTAssertTrue(edit.chain.steps.allSatisfy { $0.filter is PhotosOrientation }, "\(summary(edit))")
        XCTAssertEqual(edit.notes.count, 1)
        XCTAssertTrue(edit.notes[0].contains("not that frame"), edit.notes[0])
    }

    func testPortraitVideoIsNotForStills() throws {
        let edit = try load("IMG_O3932.aae")
        XCTAssertTrue(edit.chain.isEmpty)
        XCTAssertEqual(edit.notes, ["PortraitVideo ignored: it concerns video or capture, not a still"])
    }

    /// Issue 23: a portrait's DepthEffect is replayed (approximate), from the HEIC's depth image.
    func testDepthEffectIsApproximate() throws {
        for name in ["IMG_O3582.AAE", "IMG_O5747.aae"] {
            XCTAssertEqual(summary(try load(name)), ["DepthEffect [approximate]"], name)
        }
        let portrait = try load("IMG_3582.AAE")
        XCTAssertEqual(summary(portrait), ["DepthEffect [approximate]", "SmartBlackAndWhite [approximate]",
                                           "Orientation [exact]"])
        XCTAssertEqual(portrait.chain.notReplayed, [])
        let depth = try XCTUnwrap(portrait.chain[DepthEffect.self])
        XCTAssertEqual(depth.aperture, 2.8, accuracy: 1e-6)
        XCTAssertEqual(depth.focusRect[0], 0.42457142857142854, accuracy: 1e-12)
        // Without a depth image (options without one) it is left out, and says so.
        let program = try ColourProgram(chain: portrait.chain.rescaled(by: RescaleFactors(
            storedSize: PixelSize(width: 5712, height: 4284), scale: .full)), options: ColourOptions())
        XCTAssertEqual(program.skipped, ["DepthEffect left out: the photo has no depth image, so the background is not blurred"])
        XCTAssertTrue(program.neighbourhood.isEmpty)
    }

    /// No identifier is both read by a filter and listed by the registry as unsupported or not for
    /// stills: the levels have one source each.
    func testNoIdentifierHasTwoSources() {
        let read = Set(FilterRegistry.aaeKinds.keys)
        XCTAssertEqual(read.intersection(FilterRegistry.unsupportedAAEIdentifiers), [])
        XCTAssertEqual(read.intersection(FilterRegistry.notForStillsAAENotes.keys), [])
        XCTAssertEqual(FilterRegistry.unsupportedAAEIdentifiers.intersection(FilterRegistry.notForStillsAAENotes.keys), [])
    }
}
