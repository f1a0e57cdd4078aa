@testable import AdjustKit
import XCTest

/// geometry.md §2: the rescaler's arithmetic, and proof that each shortcut of the seed's
/// Objective-C version (one zoom from min(W/W′, H/H′), no δ, rotations ignored, pixel
/// parameters other than tx/ty/crop ignored) is measurably wrong where ours is right.
final class RescalerTests: XCTestCase {
    /// Where stored raster point (u, v) lands in the reduced output raster, in output pixels,
    /// minus where it should land: its full-resolution output position × the output scale.
    private func misplacement(u: Double, v: Double, stored: PixelSize, full: EditChain,
                              reducedAffine: AffineMap, scale: DecodeScale) throws -> (dx: Double, dy: Double) {
        let plan = try RenderPlanner().plan(storedSize: stored, exifOrientation: 1, chain: full, size: .scale(scale))
        let e = plan.outputExtent
        let q = (full.affine ?? .identity).apply(Point(x: u, y: Double(stored.height) - v))
        let fullPosition = (x: q.x - Double(e.x), y: Double(e.y + e.height) - q.y)
        let (w, h) = (Double(e.width), Double(e.height))
        let (w2, h2) = (Double(plan.outputSize.width), Double(plan.outputSize.height))
        let s = scale.value
        let decodedHeight = Double(plan.decodedSize.height)
        let q2 = reducedAffine.apply(Point(x: s * u, y: decodedHeight - s * v))
        let grid = plan.samplingGrid.extent
        let reducedPosition = (x: (q2.x - grid.minX) * w2 / (s * w), y: (grid.maxY - q2.y) * h2 / (s * h))
        return (reducedPosition.x - fullPosition.x * w2 / w, reducedPosition.y - fullPosition.y * h2 / h)
    }

    private func ours(_ chain: EditChain, _ stored: PixelSize, _ scale: DecodeScale) -> AffineMap {
        chain.rescaled(by: RescaleFactors(storedSize: stored, scale: scale)).affine ?? .identity
    }

    func testDeltaAndDecodedSizes() {
        let f = RescaleFactors(storedSize: PixelSize(width: 1800, height: 1195), scale: DecodeScale(numerator: 1)!)
        XCTAssertEqual(f.decodedSize, PixelSize(width: 225, height: 150))
        XCTAssertEqual(f.delta, 150 - 1195.0 / 8)   // 0.625
        XCTAssertEqual(RescaleFactors(storedSize: PixelSize(width: 2592, height: 1936), scale: DecodeScale(numerator: 2)!).delta, 0)
    }

    func testTranslationAndCropArithmetic() {
        let chain = EditChain(affine: .translation(-331, -161), crop: Crop(x: 0, y: 0, width: 1938, height: 1420))
        let stored = PixelSize(width: 2592, height: 1935)   // H′ at 1/4 = 484, δ = 484 − 483.75
        let r = chain.rescaled(by: RescaleFactors(storedSize: stored, scale: DecodeScale(numerator: 2)!))
        XCTAssertEqual(r.affine, .translation(-331.0 / 4, -161.0 / 4 - 0.25))
        XCTAssertEqual(r.crop, Crop(x: 0, y: 0, width: 484.5, height: 355))   // no early rounding
    }

    func testRotationCarriesDeltaThroughTheMatrix() {
        // t′ = s·t − A·(0, δ); for A = 90° CCW, A·(0, δ) = (−δ, 0).
        let chain = EditChain(affine: AffineMap(a: 0, b: 1, c: -1, d: 0, tx: 1195, ty: 0))
        let r = chain.rescaled(by: RescaleFactors(storedSize: PixelSize(width: 1800, height: 1195),
                                                  scale: DecodeScale(numerator: 1)!))
        XCTAssertEqual(r.affine, AffineMap(a: 0, b: 1, c: -1, d: 0, tx: 1195.0 / 8 + 0.625, ty: 0))
    }

    func testNoAffineStillGetsTheDeltaShift() {
        let chain = EditChain(crop: Crop(x: 10, y: 20, width: 100, height: 50))
        let r = chain.rescaled(by: RescaleFactors(storedSize: PixelSize(width: 1800, height: 1195),
                                                  scale: DecodeScale(numerator: 1)!))
        XCTAssertEqual(r.affine, .translation(0, -0.625))
        XCTAssertEqual(r.crop, Crop(x: 1.25, y: 2.5, width: 12.5, height: 6.25))
    }

    func testAnisotropicFactorsConjugateTheMatrix() {
        let chain = EditChain(affine: AffineMap(a: 1, b: 2, c: 3, d: 4, tx: 10, ty: 20))
        let f = RescaleFactors(sx: 0.5, sy: 0.25, delta: 0.5, storedSize: PixelSize(width: 8, height: 8),
                               decodedSize: PixelSize(width: 4, height: 3))
        // A′ = S·A·S⁻¹ = [[1, 3·0.5/0.25], [2·0.25/0.5, 4]]; t′ = S·t − A′·(0, δ).
        XCTAssertEqual(chain.rescaled(by: f).affine, AffineMap(a: 1, b: 1, c: 6, d: 4, tx: 5 - 3, ty: 5 - 2))
    }

    func testOtherPixelParametersScale() {
        var chain = EditChain(highlightShadow: HighlightShadow(shadows: 0.3, highlights: 0.8, radius: 8))
        chain.redEye = RedEyeCorrections(width: 1800, height: 1195, isv: 1, ort: 1, snr: 1, corrections: [
            RedEyeCorrection(naming: .short, fields: ["p": "0.5 0.5 0.01", "s": "1000 800", "cr": "1004 796 0.5",
                                                      "rr": "790 810 990 1010"]),
            RedEyeCorrection(naming: .long, fields: ["snappedY": "800", "pointX": "0.5"])])
        let r = chain.rescaled(by: RescaleFactors(storedSize: PixelSize(width: 1800, height: 1195),
                                                  scale: DecodeScale(numerator: 1)!))
        XCTAssertEqual(r.highlightShadow?.radius, 1)
        XCTAssertEqual(r.redEye?.width, 225)
        XCTAssertEqual(r.redEye?.height, 150)
        XCTAssertEqual(r.redEye?.corrections[0].fields,
                       ["p": "0.5 0.5 0.01", "s": "125 100", "cr": "125.5 99.5 0.5", "rr": "98.75 101.25 123.75 126.25"])
        XCTAssertEqual(r.redEye?.corrections[1].fields, ["snappedY": "100", "pointX": "0.5"])
        XCTAssertEqual(r.vibrance, chain.vibrance)
    }

    // MARK: - The seed's shortcuts, each wrong somewhere

    func testOneZoomFromMinIsWrongWhenWidthIsNotAMultipleOf8() throws {
        let stored = PixelSize(width: 1001, height: 1001)
        let scale = DecodeScale(numerator: 1)!
        let chain = EditChain(affine: .translation(-900, -100), crop: Crop(x: 0, y: 0, width: 96, height: 96))
        let decoded = scale.decodedSize(of: stored)
        let zoom = min(Double(stored.width) / Double(decoded.width), Double(stored.height) / Double(decoded.height))
        let naive = AffineMap.translation(-900 / zoom, -100 / zoom)
        let bad = try misplacement(u: 950, v: 850, stored: stored, full: chain, reducedAffine: naive, scale: scale)
        let good = try misplacement(u: 950, v: 850, stored: stored, full: chain, reducedAffine: ours(chain, stored, scale), scale: scale)
        XCTAssertGreaterThan(abs(bad.dx), 0.25, "one zoom from min() should misplace x")
        XCTAssertLessThan(max(abs(good.dx), abs(good.dy)), 1e-9)
    }

    func testIgnoringDeltaIsWrongWhenHeightIsNotAMultipleOf8() throws {
        let stored = PixelSize(width: 1800, height: 1195)
        let scale = DecodeScale(numerator: 1)!
        let chain = EditChain(affine: .translation(-250, -180), crop: Crop(x: 0, y: 0, width: 640, height: 410))
        let naive = AffineMap.translation(-250 * scale.value, -180 * scale.value)
        let bad = try misplacement(u: 400, v: 700, stored: stored, full: chain, reducedAffine: naive, scale: scale)
        let good = try misplacement(u: 400, v: 700, stored: stored, full: chain, reducedAffine: ours(chain, stored, scale), scale: scale)
        XCTAssertEqual(abs(bad.dy), 0.625, accuracy: 0.02, "no δ: off by δ = 0.625 decoded px")
        XCTAssertLessThan(max(abs(good.dx), abs(good.dy)), 1e-9)
    }

    func testIgnoringRotationMisplacesTheDeltaShift() throws {
        let stored = PixelSize(width: 1800, height: 1195)
        let scale = DecodeScale(numerator: 1)!
        let chain = EditChain(affine: AffineMap(a: 0, b: 1, c: -1, d: 0, tx: 1195, ty: 0))
        // Treats the matrix as if it were the identity: t′ = s·t − (0, δ).
        let reduced = RescaleFactors(storedSize: stored, scale: scale)
        let naive = AffineMap(a: 0, b: 1, c: -1, d: 0, tx: 1195 * scale.value, ty: -reduced.delta)
        let bad = try misplacement(u: 300, v: 500, stored: stored, full: chain, reducedAffine: naive, scale: scale)
        let good = try misplacement(u: 300, v: 500, stored: stored, full: chain, reducedAffine: ours(chain, stored, scale), scale: scale)
        XCTAssertGreaterThan(max(abs(bad.dx), abs(bad.dy)), 0.25)
        XCTAssertLessThan(max(abs(good.dx), abs(good.dy)), 1e-9)
    }

    func testIgnoringRedEyeAndRadiusLeavesThemInTheWrongFrame() {
        // The seed rescaled only tx/ty and the crop: a red-eye point at stored (1000, 800) stays
        // "1000 800" in a 225 × 150 decode — outside it entirely; ours moves it to (125, 100).
        var chain = EditChain(highlightShadow: HighlightShadow(shadows: 0.3, highlights: 1, radius: 8))
        chain.redEye = RedEyeCorrections(width: 1800, height: 1195, isv: 1, ort: 1, snr: 1, corrections: [
            RedEyeCorrection(naming: .short, fields: ["s": "1000 800"])])
        let r = chain.rescaled(by: RescaleFactors(storedSize: PixelSize(width: 1800, height: 1195),
                                                  scale: DecodeScale(numerator: 1)!))
        let naiveS = chain.redEye!.corrections[0].fields["s"]!
        XCTAssertNotEqual(naiveS, r.redEye!.corrections[0].fields["s"])
        XCTAssertEqual(r.redEye!.corrections[0].fields["s"], "125 100")
        XCTAssertNotEqual(chain.highlightShadow!.radius, r.highlightShadow!.radius)
    }
}
