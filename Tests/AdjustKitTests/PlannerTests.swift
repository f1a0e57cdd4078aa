@testable import AdjustKit
import XCTest

/// geometry.md §1–§3 from sizes alone: extents, decode scale choice, source region, errors.
final class PlannerTests: XCTestCase {
    private let planner = RenderPlanner()

    func testIOS5SampleKeepsTheKnownRowsAndColumns() throws {
        let chain = try TestFixtures.chain("ios5-crop.xmp")
        let plan = try planner.plan(storedSize: PixelSize(width: 2592, height: 1936), exifOrientation: 6,
                                    chain: chain, size: .full)
        XCTAssertEqual(plan.outputExtent, PixelRect(x: 0, y: 0, width: 1938, height: 1420))
        XCTAssertEqual(plan.orientedSize, PixelSize(width: 1420, height: 1938))
        // Kept stored rows 355…1774 and columns 331…2268, plus the bilinear margin of 1 px.
        XCTAssertEqual(plan.sourceRegion, PixelRect(x: 330, y: 354, width: 1940, height: 1422))
    }

    func testSeedExampleKeepsTheKnownRows() throws {
        let chain = try TestFixtures.chain("seed-example.xmp")
        let H = 2272
        let plan = try planner.plan(storedSize: PixelSize(width: 1704, height: H), exifOrientation: nil,
                                    chain: chain, size: .full)
        XCTAssertEqual(plan.outputExtent, PixelRect(x: 0, y: 0, width: 1541, height: 973))
        // Columns 108…1648, stored rows H − 1938 … H − 966.
        XCTAssertEqual(plan.sourceRegion, PixelRect(x: 107, y: H - 1938 - 1, width: 1541 + 2, height: 973 + 2))
    }

    func testExtentRuleShrinksByAThousandthThenRoundsOut() {
        XCTAssertEqual(Rect(x: 0.0005, y: 10, width: 99.9990, height: 20.5).integralExtent,
                       PixelRect(x: 0, y: 10, width: 100, height: 21))
        XCTAssertEqual(Rect(x: 9.9995, y: 0, width: 10.0006, height: 1).integralExtent,
                       PixelRect(x: 10, y: 0, width: 10, height: 1))
        XCTAssertEqual(Rect(x: 100.5, y: 200.25, width: 300.5, height: 200.75).integralExtent,
                       PixelRect(x: 100, y: 200, width: 301, height: 201))
    }

    func testScaleRequestSizesDoNotRoundOutward() throws {
        let chain = EditChain(crop: Crop(x: 0, y: 0, width: 2001, height: 1001))
        let plan = try planner.plan(storedSize: PixelSize(width: 3000, height: 2000), exifOrientation: nil,
                                    chain: chain, size: .scale(DecodeScale(numerator: 2)!))
        XCTAssertEqual(plan.outputSize, PixelSize(width: 500, height: 250))   // 500.25 → 500, 250.25 → 250
        XCTAssertEqual(plan.samplingGrid.extent, Rect(x: 0, y: 0, width: 500.25, height: 250.25))
    }

    func testMaxSizeChoosesTheSmallestScaleAtLeastTwiceTheOutput() throws {
        let stored = PixelSize(width: 4032, height: 3024)
        func plan(_ px: Int) throws -> RenderPlan {
            try planner.plan(storedSize: stored, exifOrientation: 6, chain: EditChain(), size: .maxSize(px))
        }
        let preview = try plan(1024)   // 1024 × 768 out; 2/8 gives 1008 < 2048, 4/8 gives 2016 < 2048, 5/8 gives 2520 ≥ 2048
        XCTAssertEqual(preview.outputSize, PixelSize(width: 1024, height: 768))
        XCTAssertEqual(preview.orientedSize, PixelSize(width: 768, height: 1024))
        XCTAssertEqual(preview.decodeScale, DecodeScale(numerator: 5))
        XCTAssertTrue(preview.needsResample)
        XCTAssertEqual(try plan(252).decodeScale, DecodeScale(numerator: 1))   // 504 ≥ 2·252
        XCTAssertEqual(try plan(3000).decodeScale, .full)
        let noUpscale = try plan(10_000)
        XCTAssertEqual(noUpscale.outputSize, stored)
        XCTAssertFalse(noUpscale.needsResample)
    }

    func testOrientationZeroOrOutOfRangeIsOneWithAWarning() throws {
        for value in [0, 9, -1, 65535] {
            let plan = try planner.plan(storedSize: PixelSize(width: 10, height: 20), exifOrientation: value,
                                        chain: EditChain(), size: .full)
            XCTAssertEqual(plan.orientation, .identity)
            XCTAssertEqual(plan.warnings, ["EXIF orientation \(value) is not 1–8; treated as 1"])
        }
        let six = try planner.plan(storedSize: PixelSize(width: 10, height: 20), exifOrientation: 6,
                                   chain: EditChain(), size: .full)
        XCTAssertEqual(six.orientedSize, PixelSize(width: 20, height: 10))
        XCTAssertEqual(six.warnings, [])
    }

    func testAffineWithoutCropKeepsTheTransformedBoundingBox() throws {
        let chain = EditChain(affine: AffineMap(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
        let plan = try planner.plan(storedSize: PixelSize(width: 30, height: 20), exifOrientation: 1,
                                    chain: chain, size: .full)
        XCTAssertEqual(plan.outputExtent, PixelRect(x: -20, y: 0, width: 20, height: 30))
    }

    func testImpossibleEditsAreTypedErrors() {
        let size = PixelSize(width: 100, height: 100)
        func error(_ chain: EditChain, _ request: SizeRequest = .full) -> PlanError? {
            do { _ = try planner.plan(storedSize: size, exifOrientation: 1, chain: chain, size: request); return nil }
            catch { return error }
        }
        XCTAssertEqual(error(EditChain(affine: AffineMap(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0))),
                       .singularAffine(AffineMap(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0)))
        XCTAssertEqual(error(EditChain(affine: AffineMap(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0))),
                       .nonFiniteGeometry("affine transform"))
        guard case .emptyOutput? = error(EditChain(crop: Crop(x: 500, y: 500, width: 10, height: 10))) else {
            return XCTFail("a crop outside the image keeps nothing")
        }
        guard case .emptyOutput? = error(EditChain(crop: Crop(x: 0, y: 0, width: -5, height: 10))) else {
            return XCTFail("a negative crop keeps nothing")
        }
        guard case .emptyOutput? = error(EditChain(crop: Crop(x: 0, y: 0, width: 0.0005, height: 10))) else {
            return XCTFail("a crop thinner than the extent rule's 0.001 keeps nothing")
        }
        guard case .outputTooLarge? = error(EditChain(affine: AffineMap(a: 1e6, b: 0, c: 0, d: 1e6, tx: 0, ty: 0))) else {
            return XCTFail("a huge magnification is refused before allocating")
        }
        XCTAssertEqual(error(EditChain(), .maxSize(0)), .invalidMaxSize(0))
    }

    func testSourceRegionIsTheInverseImageOfTheGridPlusOnePixel() throws {
        let chain = try TestFixtures.chain("translate-crop.xmp")   // translate(−250, −180), crop 640 × 410
        let plan = try planner.plan(storedSize: PixelSize(width: 1800, height: 1195), exifOrientation: 1,
                                    chain: chain, size: .scale(DecodeScale(numerator: 1)!))
        // Decoded 225 × 150, δ = 0.625, T′ = translate(−31.25, −23.125), grid (0, 0, 80, 51.25):
        // T′⁻¹ spans x 31.25…111.25, y 23.125…74.375, i.e. raster rows 75.625…126.875;
        // widened by 1 and rounded out: columns 30…113, rows 74…128.
        XCTAssertEqual(plan.decodedSize, PixelSize(width: 225, height: 150))
        XCTAssertEqual(plan.sourceRegion, PixelRect(x: 30, y: 74, width: 83, height: 54))
    }
}

extension PlannerTests {
    func testReducedScaleWithColourFiltersDecodesAtTwiceTheScale() throws {
        let chain = EditChain(vibrance: Vibrance(amount: 0.5), crop: Crop(x: 0, y: 0, width: 1200, height: 800))
        let stored = PixelSize(width: 1800, height: 1200)
        let eighth = try RenderPlanner().plan(storedSize: stored, exifOrientation: 1, chain: chain,
                                              size: .scale(DecodeScale(numerator: 1)!))
        XCTAssertEqual(eighth.decodeScale, DecodeScale(numerator: 2))
        XCTAssertEqual(eighth.samplingGrid.size, PixelSize(width: 300, height: 200))
        XCTAssertEqual(eighth.outputSize, PixelSize(width: 150, height: 100))
        XCTAssertTrue(eighth.needsResample)
        let half = try RenderPlanner().plan(storedSize: stored, exifOrientation: 1, chain: chain,
                                            size: .scale(DecodeScale(numerator: 4)!))
        XCTAssertEqual(half.decodeScale, .full)
        var geometryOnly = chain
        geometryOnly.vibrance = nil
        XCTAssertEqual(try RenderPlanner().plan(storedSize: stored, exifOrientation: 1, chain: geometryOnly,
                                                size: .scale(DecodeScale(numerator: 1)!)).decodeScale,
                       DecodeScale(numerator: 1), "geometry alone decodes at exactly the scale asked")
    }
}
