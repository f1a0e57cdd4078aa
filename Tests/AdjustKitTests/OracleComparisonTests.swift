@testable import AdjustKit
import XCTest

/// The fast renderer against the independent slow oracle (Support/GeometryOracle.swift), on
/// the same decoded pixels, at full and reduced scale.
final class OracleComparisonTests: XCTestCase {
    private func compare(_ c: GeometryCase, scale: DecodeScale, space: WorkingSpace) throws {
        let (fast, plan) = try TestFixtures.render(c.image, xmp: c.xmp, size: scale == .full ? .full : .scale(scale),
                                                   space: space)
        let chain = plan.chain.resolvingSizeDependentGeometry(storedSize: plan.storedSize)
        let orientation = try TestFixtures.exifOrientation(c.image)
        let decoded = try TestFixtures.decoded(c.image, scale: scale)
        let edit = TestFixtures.oracleEdit(chain)
        let slow = scale == .full
            ? GeometryOracle.render(stored: decoded, orientation: orientation, edit: edit, linearLight: space == .linear)
            : GeometryOracle.renderReduced(decoded: decoded, storedWidth: plan.storedSize.width,
                                           storedHeight: plan.storedSize.height, scaleNumerator: scale.numerator,
                                           orientation: orientation, edit: edit, linearLight: space == .linear)
        XCTAssertEqual(fast.width, slow.width, "\(c.name) at \(scale) in \(space)")
        XCTAssertEqual(fast.height, slow.height, "\(c.name) at \(scale) in \(space)")
        guard fast.width == slow.width, fast.height == slow.height else { return }
        let diff = ImageMetrics.differences(fast, slow)
        if c.isPixelCopy, scale == .full {
            XCTAssertEqual(fast, slow, "\(c.name): an exact pixel copy must match the oracle exactly")
        } else {
            // Both round the same real number; they may differ where it sits within float noise of .5.
            XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 0, 1, "\(c.name) at \(scale) in \(space): \(diff)")
            XCTAssertLessThan(diff.meanPerChannel.max() ?? 0, 0.01, "\(c.name) at \(scale) in \(space): \(diff)")
        }
        if scale == .full {
            let e = GeometryOracle.outputExtent(storedWidth: plan.storedSize.width, storedHeight: plan.storedSize.height, edit: edit)
            XCTAssertEqual(PixelRect(x: e.x, y: e.y, width: e.w, height: e.h), plan.outputExtent, c.name)
        }
    }

    func testFullResolutionMatchesTheOracle() throws {
        for space in WorkingSpace.allCases {
            for c in GeometryCase.all { try compare(c, scale: .full, space: space) }
        }
    }

    func testReducedRendersMatchTheOracle() throws {
        for space in WorkingSpace.allCases {
            for c in GeometryCase.all {
                for n in [4, 2, 1] { try compare(c, scale: DecodeScale(numerator: n)!, space: space) }
            }
        }
    }

    func testNinetyDegreeAffineIsOrientationEightOfTheOriginal() throws {
        // Rotating 90° counter-clockwise (y up) is what EXIF orientation 8 does: two independent
        // routes to the same pixels.
        let (rotated, _) = try TestFixtures.render("Landscape_1.jpg", xmp: "rotate-90.xmp")
        let original = try TestFixtures.decoded("Landscape_1.jpg")
        XCTAssertEqual(rotated.rgb(), GeometryOracle.orient(original, 8))
    }
}
