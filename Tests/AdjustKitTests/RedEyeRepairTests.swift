import XCTest
@testable import AdjustKit

/// The approximate red-eye repair (filters.md §5): pupils become dark and neutral, the corneal
/// highlight survives, and — exactly — nothing outside the repair rectangles changes.
final class RedEyeRepairTests: XCTestCase {
    /// A disc in the 200 × 150 frame (top-left raster pixels); scaled by `scale` for reduced images.
    private struct Disc { var cx: Double, cy: Double, radius: Double }
    private let pupils = [Disc(cx: 60, cy: 70, radius: 10), Disc(cx: 140, cy: 72, radius: 10)]
    private let highlight = Disc(cx: 63, cy: 67, radius: 2)
    private let pupilColour: (Float, Float, Float) = (0.75, 0.12, 0.10)
    /// rr of each eye, "minY maxY minX maxX" (frame pixels, top-left).
    private let rects = [(minY: 54.0, maxY: 86.0, minX: 44.0, maxX: 76.0),
                         (minY: 56.0, maxY: 88.0, minX: 124.0, maxX: 156.0)]

    /// Skin with a little deterministic texture, two red pupils, a white corneal dot in the first;
    /// `scale` 1 → 200 × 150, 0.5 → 100 × 75. Encoded values converted to `space`.
    private func scene(scale: Double = 1, space: WorkingSpace) -> RGBFloatImage {
        let size = PixelSize(width: Int(200 * scale), height: Int(150 * scale))
        var pixels = [Float](repeating: 0, count: size.pixelCount * 3)
        var state: UInt32 = 12345
        func noise() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24) * 0.04 - 0.02
        }
        func inside(_ d: Disc, _ x: Int, _ y: Int) -> Bool {
            let dx = (Double(x) + 0.5) / scale - d.cx, dy = (Double(y) + 0.5) / scale - d.cy
            return dx * dx + dy * dy <= d.radius * d.radius
        }
        for y in 0..<size.height {
            for x in 0..<size.width {
                var c: (Float, Float, Float) = (0.85 + noise(), 0.62 + noise(), 0.52 + noise())
                if pupils.contains(where: { inside($0, x, y) }) {
                    c = (pupilColour.0 + noise(), pupilColour.1 + noise(), pupilColour.2 + noise())
                }
                if inside(highlight, x, y) { c = (0.97, 0.97, 0.96) }
                let p = (y * size.width + x) * 3
                pixels[p] = space.working(fromEncoded: c.0)
                pixels[p + 1] = space.working(fromEncoded: c.1)
                pixels[p + 2] = space.working(fromEncoded: c.2)
            }
        }
        return RGBFloatImage(size: size, pixels: pixels)
    }

    private func shortCorrection(_ eye: Int, snapped: Bool = true, extra: [String: String] = [:]) -> RedEyeCorrection {
        let r = rects[eye], d = pupils[eye]
        var fields = ["p": "\(d.cx / 200) \(1 - d.cy / 150) 0.15",
                      "rr": "\(Int(r.minY)) \(Int(r.maxY)) \(Int(r.minX)) \(Int(r.maxX))",
                      "ps": "0.1 0.2 0.3 0.3", "iod": "80"]
        if snapped { fields["s"] = "\(Int(d.cx)) \(Int(d.cy))" }
        return RedEyeCorrection(naming: .short, fields: fields.merging(extra) { $1 })
    }

    private func corrections(_ list: [RedEyeCorrection]) -> RedEyeCorrections {
        RedEyeCorrections(width: 200, height: 150, isv: 1, ort: 1, snr: 0, corrections: list)
    }

    private func encodedPixel(_ image: RGBFloatImage, _ x: Int, _ y: Int, _ space: WorkingSpace) -> (r: Float, g: Float, b: Float) {
        let p = (y * image.size.width + x) * 3
        return (space.encoded(image.pixels[p]), space.encoded(image.pixels[p + 1]), space.encoded(image.pixels[p + 2]))
    }

    private func luma(_ c: (r: Float, g: Float, b: Float)) -> Float { 0.299 * c.r + 0.587 * c.g + 0.114 * c.b }

    /// Every float of every pixel outside `areas` (half-open x0, y0, x1, y1) is bit-identical.
    private func assertUnchangedOutside(_ areas: [(x0: Int, y0: Int, x1: Int, y1: Int)], _ before: RGBFloatImage,
                                        _ after: RGBFloatImage, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(before.size, after.size, file: file, line: line)
        var differing = 0
        for y in 0..<before.size.height {
            for x in 0..<before.size.width
            where !areas.contains(where: { x >= $0.x0 && x < $0.x1 && y >= $0.y0 && y < $0.y1 }) {
                let p = (y * before.size.width + x) * 3
                for c in 0..<3 where before.pixels[p + c].bitPattern != after.pixels[p + c].bitPattern { differing += 1 }
            }
        }
        XCTAssertEqual(differing, 0, "floats changed outside the repair rectangles", file: file, line: line)
    }

    /// Pupil pixels at least 2 px (in the image) inside the disc and away from the highlight are
    /// dark and neutral; the highlight pixels are bit-identical.
    private func assertRepaired(_ before: RGBFloatImage, _ after: RGBFloatImage, scale: Double, space: WorkingSpace,
                                file: StaticString = #filePath, line: UInt = #line) {
        var checked = 0, highlightChecked = 0
        for y in 0..<after.size.height {
            for x in 0..<after.size.width {
                let fx = (Double(x) + 0.5) / scale, fy = (Double(y) + 0.5) / scale
                let hd = ((fx - highlight.cx) * (fx - highlight.cx) + (fy - highlight.cy) * (fy - highlight.cy)).squareRoot()
                if hd <= highlight.radius - 0.5 / scale {
                    let p = (y * after.size.width + x) * 3
                    XCTAssertEqual(Array(before.pixels[p..<p + 3]), Array(after.pixels[p..<p + 3]),
                                   "corneal highlight changed at \(x),\(y)", file: file, line: line)
                    highlightChecked += 1
                    continue
                }
                guard hd > highlight.radius + 2 / scale else { continue }
                for d in pupils {
                    let dd = ((fx - d.cx) * (fx - d.cx) + (fy - d.cy) * (fy - d.cy)).squareRoot()
                    guard dd <= d.radius - 2 / scale else { continue }
                    let o = encodedPixel(before, x, y, space), n = encodedPixel(after, x, y, space)
                    XCTAssertLessThan(abs(n.r - n.g), 0.02, "not neutral at \(x),\(y): \(n)", file: file, line: line)
                    XCTAssertLessThan(abs(n.r - n.b), 0.02, "not neutral at \(x),\(y): \(n)", file: file, line: line)
                    XCTAssertLessThan(luma(n), 0.5 * luma(o), "not darkened at \(x),\(y)", file: file, line: line)
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 20, file: file, line: line)
        XCTAssertGreaterThan(highlightChecked, 0, file: file, line: line)
    }

    private func expectedArea(_ eye: Int, scale: Double) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let r = rects[eye]
        return (Int(r.minX * scale), Int(r.minY * scale), Int(r.maxX * scale), Int(r.maxY * scale))
    }

    // MARK: -

    func testShortNamingDarkensPupilsKeepsHighlightAndTouchesNothingOutsideRR() {
        for space in WorkingSpace.allCases {
            let before = scene(space: space)
            var after = before
            // Eye 1 seeds from the snapped point, eye 2 from the reddest pixel near p.
            let list = [shortCorrection(0), shortCorrection(1, snapped: false)]
            let warnings = RedEyeRepair.apply(corrections(list), to: &after, space: space)
            XCTAssertEqual(warnings, [], "\(space)")
            let areas = list.map { RedEyeRepair.repairArea(of: $0, frame: (200, 150), imageSize: before.size)! }
            XCTAssertEqual(areas.map { [$0.x0, $0.y0, $0.x1, $0.y1] }, [0, 1].map { e in
                let a = expectedArea(e, scale: 1); return [a.x0, a.y0, a.x1, a.y1] })
            assertUnchangedOutside(areas, before, after)
            assertRepaired(before, after, scale: 1, space: space)
            // Skin inside the rectangles but beyond the pupils' 1 px feather is not written either.
            var skin = 0
            for a in areas {
                for y in a.y0..<a.y1 {
                    for x in a.x0..<a.x1 where !pupils.contains(where: { d in
                        let dx = Double(x) + 0.5 - d.cx, dy = Double(y) + 0.5 - d.cy
                        return (dx * dx + dy * dy).squareRoot() <= d.radius + 2.5 }) {
                        let p = (y * 200 + x) * 3
                        XCTAssertEqual(before.pixels[p..<p + 3].map(\.bitPattern), after.pixels[p..<p + 3].map(\.bitPattern),
                                       "skin written at \(x),\(y) (\(space))")
                        skin += 1
                    }
                }
            }
            XCTAssertGreaterThan(skin, 500)
        }
    }

    func testLongNamingUsesPointAndSizeSquare() {
        for space in WorkingSpace.allCases {
            let before = scene(space: space)
            var after = before
            // size 0.16 → half-side 0.16·200/2 = 16 px: the same squares as the rr rectangles above.
            let list = pupils.map { d in
                RedEyeCorrection(naming: .long, fields: ["pointX": "\(d.cx / 200)", "pointY": "\(1 - d.cy / 150)",
                                                         "size": "0.16", "pupilShadeAverage": "0.3"])
            }
            XCTAssertEqual(RedEyeRepair.apply(corrections(list), to: &after, space: space), [])
            let areas = list.map { RedEyeRepair.repairArea(of: $0, frame: (200, 150), imageSize: before.size)! }
            XCTAssertEqual(areas.map { [$0.x0, $0.y0, $0.x1, $0.y1] }, [[44, 54, 76, 86], [124, 56, 156, 88]])
            assertUnchangedOutside(areas, before, after)
            assertRepaired(before, after, scale: 1, space: space)
        }
    }

    func testRectangleCuttingThroughThePupilStopsAtItsEdge() {
        for space in WorkingSpace.allCases {
            let before = scene(space: space)
            var after = before
            // rr covers the left half of pupil 1 only (x < 60) and the lower part of pupil 2 (y ≥ 75):
            // the red pixels just outside must stay bit-identical, those just inside turn dark.
            let list = [RedEyeCorrection(naming: .short, fields: ["rr": "54 86 44 60", "s": "55 70"]),
                        RedEyeCorrection(naming: .short, fields: ["rr": "75 88 124 156", "p": "0.7 0.47 0.1"])]
            XCTAssertEqual(RedEyeRepair.apply(corrections(list), to: &after, space: space), [])
            let areas = list.map { RedEyeRepair.repairArea(of: $0, frame: (200, 150), imageSize: before.size)! }
            XCTAssertEqual(areas.map { [$0.x0, $0.y0, $0.x1, $0.y1] }, [[44, 54, 60, 86], [124, 75, 156, 88]])
            assertUnchangedOutside(areas, before, after)
            for (x, y) in [(59, 70), (58, 75), (140, 75), (136, 78)] {
                XCTAssertLessThan(luma(encodedPixel(after, x, y, space)), 0.5 * luma(encodedPixel(before, x, y, space)),
                                  "\(x),\(y) \(space)")
            }
        }
    }

    func testShortNamingWithoutRRFallsBackToPointSquare() {
        let d = pupils[0]
        let c = RedEyeCorrection(naming: .short, fields: ["p": "\(d.cx / 200) \(1 - d.cy / 150) 0.1"])
        let a = RedEyeRepair.repairArea(of: c, frame: (200, 150), imageSize: PixelSize(width: 200, height: 150))
        XCTAssertEqual(a.map { [$0.x0, $0.y0, $0.x1, $0.y1] }, [50, 60, 70, 80])
    }

    func testConvexHullIsLeftUnchangedWithWarning() {
        for space in WorkingSpace.allCases {
            let before = scene(space: space)
            var after = before
            let hull = shortCorrection(0, extra: ["hb": "1 2 3 4", "g": "0"])
            let warnings = RedEyeRepair.apply(corrections([hull]), to: &after, space: space)
            XCTAssertEqual(warnings.count, 1)
            XCTAssertTrue(warnings[0].contains("convex"), warnings[0])
            XCTAssertEqual(before.pixels.map(\.bitPattern), after.pixels.map(\.bitPattern))
        }
    }

    func testCorrectionOutsideTheImageIsLeftUnchangedWithWarning() {
        for space in WorkingSpace.allCases {
            let before = scene(space: space)
            var after = before
            let outside = RedEyeCorrection(naming: .short, fields: ["p": "2.5 -1 0.1", "rr": "500 520 600 620",
                                                                    "s": "610 510"])
            let farPoint = RedEyeCorrection(naming: .long, fields: ["pointX": "3", "pointY": "0.5", "size": "0.1"])
            let noLocation = RedEyeCorrection(naming: .short, fields: ["s": "60 70", "iod": "80"])
            XCTAssertNil(RedEyeRepair.repairArea(of: outside, frame: (200, 150), imageSize: before.size))
            let warnings = RedEyeRepair.apply(corrections([outside, farPoint, noLocation]), to: &after, space: space)
            XCTAssertEqual(warnings.count, 3)
            XCTAssertEqual(before.pixels.map(\.bitPattern), after.pixels.map(\.bitPattern))
        }
    }

    func testReducedImageMapsTheFrameByTheRatio() {
        for space in WorkingSpace.allCases {
            let before = scene(scale: 0.5, space: space)
            XCTAssertEqual(before.size, PixelSize(width: 100, height: 75))
            var after = before
            let list = [shortCorrection(0), shortCorrection(1, snapped: false)]
            XCTAssertEqual(RedEyeRepair.apply(corrections(list), to: &after, space: space), [])
            let areas = list.map { RedEyeRepair.repairArea(of: $0, frame: (200, 150), imageSize: before.size)! }
            XCTAssertEqual(areas.map { [$0.x0, $0.y0, $0.x1, $0.y1] }, [0, 1].map { e in
                let a = expectedArea(e, scale: 0.5); return [a.x0, a.y0, a.x1, a.y1] })
            assertUnchangedOutside(areas, before, after)
            assertRepaired(before, after, scale: 0.5, space: space)
        }
    }

    func testRepairAreaClipsAndAcceptsSwappedEdges() {
        let c = RedEyeCorrection(naming: .short, fields: ["rr": "160 140 190 210"])   // maxY < minY, past the right edge
        let a = RedEyeRepair.repairArea(of: c, frame: (200, 150), imageSize: PixelSize(width: 200, height: 150))
        XCTAssertEqual(a.map { [$0.x0, $0.y0, $0.x1, $0.y1] }, [190, 140, 200, 150])
        XCTAssertNil(RedEyeRepair.repairArea(of: c, frame: (0, 150), imageSize: PixelSize(width: 200, height: 150)))
        // A fractional mapped rectangle rounds outward.
        let f = RedEyeCorrection(naming: .short, fields: ["rr": "55 85 45 75"])
        let r = RedEyeRepair.repairArea(of: f, frame: (200, 150), imageSize: PixelSize(width: 100, height: 75))
        XCTAssertEqual(r.map { [$0.x0, $0.y0, $0.x1, $0.y1] }, [22, 27, 38, 43])
    }

    func testThresholdAndShadeFieldsAreRead() {
        XCTAssertEqual(RedEyeRepair.rednessThreshold(nil), RedEyeRepair.defaultThreshold)
        XCTAssertEqual(RedEyeRepair.rednessThreshold(0.3), 0.3)
        XCTAssertEqual(RedEyeRepair.rednessThreshold(102), 0.4, accuracy: 1e-6)
        XCTAssertEqual(RedEyeRepair.rednessThreshold(0.01), RedEyeRepair.defaultThreshold)
        XCTAssertEqual(RedEyeRepair.pupilShade(0.6), 0.6)
        XCTAssertEqual(RedEyeRepair.pupilShade(-1), RedEyeRepair.defaultShade)

        // A lighter pupil shade leaves the pupil brighter.
        let space = WorkingSpace.linear
        let before = scene(space: space)
        var dark = before, light = before
        _ = RedEyeRepair.apply(corrections([shortCorrection(0)]), to: &dark, space: space)
        _ = RedEyeRepair.apply(corrections([shortCorrection(0, extra: ["ps": "0 0 0 0.6"])]), to: &light, space: space)
        XCTAssertGreaterThan(luma(encodedPixel(light, 57, 73, space)), 1.5 * luma(encodedPixel(dark, 57, 73, space)))

        // A threshold above the pupil's redness (0.8 → smoothstep 0.7…0.9) repairs it only partly.
        var strict = before
        _ = RedEyeRepair.apply(corrections([shortCorrection(0, extra: ["b": "60 70 0.8"])]), to: &strict, space: space)
        XCTAssertGreaterThan(luma(encodedPixel(strict, 57, 73, space)), luma(encodedPixel(dark, 57, 73, space)))
    }

    func testNoRedNearThePointChangesNothing() {
        let space = WorkingSpace.srgb
        let before = scene(space: space)
        var after = before
        // A rectangle over plain skin.
        let c = RedEyeCorrection(naming: .short, fields: ["p": "0.5 0.2 0.1", "rr": "100 130 80 110"])
        XCTAssertEqual(RedEyeRepair.apply(corrections([c]), to: &after, space: space), [])
        XCTAssertEqual(before.pixels.map(\.bitPattern), after.pixels.map(\.bitPattern))
    }
}
