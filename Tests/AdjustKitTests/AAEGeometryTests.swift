@testable import AdjustKit
import Foundation
import XCTest

/// docs/spec/aae-format.md §5 through the whole renderer, against the independent geometry oracle
/// (Support/GeometryOracle.swift): the oracle's affine is built here from the spec's words —
/// rotate about (W/2, H/2) by φ = −straightenAngle, keep (xOrigin, yOrigin, width, height) with
/// yOrigin from the bottom, move it to the origin — not by the library's `PhotosCrop`. The
/// `Orientation` adjustment replaces the file's own (U4's default).
final class AAEGeometryTests: XCTestCase {
    private struct Case {
        let name: String
        let x: Double, y: Double, w: Double, h: Double
        var angle: Double = 0
        var orientation: Int?
        var isPixelCopy: Bool { angle == 0 }
    }

    private static let photo = "Landscape_1.jpg"   // 1800×1200, EXIF orientation 1
    private static let cases = [
        Case(name: "crop", x: 301, y: 157, w: 900, h: 601),
        Case(name: "crop + orientation 6", x: 64, y: 400, w: 1200, h: 700, orientation: 6),
        Case(name: "straighten + crop", x: 200, y: 150, w: 1300, h: 850, angle: 0.0523),
    ]

    /// The spec's chain as the oracle's affine + crop.
    private static func oracleEdit(_ c: Case, W: Double, H: Double) -> OracleEdit {
        let phi = -c.angle
        let (cs, sn) = (cos(phi), sin(phi))
        // p ↦ R(p − centre) + centre − (x, y): R = [[cos, −sin], [sin, cos]] (counter-clockwise, y up).
        let tx = W / 2 - cs * W / 2 + sn * H / 2 - c.x
        let ty = H / 2 - sn * W / 2 - cs * H / 2 - c.y
        return OracleEdit(affine: (a: cs, b: sn, c: -sn, d: cs, tx: tx, ty: ty), crop: (x: 0, y: 0, w: c.w, h: c.h))
    }

    private func writeAAE(_ c: Case, format: AAEBuilder.Format, in folder: URL) throws -> String {
        var adjustments = [AAEBuilder.adjustment("Crop", settings:
            #"{"xOrigin":\#(c.x),"yOrigin":\#(c.y),"width":\#(c.w),"height":\#(c.h),"straightenAngle":\#(c.angle),"pitch":0,"yaw":0}"#)]
        if let o = c.orientation { adjustments.append(AAEBuilder.adjustment("Orientation", settings: #"{"value":\#(o)}"#)) }
        let payload = AAEBuilder.payload(adjustments, masterWidth: 1800, masterHeight: 1200)
        let path = folder.appendingPathComponent("\(c.name.filter(\.isLetter))-\(format).aae").path
        try Data(AAEBuilder.plist(data: AAEBuilder.deflate(Array(payload.utf8)), format: format)).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testCropOrientationAndStraightenMatchTheSpecAtEveryScale() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aae-geometry-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for c in Self.cases {
            for format in [AAEBuilder.Format.xml, .binary] {
                let aae = try writeAAE(c, format: format, in: folder)
                for scale in [DecodeScale.full, DecodeScale(numerator: 4)!, DecodeScale(numerator: 2)!, DecodeScale(numerator: 1)!] {
                    try compare(c, aae: aae, scale: scale, label: "\(c.name) (\(format) plist) at \(scale)")
                }
            }
        }
    }

    private func compare(_ c: Case, aae: String, scale: DecodeScale, label: String) throws {
        let edit = try PhotoEdit(imagePath: TestFixtures.image(Self.photo), editPath: aae,
                                 size: scale == .full ? .full : .scale(scale))
        let fast = TestImage(try edit.render().image)
        let decoded = try TestFixtures.decoded(Self.photo, scale: scale)
        let (W, H) = (Double(edit.plan.storedSize.width), Double(edit.plan.storedSize.height))
        let oracle = Self.oracleEdit(c, W: W, H: H)
        let orientation = c.orientation ?? 1
        let slow = scale == .full
            ? GeometryOracle.render(stored: decoded, orientation: orientation, edit: oracle, linearLight: true)
            : GeometryOracle.renderReduced(decoded: decoded, storedWidth: Int(W), storedHeight: Int(H),
                                           scaleNumerator: scale.numerator, orientation: orientation, edit: oracle,
                                           linearLight: true)
        XCTAssertEqual(fast.width, slow.width, label)
        XCTAssertEqual(fast.height, slow.height, label)
        guard fast.width == slow.width, fast.height == slow.height else { return }
        if c.isPixelCopy, scale == .full {
            XCTAssertEqual(fast, slow, "\(label): a pixel copy is exact")
        } else {
            let diff = ImageMetrics.differences(fast, slow)
            XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 0, 1, "\(label): \(diff)")
            XCTAssertLessThan(diff.meanPerChannel.max() ?? 0, 0.01, "\(label): \(diff)")
        }
        if !(c.isPixelCopy && scale == .full) {
            let shift = ImageMetrics.phaseCorrelationShift(fast, slow)
            XCTAssertLessThanOrEqual(max(abs(shift.dx), abs(shift.dy)), 0.25, "\(label): alignment \(shift)")
        }
    }

    func testTheCameraSixteenByNineCropSampleIsAnOrdinaryCrop() throws {
        // aae-format.md §5: a 4032×3024 stored photo, orientation 6, Crop{0, 378, 4032, 2268}.
        let crop = PhotosCrop(x: 0, y: 378, width: 4032, height: 2268)
        let geometry = crop.geometry(storedSize: PixelSize(width: 4032, height: 3024))
        XCTAssertEqual(geometry.affine, AffineMap.translation(0, -378))
        XCTAssertEqual(geometry.crop, Crop(x: 0, y: 0, width: 4032, height: 2268))
        // U2's alternative measures from the top: the kept rows' bottom edge is at H − y − h.
        var top = crop
        top.assumptions.cropOrigin = .top
        XCTAssertEqual(top.geometry(storedSize: PixelSize(width: 4032, height: 3024)).affine,
                       AffineMap.translation(0, -(3024 - 378 - 2268)))
    }

    func testOrientationAlternativesOfU4() {
        let replacing = PhotosOrientation(.rotate90Clockwise)
        XCTAssertEqual(replacing.applied(toFile: .rotate180), .rotate90Clockwise)
        let composing = PhotosOrientation(.rotate90Clockwise, meaning: .composesWithFile)
        XCTAssertEqual(composing.applied(toFile: .rotate180), .rotate90CounterClockwise, "180° then 90° clockwise is 270°")
        XCTAssertEqual(composing.applied(toFile: .identity), .rotate90Clockwise)
        XCTAssertEqual(PhotosOrientation(.mirrorHorizontal, meaning: .composesWithFile).applied(toFile: .mirrorHorizontal), .identity)
    }

    /// The same spec on a HEIC whose `irot` makes it orientation 6 (iPhone XR, 4032×3024 stored):
    /// the Crop is in the stored frame (irot not applied), the file's orientation is irot's unless
    /// an `Orientation` adjustment replaces it. A HEIC has no DCT scaling: a reduced render decodes
    /// whole and area-resamples, so the reference at n/8 is the full-size oracle area-downsampled.
    func testOnAHEICWithIrotAtEveryScale() throws {
        let heic = TestFixtures.path("Fixtures/heic/iphone-xr-irot270.heic")
        let stored = try HEICDecoder().decode(TestFixtures.bytes(heic))
        let storedImage = TestImage(width: stored.size.width, height: stored.size.height, channels: 3, pixels: stored.pixels)
        let (W, H) = (Double(stored.size.width), Double(stored.size.height))
        let cases = [
            Case(name: "heic crop", x: 1201, y: 903, w: 1000, h: 600),
            Case(name: "heic crop + orientation 3", x: 500, y: 1800, w: 1200, h: 700, orientation: 3),
            Case(name: "heic straighten + crop", x: 1500, y: 1000, w: 1100, h: 800, angle: -0.0411),
        ]
        let folder = try ScratchFolder.make("aae-geometry-heic")
        defer { ScratchFolder.remove(folder) }
        for c in cases {
            let aae = try writeAAE(c, format: .binary, in: folder)
            let orientation = c.orientation ?? 6   // irot 270 = EXIF 6
            let full = GeometryOracle.render(stored: storedImage, orientation: orientation,
                                             edit: Self.oracleEdit(c, W: W, H: H), linearLight: true)
            for n in [8, 4, 2, 1] {
                let label = "\(c.name) at \(n)/8"
                let edit = try PhotoEdit(imagePath: heic, editPath: aae,
                                         size: n == 8 ? .full : .scale(DecodeScale(numerator: n)!))
                let fast = TestImage(try edit.render().image)
                let s = Double(n) / 8
                let expectedSize = (Int((Double(full.width) * s).rounded()), Int((Double(full.height) * s).rounded()))
                XCTAssertEqual(fast.width, expectedSize.0, label)
                XCTAssertEqual(fast.height, expectedSize.1, label)
                guard fast.width == expectedSize.0, fast.height == expectedSize.1 else { continue }
                let slow = n == 8 ? full : ImageMetrics.areaDownsample(full, width: fast.width, height: fast.height)
                if n == 8, c.isPixelCopy {
                    XCTAssertEqual(fast, slow, "\(label): a pixel copy is exact")
                    continue
                }
                let shift = ImageMetrics.phaseCorrelationShift(fast, slow)
                XCTAssertLessThanOrEqual(max(abs(shift.dx), abs(shift.dy)), 0.25, "\(label): alignment \(shift)")
                let psnr = ImageMetrics.psnr(fast, slow)
                print("\(label): \(fast.width)×\(fast.height), shift \(shift), PSNR \(psnr)")
                XCTAssertGreaterThan(psnr, 35, "\(label): PSNR \(psnr)")
            }
        }
    }
}
