// OracleSelfTests.swift — tests of the test-support oracle itself (GeometryOracle, ImageMetrics)
// on synthetic data, with expectations derived by hand from docs/spec/geometry.md.
// Foundation + XCTest only; nothing from the package.

import Foundation
import XCTest

final class OracleSelfTests: XCTestCase {

    // MARK: - Orientation table (geometry.md §4)

    func testOrientationTableOn3x2() {
        // Source 3 × 2, pixels named
        //   A B C
        //   D E F
        let A: [UInt8] = [10, 11, 12], B: [UInt8] = [20, 21, 22], C: [UInt8] = [30, 31, 32]
        let D: [UInt8] = [40, 41, 42], E: [UInt8] = [50, 51, 52], F: [UInt8] = [60, 61, 62]
        let src = TestImage(width: 3, height: 2, channels: 3, pixels: (A + B + C) + (D + E + F))

        // Expected rasters written by hand from the table (row-major, top row first).
        let expected: [Int: (w: Int, h: Int, rows: [[[UInt8]]])] = [
            1: (3, 2, [[A, B, C], [D, E, F]]),          // identity
            2: (3, 2, [[C, B, A], [F, E, D]]),          // mirror horizontally
            3: (3, 2, [[F, E, D], [C, B, A]]),          // rotate 180°
            4: (3, 2, [[D, E, F], [A, B, C]]),          // mirror vertically
            5: (2, 3, [[A, D], [B, E], [C, F]]),        // transpose (main diagonal)
            6: (2, 3, [[D, A], [E, B], [F, C]]),        // rotate 90° clockwise
            7: (2, 3, [[F, C], [E, B], [D, A]]),        // transverse (anti-diagonal)
            8: (2, 3, [[C, F], [B, E], [A, D]]),        // rotate 90° counter-clockwise
        ]
        for o in 1 ... 8 {
            let e = expected[o]!
            let want = TestImage(width: e.w, height: e.h, channels: 3,
                                 pixels: e.rows.flatMap { $0.flatMap { $0 } })
            XCTAssertEqual(GeometryOracle.orient(src, o), want, "orientation \(o)")
        }
        // 0 and out-of-range values are orientation 1.
        XCTAssertEqual(GeometryOracle.orient(src, 0), src)
        XCTAssertEqual(GeometryOracle.orient(src, 9), src)
        XCTAssertEqual(GeometryOracle.orient(src, -3), src)
    }

    // MARK: - Exact copies

    func testIntegerTranslationAndIntegralCropIsExactSubRectangle() {
        let W = 40, H = 30
        let stored = coordinateImage(W, H)
        // T = translate(−7, −5), R = (2, 3, 20, 12).
        // Bounding box of T(0,0,40,30) = (−7, −5, 40, 30) ⊇ R → E_out = (2, 3, 20, 12).
        // Pixel (i, j): q = (2 + i + ½, 3 + 12 − j − ½); p = q − t = (9.5 + i, 19.5 − j);
        // v = 30 − 19.5 + j = 10.5 + j → stored column 9 + i, row 10 + j.
        let edit = OracleEdit.translation(-7, -5, crop: (x: 2, y: 3, w: 20, h: 12))
        let e = GeometryOracle.outputExtent(storedWidth: W, storedHeight: H, edit: edit)
        XCTAssertTrue(e == (2, 3, 20, 12), "\(e)")
        let out = GeometryOracle.render(stored: stored, orientation: 1, edit: edit)
        XCTAssertEqual(out.width, 20); XCTAssertEqual(out.height, 12); XCTAssertEqual(out.channels, 4)
        XCTAssertEqual(out, opaqueRGBA(subImage(stored, x: 9, y: 10, w: 20, h: 12)))
    }

    func testNoEditIsIdentity() {
        let stored = coordinateImage(17, 9)
        let e = GeometryOracle.outputExtent(storedWidth: 17, storedHeight: 9, edit: OracleEdit())
        XCTAssertTrue(e == (0, 0, 17, 9), "\(e)")
        XCTAssertEqual(GeometryOracle.render(stored: stored, orientation: 0, edit: OracleEdit()),
                       opaqueRGBA(stored))
    }

    /// geometry.md §1 / xmp-format.md §2: the iOS 5.1.1 sample.
    func testIOS511SampleKeepsRows355To1774AndColumns331To2268() {
        let W = 2592, H = 1936
        let stored = coordinateImage(W, H)
        let edit = OracleEdit.translation(-331, -161, crop: (x: 0, y: 0, w: 1938, h: 1420))
        let e = GeometryOracle.outputExtent(storedWidth: W, storedHeight: H, edit: edit)
        XCTAssertTrue(e == (0, 0, 1938, 1420), "\(e)")

        let out = GeometryOracle.render(stored: stored, orientation: 1, edit: edit)
        XCTAssertEqual(out.width, 1938); XCTAssertEqual(out.height, 1420)
        // Kept stored rows 355...1774, columns 331...2268, copied exactly.
        XCTAssertEqual(decodeCoordinate(out, 0, 0), [331, 355])
        XCTAssertEqual(decodeCoordinate(out, 1937, 1419), [2268, 1774])
        XCTAssertEqual(out, opaqueRGBA(subImage(stored, x: 331, y: 355, w: 1938, h: 1420)))

        // Shown 1420 × 1938 portrait after orientation 6 (rotate 90° clockwise): display pixel
        // (x, y) is render pixel (y, 1419 − x), i.e. stored (331 + y, 1774 − x).
        let shown = GeometryOracle.render(stored: stored, orientation: 6, edit: edit)
        XCTAssertEqual(shown.width, 1420); XCTAssertEqual(shown.height, 1938)
        XCTAssertEqual(decodeCoordinate(shown, 0, 0), [331, 1774])      // top-left
        XCTAssertEqual(decodeCoordinate(shown, 1419, 0), [331, 355])    // top-right
        XCTAssertEqual(decodeCoordinate(shown, 0, 1937), [2268, 1774])  // bottom-left
        XCTAssertEqual(decodeCoordinate(shown, 1419, 1937), [2268, 355])
        var mismatches = 0
        for y in 0 ..< 1938 {
            for x in 0 ..< 1420
            where decodeCoordinate(shown, x, y) != [331 + y, 1774 - x] || shown.value(x, y, 3) != 255 {
                mismatches += 1
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// geometry.md §1 worked example from the seeds.
    func testSeedWorkedExample() {
        let W = 1700, H = 2000
        let stored = coordinateImage(W, H)
        let edit = OracleEdit.translation(-108, -965, crop: (x: 0, y: 0, w: 1541, h: 973))
        let e = GeometryOracle.outputExtent(storedWidth: W, storedHeight: H, edit: edit)
        XCTAssertTrue(e == (0, 0, 1541, 973), "\(e)")
        let out = GeometryOracle.render(stored: stored, orientation: 1, edit: edit)
        // Columns 108...1648, stored rows H − 1938 ... H − 966 = 62 ... 1034.
        XCTAssertEqual(decodeCoordinate(out, 0, 0), [108, 62])
        XCTAssertEqual(decodeCoordinate(out, 1540, 972), [1648, 1034])
        XCTAssertEqual(out, opaqueRGBA(subImage(stored, x: 108, y: 62, w: 1541, h: 973)))
    }

    /// A 90° rotation by the affine (CI frame, y up) agrees with the orientation table.
    func testAffineRotationMatchesOrientationTable() {
        let W = 7, H = 5
        let stored = coordinateImage(W, H)
        // Counter-clockwise 90° in the y-up frame: (x, y) → (−y, x), then + (H, 0).
        let ccw = OracleEdit(affine: (a: 0, b: 1, c: -1, d: 0, tx: Double(H), ty: 0), crop: nil)
        let e = GeometryOracle.outputExtent(storedWidth: W, storedHeight: H, edit: ccw)
        XCTAssertTrue(e == (0, 0, H, W), "\(e)")
        XCTAssertEqual(GeometryOracle.render(stored: stored, orientation: 1, edit: ccw),
                       opaqueRGBA(GeometryOracle.orient(stored, 8)))
        // Clockwise: (x, y) → (y, −x), then + (0, W).
        let cw = OracleEdit(affine: (a: 0, b: -1, c: 1, d: 0, tx: 0, ty: Double(W)), crop: nil)
        XCTAssertEqual(GeometryOracle.render(stored: stored, orientation: 1, edit: cw),
                       opaqueRGBA(GeometryOracle.orient(stored, 6)))
        // Without the translation the extent is (−H, 0, H, W): the rule does not care.
        let bare = OracleEdit(affine: (a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0), crop: nil)
        let eb = GeometryOracle.outputExtent(storedWidth: W, storedHeight: H, edit: bare)
        XCTAssertTrue(eb == (-H, 0, H, W), "\(eb)")
    }

    // MARK: - E_out rounding rule

    func testExtentShrinkThenRoundOutward() {
        // Overhang of 0.0005 px is swallowed by the 0.001 shrink; 0.002 adds a column.
        let tiny = GeometryOracle.outputExtent(storedWidth: 10, storedHeight: 6,
                                               edit: .translation(0.0005, -0.0005))
        XCTAssertTrue(tiny == (0, 0, 10, 6), "\(tiny)")
        let more = GeometryOracle.outputExtent(storedWidth: 10, storedHeight: 6,
                                               edit: .translation(0.002, -0.002))
        XCTAssertTrue(more == (0, -1, 11, 7), "\(more)")
        // Fractional crop (0.25, 1.5, 10.5, 3.25) inside the image → x 0...11, y 1...5.
        let frac = GeometryOracle.outputExtent(storedWidth: 20, storedHeight: 10,
                                               edit: OracleEdit(affine: nil, crop: (0.25, 1.5, 10.5, 3.25)))
        XCTAssertTrue(frac == (0, 1, 11, 4), "\(frac)")
        // Crop partly outside the image is clipped to it.
        let clip = GeometryOracle.outputExtent(storedWidth: 20, storedHeight: 10,
                                               edit: OracleEdit(affine: nil, crop: (-5, 4, 100, 100)))
        XCTAssertTrue(clip == (0, 4, 20, 6), "\(clip)")
        // Disjoint crop → empty.
        let empty = GeometryOracle.outputExtent(storedWidth: 20, storedHeight: 10,
                                                edit: OracleEdit(affine: nil, crop: (30, 0, 5, 5)))
        XCTAssertEqual(empty.w, 0)
        XCTAssertEqual(GeometryOracle.render(stored: coordinateImage(20, 10), orientation: 1,
                                             edit: OracleEdit(affine: nil, crop: (30, 0, 5, 5))).width, 0)
    }

    // MARK: - Sampling

    func testHalfPixelTranslationAveragesTwoTexels() {
        // One row: 10, 21, 40 (all channels). translate(+0.5, 0): bounding box (0.5, 0, 3, 1) →
        // E_out (0, 0, 4, 1). Output column i: q.x = i + ½, p.x = i → between texels i−1 and i,
        // weights ½ each.
        let stored = TestImage(width: 3, height: 1, channels: 3,
                               pixels: [10, 10, 10, 21, 21, 21, 40, 40, 40])
        let edit = OracleEdit.translation(0.5, 0)
        let e = GeometryOracle.outputExtent(storedWidth: 3, storedHeight: 1, edit: edit)
        XCTAssertTrue(e == (0, 0, 4, 1), "\(e)")
        let out = GeometryOracle.render(stored: stored, orientation: 1, edit: edit)
        XCTAssertEqual(out.pixel(0, 0), [10, 10, 10, 128])   // texel −1 transparent: α ½ → 127.5 → 128
        XCTAssertEqual(out.pixel(1, 0), [16, 16, 16, 255])   // (10 + 21)/2 = 15.5 → 16 (half up)
        XCTAssertEqual(out.pixel(2, 0), [31, 31, 31, 255])   // (21 + 40)/2 = 30.5 → 31
        XCTAssertEqual(out.pixel(3, 0), [40, 40, 40, 128])   // texel 3 transparent

        // Vertical: translate(0, +0.5) in the CI frame (y up) → E_out (0, 0, 1, 3); output row j
        // samples v = j, between stored rows j − 1 and j; both edge rows half transparent.
        let col = TestImage(width: 1, height: 2, channels: 3, pixels: [100, 100, 100, 201, 201, 201])
        let outV = GeometryOracle.render(stored: col, orientation: 1, edit: .translation(0, 0.5))
        XCTAssertEqual(outV.height, 3)
        XCTAssertEqual(outV.pixel(0, 0), [100, 100, 100, 128])
        XCTAssertEqual(outV.pixel(0, 1), [151, 151, 151, 255])  // 150.5 → 151
        XCTAssertEqual(outV.pixel(0, 2), [201, 201, 201, 128])
    }

    func testFractionalCropEdgeAlpha() {
        let stored = coordinateImage(20, 8)
        // Crop width 10.5 → E_out width 11; last column's footprint [10, 11] is half inside.
        let edit = OracleEdit(affine: nil, crop: (x: 0, y: 0, w: 10.5, h: 8))
        let out = GeometryOracle.render(stored: stored, orientation: 1, edit: edit)
        XCTAssertEqual(out.width, 11); XCTAssertEqual(out.height, 8)
        for y in 0 ..< 8 {
            for x in 0 ..< 10 { XCTAssertEqual(out.value(x, y, 3), 255) }
            XCTAssertEqual(out.value(10, y, 3), 128)                       // 0.5·255 = 127.5 → 128
            XCTAssertEqual(Array(out.pixel(10, y)[0 ..< 3]), stored.pixel(10, y)) // colour unpremultiplied
        }
        // Left edge at x = 0.25 (¾ covered → 191.25 → 191); bottom edge (CI y = 0.5 → last raster
        // row half covered); corner pixel: ¾ · ½ · 255 = 95.625 → 96.
        let edit2 = OracleEdit(affine: nil, crop: (x: 0.25, y: 0.5, w: 4.75, h: 2.5))
        let out2 = GeometryOracle.render(stored: stored, orientation: 1, edit: edit2)
        XCTAssertEqual(out2.width, 5); XCTAssertEqual(out2.height, 3)
        XCTAssertEqual(out2.value(0, 0, 3), 191)
        XCTAssertEqual(out2.value(1, 0, 3), 255)
        XCTAssertEqual(out2.value(1, 2, 3), 128)
        XCTAssertEqual(out2.value(0, 2, 3), 96)
        // Stored rows 5...7 (H = 8, E_out y 0...3), columns 0...4.
        XCTAssertEqual(decodeCoordinate(out2, 0, 0), [0, 5])
        XCTAssertEqual(decodeCoordinate(out2, 4, 2), [4, 7])
    }

    // MARK: - Reduced renders (geometry.md §2)

    func testReducedSizeRule2001At1Over4Is500() {
        // W = 2001, H = 9 → decoded ⌈500.25⌉ × ⌈2.25⌉ = 501 × 3.
        let decoded = TestImage(width: 501, height: 3, channels: 3,
                                pixels: [UInt8](repeating: 77, count: 501 * 3 * 3))
        let out = GeometryOracle.renderReduced(decoded: decoded, storedWidth: 2001, storedHeight: 9,
                                               scaleNumerator: 2, orientation: 1, edit: OracleEdit())
        XCTAssertEqual(out.width, 500)          // round(2001/4) = round(500.25), not 501
        XCTAssertEqual(out.height, 2)           // round(9/4) = round(2.25)
        // Tiny outputs never vanish: 3 px at 1/8 → max(1, round(0.375)) = 1.
        let tiny = GeometryOracle.renderReduced(decoded: TestImage(width: 1, height: 1, channels: 3,
                                                                   pixels: [5, 5, 5]),
                                                storedWidth: 3, storedHeight: 3, scaleNumerator: 1,
                                                orientation: 6, edit: OracleEdit())
        XCTAssertEqual(tiny.width, 1); XCTAssertEqual(tiny.height, 1)
        // Orientation 6 swaps the reduced size.
        let rot = GeometryOracle.renderReduced(decoded: decoded, storedWidth: 2001, storedHeight: 9,
                                               scaleNumerator: 2, orientation: 6, edit: OracleEdit())
        XCTAssertEqual(rot.width, 2); XCTAssertEqual(rot.height, 500)
    }

    func testReducedAtScaleOneEqualsFullRender() {
        let stored = texturedImage(37, 23)
        let edits: [OracleEdit] = [
            OracleEdit(),
            .translation(-3.25, 2.5, crop: (x: 0.5, y: 1, w: 20.25, h: 14.5)),
            OracleEdit(affine: (a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 4, ty: -3), crop: (x: -2, y: 3, w: 25, h: 12)),
        ]
        for (k, edit) in edits.enumerated() {
            for o in [1, 6] {
                let full = GeometryOracle.render(stored: stored, orientation: o, edit: edit)
                let reduced = GeometryOracle.renderReduced(decoded: stored, storedWidth: 37, storedHeight: 23,
                                                           scaleNumerator: 8, orientation: o, edit: edit)
                XCTAssertEqual(full, reduced, "edit \(k) orientation \(o)")
            }
        }
    }

    /// Hand-derived exact case for δ. Stored 26 × 30 made of constant 4 × 4 blocks aligned to the
    /// top-left (edge blocks partial), so the 1/4 decode is exactly the block values (7 × 8).
    /// Crop R = (8, 10, 16, 12) keeps raster rows 30 − 22 ... 30 − 11 = 8...19, columns 8...23.
    /// At s = ¼: δ = 8 − 7.5 = 0.5, t′ = (0, −0.5), R′ = (2, 2.5, 4, 3), output 4 × 3,
    /// q′ = (2.5 + i, 5 − j), p′ = (2.5 + i, 5.5 − j), v′ = 8 − 5.5 + j = 2.5 + j:
    /// decoded texel centres (2 + i, 2 + j) exactly. Ignoring δ would land on v′ = 3 + j (between
    /// rows).
    func testReducedDeltaExactOnBlockImage() {
        let W = 26, H = 30
        var stored = TestImage(width: W, height: H, channels: 3)
        var decoded = TestImage(width: 7, height: 8, channels: 3)
        for by in 0 ..< 8 {
            for bx in 0 ..< 7 {
                let v: [UInt8] = [UInt8(bx * 30 + 5), UInt8(by * 30 + 5), UInt8((bx * 7 + by * 11) % 256)]
                decoded.setPixel(bx, by, v)
                for y in by * 4 ..< min(H, by * 4 + 4) {
                    for x in bx * 4 ..< min(W, bx * 4 + 4) { stored.setPixel(x, y, v) }
                }
            }
        }
        let edit = OracleEdit(affine: nil, crop: (x: 8, y: 10, w: 16, h: 12))
        let reduced = GeometryOracle.renderReduced(decoded: decoded, storedWidth: W, storedHeight: H,
                                                   scaleNumerator: 2, orientation: 1, edit: edit)
        XCTAssertEqual(reduced, opaqueRGBA(subImage(decoded, x: 2, y: 2, w: 4, h: 3)))
        // …which is also the area-downsampled full render, exactly.
        let full = GeometryOracle.render(stored: stored, orientation: 1, edit: edit)
        XCTAssertEqual(full, opaqueRGBA(subImage(stored, x: 8, y: 8, w: 16, h: 12)))
        XCTAssertEqual(ImageMetrics.areaDownsample(full, width: 4, height: 3), reduced)
        // The same with a translation instead of a crop offset: T = translate(−8, −10), R = (0, 0, 16, 12).
        let edit2 = OracleEdit.translation(-8, -10, crop: (x: 0, y: 0, w: 16, h: 12))
        let reduced2 = GeometryOracle.renderReduced(decoded: decoded, storedWidth: W, storedHeight: H,
                                                    scaleNumerator: 2, orientation: 1, edit: edit2)
        XCTAssertEqual(reduced2, reduced)
    }

    /// geometry.md §2 "Definition of correct" on a textured image whose height is not a multiple
    /// of 8/s: the reduced render matches the area-downsampled full render (alignment within
    /// 0.25 px by phase correlation, PSNR ≥ 27 dB), and the δ-ignoring shortcut does not.
    func testReducedMatchesAreaDownsampledFullRender() {
        let W = 203, H = 157             // at ¼: 51 × 40, δ = 40 − 39.25 = 0.75
        let stored = texturedImage(W, H)
        let decoded = simulatedDCTDecode(stored, n: 2)
        XCTAssertEqual(decoded.width, 51); XCTAssertEqual(decoded.height, 40)
        let edit = OracleEdit.translation(-20.5, -17.25, crop: (x: 0, y: 0, w: 161, h: 122))
        let full = GeometryOracle.render(stored: stored, orientation: 1, edit: edit)
        XCTAssertEqual(full.width, 161); XCTAssertEqual(full.height, 122)
        let reduced = GeometryOracle.renderReduced(decoded: decoded, storedWidth: W, storedHeight: H,
                                                   scaleNumerator: 2, orientation: 1, edit: edit)
        XCTAssertEqual(reduced.width, 40); XCTAssertEqual(reduced.height, 31)  // round(40.25), round(30.5)
        let reference = ImageMetrics.areaDownsample(full, width: 40, height: 31)
        let shift = ImageMetrics.phaseCorrelationShift(reference, reduced)
        let psnr = ImageMetrics.psnr(reference, reduced)
        print("reduced vs area-downsampled full render: shift \(shift), PSNR \(psnr) dB")
        XCTAssertLessThan(abs(shift.dx), 0.25); XCTAssertLessThan(abs(shift.dy), 0.25)
        XCTAssertGreaterThanOrEqual(psnr, 27)

        // The shortcut that ignores δ: pretend the stored height is H′/s = 160 (so δ = 0). The crop
        // lies inside the image, so E_out is unchanged and only δ differs.
        let naive = GeometryOracle.renderReduced(decoded: decoded, storedWidth: W, storedHeight: 160,
                                                 scaleNumerator: 2, orientation: 1, edit: edit)
        XCTAssertEqual(naive.width, 40); XCTAssertEqual(naive.height, 31)
        let naiveShift = ImageMetrics.phaseCorrelationShift(reference, naive)
        print("δ-ignoring shortcut vs area-downsampled full render: shift \(naiveShift)")
        XCTAssertGreaterThan(abs(naiveShift.dy), 0.5)
        // It samples 0.75 decoded px lower in the source, so its content sits δ = 0.75 px higher.
        XCTAssertLessThan(abs(naiveShift.dy + 0.75), 0.25)
    }

    /// The same check with rotations, where t′ = s·t − A·(0, δ) has an x component (c ≠ 0).
    func testReducedRotatedMatchesAreaDownsampledFullRender() {
        let W = 203, H = 157             // at ¼: 51 × 40, δ = 0.75
        let stored = texturedImage(W, H, seed: 7)
        let decoded = simulatedDCTDecode(stored, n: 2)
        let theta = 3.0 * Double.pi / 180, cs = cos(theta), sn = sin(theta)
        let cx = Double(W) / 2, cy = Double(H) / 2
        let cases: [(name: String, edit: OracleEdit, naiveAxisIsX: Bool)] = [
            // 90° counter-clockwise (y up): (x, y) → (H − y, x); a = 0, b = 1, c = −1, d = 0.
            ("rotate 90", OracleEdit(affine: (a: 0, b: 1, c: -1, d: 0, tx: Double(H), ty: 0),
                                     crop: (x: 10, y: 12, w: 130, h: 170)), true),
            // 3° straighten about the centre, cropped inside the rotated content.
            ("straighten 3°", OracleEdit(affine: (a: cs, b: sn, c: -sn, d: cs,
                                                  tx: cx - (cs * cx - sn * cy), ty: cy - (sn * cx + cs * cy)),
                                         crop: (x: 15, y: 15, w: 170, h: 125)), false),
        ]
        for (name, edit, naiveAxisIsX) in cases {
            let e = GeometryOracle.outputExtent(storedWidth: W, storedHeight: H, edit: edit)
            let full = GeometryOracle.render(stored: stored, orientation: 1, edit: edit)
            let reduced = GeometryOracle.renderReduced(decoded: decoded, storedWidth: W, storedHeight: H,
                                                       scaleNumerator: 2, orientation: 1, edit: edit)
            let w2 = max(1, Int((Double(e.w) / 4).rounded())), h2 = max(1, Int((Double(e.h) / 4).rounded()))
            XCTAssertEqual(reduced.width, w2, name); XCTAssertEqual(reduced.height, h2, name)
            let reference = ImageMetrics.areaDownsample(full, width: w2, height: h2)
            let shift = ImageMetrics.phaseCorrelationShift(reference, reduced)
            let psnr = ImageMetrics.psnr(reference, reduced)
            print("\(name): reduced vs area-downsampled full render: shift \(shift), PSNR \(psnr) dB")
            XCTAssertLessThan(abs(shift.dx), 0.25, name); XCTAssertLessThan(abs(shift.dy), 0.25, name)
            XCTAssertGreaterThanOrEqual(psnr, 27, name)
            // δ ignored (stored height given as 160 so δ = 0; E_out is unchanged, the crop lies inside).
            let naive = GeometryOracle.renderReduced(decoded: decoded, storedWidth: W, storedHeight: 160,
                                                     scaleNumerator: 2, orientation: 1, edit: edit)
            XCTAssertEqual(GeometryOracle.outputExtent(storedWidth: W, storedHeight: 160, edit: edit).w, e.w)
            let naiveShift = ImageMetrics.phaseCorrelationShift(reference, naive)
            print("\(name): δ-ignoring shortcut: shift \(naiveShift)")
            XCTAssertGreaterThan(abs(naiveAxisIsX ? naiveShift.dx : naiveShift.dy), 0.5, name)
        }
    }

    // MARK: - ImageMetrics

    func testAreaDownsample4x4To2x2() {
        // Single-channel values (copied to R, G, B):
        //   0  2 | 10 20
        //   4  6 | 30 40
        //   -----+------
        //   1  1 | 100 100
        //   1  2 | 100 101
        // Averages: (0+2+4+6)/4 = 3, (10+20+30+40)/4 = 25, (1+1+1+2)/4 = 1.25 → 1, 401/4 = 100.25 → 100.
        let v: [UInt8] = [0, 2, 10, 20, 4, 6, 30, 40, 1, 1, 100, 100, 1, 2, 100, 101]
        let img = grey(4, 4, v)
        XCTAssertEqual(ImageMetrics.areaDownsample(img, width: 2, height: 2), grey(2, 2, [3, 25, 1, 100]))
        // 0, 1 / 2, 3 → 1.5 → 2 (half up).
        XCTAssertEqual(ImageMetrics.areaDownsample(grey(2, 2, [0, 1, 2, 3]), width: 1, height: 1),
                       grey(1, 1, [2]))
    }

    func testAreaDownsample3x3To2x2FractionalCoverage() {
        //  0  30  60
        // 90 120 150
        // 180 210 240
        // Output pixel (0,0) covers [0, 1.5)²: weights 1, ½ per axis → (1, ½; ½, ¼)/2.25:
        //   (0 + 15 + 45 + 30)/2.25 = 90/2.25 = 40.
        // (1,0) covers x [1.5, 3) × y [0, 1.5): column weights ½, 1; row weights 1, ½ →
        //   (30·½ + 69·1 + 120·¼ + 150·½)/2.25 = (15 + 69 + 30 + 75)/2.25 = 189/2.25 = 84.
        // (0,1): (90·½ + 120·¼ + 180·1 + 210·½)/2.25 = (45 + 30 + 180 + 105)/2.25 = 360/2.25 = 160.
        // (1,1): (120·¼ + 150·½ + 210·½ + 240·1)/2.25 = (30 + 75 + 105 + 240)/2.25 = 450/2.25 = 200.
        // And a non-integer one: 3 × 1 → 2 × 1 of 10, 20, 41: (10 + 10)/1.5 = 13.33 → 13,
        //   (10 + 41)/1.5 = 34.
        let img = grey(3, 3, [0, 30, 69, 90, 120, 150, 180, 210, 240])
        XCTAssertEqual(ImageMetrics.areaDownsample(img, width: 2, height: 2), grey(2, 2, [40, 84, 160, 200]))
        XCTAssertEqual(ImageMetrics.areaDownsample(grey(3, 1, [10, 20, 41]), width: 2, height: 1),
                       grey(2, 1, [13, 34]))
    }

    func testAreaDownsampleRGBAIsPremultiplied() {
        // Two pixels: opaque 200 and transparent (colour 0, α 0) → colour 200, α 127.5 → 128.
        let img = TestImage(width: 2, height: 1, channels: 4, pixels: [200, 100, 50, 255, 0, 0, 0, 0])
        XCTAssertEqual(ImageMetrics.areaDownsample(img, width: 1, height: 1),
                       TestImage(width: 1, height: 1, channels: 4, pixels: [200, 100, 50, 128]))
        // α 255 colour 0 and α 85 colour 240: premultiplied (0·1 + 240·⅓)/(1 + ⅓) = 60; α 170.
        let img2 = TestImage(width: 2, height: 1, channels: 4, pixels: [0, 0, 0, 255, 240, 240, 240, 85])
        XCTAssertEqual(ImageMetrics.areaDownsample(img2, width: 1, height: 1),
                       TestImage(width: 1, height: 1, channels: 4, pixels: [60, 60, 60, 170]))
    }

    func testPSNRAndDifferences() {
        let a = texturedImage(20, 10)
        XCTAssertEqual(ImageMetrics.psnr(a, a), .infinity)
        XCTAssertEqual(ImageMetrics.psnr(opaqueRGBA(a), a), .infinity)
        // Every value off by 5 → MSE 25 → 10·log10(65025/25) = 34.151 dB.
        let b = TestImage(width: 20, height: 10, channels: 3, pixels: a.pixels.map { $0 < 128 ? $0 + 5 : $0 - 5 })
        XCTAssertEqual(ImageMetrics.psnr(a, b), 10 * log10(65025.0 / 25), accuracy: 1e-9)
        let d = ImageMetrics.differences(a, b)
        XCTAssertEqual(d.maxPerChannel, [5, 5, 5])
        XCTAssertEqual(d.meanPerChannel, [5, 5, 5])
        // Non-opaque pixels are not compared.
        var c = opaqueRGBA(a), e = opaqueRGBA(a)
        c.setPixel(3, 3, [0, 0, 0, 100]); e.setPixel(3, 3, [255, 255, 255, 100])
        XCTAssertEqual(ImageMetrics.psnr(c, e), .infinity)
        XCTAssertEqual(ImageMetrics.differences(c, e).maxPerChannel, [255, 255, 255, 0])
        XCTAssertEqual(ImageMetrics.differences(opaqueRGBA(a), a).maxPerChannel, [0, 0, 0, 0])
        XCTAssertTrue(ImageMetrics.psnr(TestImage(width: 1, height: 1, channels: 4, pixels: [1, 2, 3, 0]),
                                        TestImage(width: 1, height: 1, channels: 4, pixels: [1, 2, 3, 0])).isNaN)
    }

    func testFFTMatchesDirectDFT() {
        let n = 16
        var re = (0 ..< n).map { sin(Double($0) * 0.7) + Double($0 % 3) }
        var im = (0 ..< n).map { cos(Double($0) * 1.3) * 0.5 }
        let (re0, im0) = (re, im)
        ImageMetrics.fft(&re, &im, inverse: false)
        for k in 0 ..< n {
            var sr = 0.0, si = 0.0
            for j in 0 ..< n {
                let ang = -2 * Double.pi * Double(j * k) / Double(n)
                sr += re0[j] * cos(ang) - im0[j] * sin(ang)
                si += re0[j] * sin(ang) + im0[j] * cos(ang)
            }
            XCTAssertEqual(re[k], sr, accuracy: 1e-9); XCTAssertEqual(im[k], si, accuracy: 1e-9)
        }
        ImageMetrics.fft(&re, &im, inverse: true)
        for j in 0 ..< n {
            XCTAssertEqual(re[j], re0[j], accuracy: 1e-12); XCTAssertEqual(im[j], im0[j], accuracy: 1e-12)
        }
    }

    /// Phase correlation recovers known shifts; b(x, y) = a(x − dx, y − dy) made by bilinear
    /// resampling a smooth textured image. Requires the default to be within 0.1 px and prints
    /// its worst error. With the environment variable ORACLE_PHASE_SURVEY set it also measures
    /// and prints every refinement variant (slow; that survey chose the default).
    func testPhaseCorrelationRecoversKnownShifts() {
        let shifts: [(Double, Double)] = [
            (0, 0), (3, -2), (-5, 4), (0.3, -0.6), (-0.3, 0.6), (0.5, 0.5), (-1.25, 0.75),
            (2.7, 1.4), (0.1, -0.1), (-3.6, -2.2), (0.9, 0.45), (-0.45, -0.85),
        ]
        let sigmas = [0.0, 0.7, 1.0, 1.5]
        let survey = ProcessInfo.processInfo.environment["ORACLE_PHASE_SURVEY"] != nil
        var worstDefault = 0.0
        // Large images with all shifts; a small 40 × 31 one (a reduced render's size) with the
        // sub-pixel shifts only.
        for (w, h) in [(96, 80), (160, 120), (40, 31)] {
            var worst: [String: Double] = [:]
            let a = texturedImage(w, h)
            for (dx, dy) in shifts where w > 40 || (abs(dx) <= 1 && abs(dy) <= 1) {
                let b = bilinearShift(a, dx, dy)
                for m in ImageMetrics.SubpixelMethod.allCases where survey {
                    for sigma in sigmas {
                        let s = ImageMetrics.phaseCorrelationShift(a, b, method: m, peakSigma: sigma)
                        let key = "\(m), peakSigma \(sigma)"
                        worst[key] = max(worst[key] ?? 0, abs(s.dx - dx), abs(s.dy - dy))
                    }
                }
                let s = ImageMetrics.phaseCorrelationShift(a, b)
                worstDefault = max(worstDefault, abs(s.dx - dx), abs(s.dy - dy))
                XCTAssertEqual(s.dx, dx, accuracy: 0.1, "\(w)x\(h) shift (\(dx), \(dy))")
                XCTAssertEqual(s.dy, dy, accuracy: 0.1, "\(w)x\(h) shift (\(dx), \(dy))")
            }
            for key in worst.keys.sorted() {
                print(String(format: "phase correlation %dx%d %@: worst error %.4f px", w, h, key, worst[key]!))
            }
        }
        print(String(format: "phase correlation default (gaussian fit, peakSigma 1.5): worst error %.4f px",
                     worstDefault))
    }

    // MARK: - Helpers (private to this file)

    /// W × H RGB image whose pixel encodes its own coordinates (u, v < 4096):
    /// R = u & 255, G = v & 255, B = (u >> 8) | (v >> 8) << 4.
    private func coordinateImage(_ W: Int, _ H: Int) -> TestImage {
        precondition(W <= 4096 && H <= 4096)
        var px = [UInt8](repeating: 0, count: W * H * 3)
        for v in 0 ..< H {
            for u in 0 ..< W {
                let k = (v * W + u) * 3
                px[k] = UInt8(u & 255)
                px[k + 1] = UInt8(v & 255)
                px[k + 2] = UInt8((u >> 8) | ((v >> 8) << 4))
            }
        }
        return TestImage(width: W, height: H, channels: 3, pixels: px)
    }

    /// Decodes (u, v) from a coordinate-image pixel (alpha is not looked at).
    private func decodeCoordinate(_ img: TestImage, _ x: Int, _ y: Int) -> [Int] {
        let k = (y * img.width + x) * img.channels
        let p = img.pixels
        return [Int(p[k]) | (Int(p[k + 2]) & 15) << 8, Int(p[k + 1]) | (Int(p[k + 2]) >> 4) << 8]
    }

    private func subImage(_ img: TestImage, x: Int, y: Int, w: Int, h: Int) -> TestImage {
        var px: [UInt8] = []
        px.reserveCapacity(w * h * img.channels)
        for row in y ..< y + h {
            let start = (row * img.width + x) * img.channels
            px += img.pixels[start ..< start + w * img.channels]
        }
        return TestImage(width: w, height: h, channels: img.channels, pixels: px)
    }

    /// RGB → RGBA with alpha 255 (RGBA passes through).
    private func opaqueRGBA(_ img: TestImage) -> TestImage {
        if img.channels == 4 { return img }
        var px: [UInt8] = []
        px.reserveCapacity(img.width * img.height * 4)
        for k in 0 ..< img.width * img.height {
            px += img.pixels[k * 3 ..< k * 3 + 3]
            px.append(255)
        }
        return TestImage(width: img.width, height: img.height, channels: 4, pixels: px)
    }

    private func grey(_ w: Int, _ h: Int, _ values: [UInt8]) -> TestImage {
        TestImage(width: w, height: h, channels: 3, pixels: values.flatMap { [$0, $0, $0] })
    }

    /// A smooth, non-periodic, broadband textured RGB image: three octaves of value noise
    /// (random lattice values every 16, 8 and 4 px, amplitudes 1, ½, ¼, smoothstep-interpolated;
    /// a fixed-seed SplitMix64 generator, so it is deterministic) plus one gentle sinusoid.
    /// Photographs are broadband; a texture of only a few sinusoids is not a fair test for phase
    /// correlation, whose whitening gives every frequency the same weight.
    private func texturedImage(_ w: Int, _ h: Int, seed: UInt64 = 1) -> TestImage {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func random() -> Double {  // SplitMix64 → [0, 1)
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z = z ^ (z >> 31)
            return Double(z >> 11) / Double(1 << 53)
        }
        func smooth(_ t: Double) -> Double { t * t * (3 - 2 * t) }
        var field = [Double](repeating: 0, count: w * h * 3)
        for c in 0 ..< 3 {
            for (cell, amp) in [(16, 1.0), (8, 0.5), (4, 0.25)] {
                let gw = w / cell + 2, gh = h / cell + 2
                let lattice = (0 ..< gw * gh).map { _ in random() - 0.5 }
                for y in 0 ..< h {
                    for x in 0 ..< w {
                        let fx = Double(x) / Double(cell), fy = Double(y) / Double(cell)
                        let gx = Int(fx), gy = Int(fy)
                        let tx = smooth(fx - Double(gx)), ty = smooth(fy - Double(gy))
                        let v00 = lattice[gy * gw + gx], v10 = lattice[gy * gw + gx + 1]
                        let v01 = lattice[(gy + 1) * gw + gx], v11 = lattice[(gy + 1) * gw + gx + 1]
                        let v = (1 - ty) * ((1 - tx) * v00 + tx * v10) + ty * ((1 - tx) * v01 + tx * v11)
                        field[(y * w + x) * 3 + c] += amp * v
                    }
                }
            }
        }
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0 ..< h {
            for x in 0 ..< w {
                for c in 0 ..< 3 {
                    let v = 128 + 230 * field[(y * w + x) * 3 + c]
                        + 20 * sin(0.05 * Double(x) + 0.08 * Double(y) + Double(c))
                    px[(y * w + x) * 3 + c] = UInt8(max(0, min(255, v.rounded())))
                }
            }
        }
        return TestImage(width: w, height: h, channels: 3, pixels: px)
    }

    /// b(x, y) = a(x − dx, y − dy), bilinear on pixel indices, edges clamped, rounded to 8 bits.
    private func bilinearShift(_ a: TestImage, _ dx: Double, _ dy: Double) -> TestImage {
        var b = TestImage(width: a.width, height: a.height, channels: a.channels)
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                let sx = Double(x) - dx, sy = Double(y) - dy
                let x0 = Int(floor(sx)), y0 = Int(floor(sy))
                let fx = sx - floor(sx), fy = sy - floor(sy)
                func at(_ xx: Int, _ yy: Int, _ c: Int) -> Double {
                    Double(a.value(min(max(xx, 0), a.width - 1), min(max(yy, 0), a.height - 1), c))
                }
                var p = [UInt8](repeating: 0, count: a.channels)
                for c in 0 ..< a.channels {
                    let v = (1 - fx) * (1 - fy) * at(x0, y0, c) + fx * (1 - fy) * at(x0 + 1, y0, c)
                        + (1 - fx) * fy * at(x0, y0 + 1, c) + fx * fy * at(x0 + 1, y0 + 1, c)
                    p[c] = UInt8(max(0, min(255, v.rounded())))
                }
                b.setPixel(x, y, p)
            }
        }
        return b
    }

    /// Simulates a DCT-scaled decode at s = n/8 for n ∈ {1, 2, 4, 8}: size ⌈W·s⌉ × ⌈H·s⌉, each
    /// decoded pixel the area average of its 8/n × 8/n stored block, edge pixels replicated past
    /// the stored border (JPEG's padding).
    private func simulatedDCTDecode(_ img: TestImage, n: Int) -> TestImage {
        precondition([1, 2, 4, 8].contains(n))
        let f = 8 / n
        let wd = (img.width + f - 1) / f, hd = (img.height + f - 1) / f
        var padded = TestImage(width: wd * f, height: hd * f, channels: img.channels)
        for y in 0 ..< hd * f {
            for x in 0 ..< wd * f {
                padded.setPixel(x, y, img.pixel(min(x, img.width - 1), min(y, img.height - 1)))
            }
        }
        return ImageMetrics.areaDownsample(padded, width: wd, height: hd)
    }
}
