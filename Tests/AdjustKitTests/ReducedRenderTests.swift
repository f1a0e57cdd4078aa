@testable import AdjustKit
import XCTest

/// geometry.md §2, "Definition of correct": a reduced render shows the same region as the full
/// render area-downsampled to the same size — exact size, alignment within 0.25 output pixel
/// (phase correlation on luminance), PSNR ≥ 27 dB as a sanity floor.
final class ReducedRenderTests: XCTestCase {
    struct Measurement { var dx: Double; var dy: Double; var psnr: Double }

    private func measure(_ reduced: TestImage, againstFull full: TestImage) -> Measurement {
        let reference = ImageMetrics.areaDownsample(full, width: reduced.width, height: reduced.height)
        let shift = ImageMetrics.phaseCorrelationShift(reference, reduced)
        return Measurement(dx: shift.dx, dy: shift.dy, psnr: ImageMetrics.psnr(reference, reduced))
    }

    func testEveryGeometryCaseAtHalfQuarterEighth() throws {
        var report: [String] = []
        for c in GeometryCase.all {
            let (full, fullPlan) = try TestFixtures.render(c.image, xmp: c.xmp)
            for n in [4, 2, 1] {
                let scale = DecodeScale(numerator: n)!
                let (reduced, plan) = try TestFixtures.render(c.image, xmp: c.xmp, size: .scale(scale))
                let e = fullPlan.orientedSize
                let expected = PixelSize(width: max(1, Int((Double(e.width) * scale.value).rounded())),
                                         height: max(1, Int((Double(e.height) * scale.value).rounded())))
                XCTAssertEqual(plan.orientedSize, expected, "\(c.name) \(scale)")
                XCTAssertEqual(PixelSize(width: reduced.width, height: reduced.height), expected, "\(c.name) \(scale)")
                let m = measure(reduced, againstFull: full)
                report.append(String(format: "%-22@ %-4@ dx %+.3f dy %+.3f psnr %.1f", c.name as NSString,
                                     "\(scale)" as NSString, m.dx, m.dy, m.psnr))
                XCTAssertLessThanOrEqual(abs(m.dx), 0.25, "\(c.name) \(scale)")
                XCTAssertLessThanOrEqual(abs(m.dy), 0.25, "\(c.name) \(scale)")
                XCTAssertGreaterThanOrEqual(m.psnr, 27, "\(c.name) \(scale)")
            }
        }
        print("reduced renders vs area-downsampled full renders:\n" + report.joined(separator: "\n"))
    }

    func testTheSeedsNoDeltaShortcutIsVisiblyMisaligned() throws {
        // landscape-1800x1195 at 1/8: δ = 0.625. The seed's rescale (t/8, no δ) misplaces the
        // region by δ output pixels vertically; ours does not.
        let (full, _) = try TestFixtures.render("landscape-1800x1195.jpg", xmp: "translate-crop.xmp")
        let edit = try PhotoEdit(imagePath: TestFixtures.image("landscape-1800x1195.jpg"),
                                 editPath: TestFixtures.xmp("translate-crop.xmp"), size: .scale(GeometryCase.eighth))
        let ours = measure(TestImage(try edit.render().image), againstFull: full)
        var naivePlan = edit.plan
        naivePlan.transform = .translation(-250.0 / 8, -180.0 / 8)
        let naive = measure(TestImage(try Renderer().render(naivePlan, jpeg: try edit.original.source.whole()).image), againstFull: full)
        print(String(format: "no-δ shortcut: dy %+.3f; ours: dy %+.3f", naive.dy, ours.dy))
        XCTAssertGreaterThan(abs(naive.dy), 0.4)
        XCTAssertLessThanOrEqual(abs(ours.dy), 0.25)
    }

    func testMaxSizeMatchesTheDownsampledFullRender() throws {
        let (full, _) = try TestFixtures.render("iphone4s-2592x1936.jpg", xmp: "ios5-crop.xmp")
        let (preview, plan) = try TestFixtures.render("iphone4s-2592x1936.jpg", xmp: "ios5-crop.xmp", size: .maxSize(500))
        XCTAssertEqual(plan.orientedSize, PixelSize(width: 366, height: 500))   // 1420 × 1938 · 500/1938
        XCTAssertEqual(plan.decodeScale, DecodeScale(numerator: 5))   // 5/8 · 1938 = 1211 ≥ 1000
        let m = measure(preview, againstFull: full)
        XCTAssertLessThanOrEqual(max(abs(m.dx), abs(m.dy)), 0.25)
        // Both sides area-average, but the reference averages encoded values and the render
        // averages linear light (its default working space): close, not identical.
        XCTAssertGreaterThanOrEqual(m.psnr, 32)
    }
}
