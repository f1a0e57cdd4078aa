@testable import AdjustKit
import XCTest

/// filters.md §0–§7 through the whole renderer, against the independent slow reference
/// (Support/ColourOracle.swift), on real photos, in both working spaces.
final class ColourFilterTests: XCTestCase {
    /// Real photos, tested at full size (the identity geometry is then an exact copy of the
    /// decode, and the oracle can start from the same decoded pixels).
    static let photos: [(name: String, scale: DecodeScale)] = [
        ("Landscape_1.jpg", .full), ("iphone4s-2592x1936.jpg", .full),
    ]

    /// The oracle's description of a chain's colour steps, in the chain's order.
    static func oracleFilters(_ chain: EditChain) -> [OracleColourFilter] {
        chain.steps.compactMap { step in
            switch step.filter {
            case let v as Vibrance: return .vibrance(amount: v.amount)
            case let c as ToneCurve: return .toneCurve(points: c.points.map { ($0.x, $0.y) })
            case let h as HighlightShadow: return .highlightShadow(shadows: h.shadows, highlights: h.highlights)
            case let f as FaceBalance: return .faceBalance(origI: f.origI, origQ: f.origQ, strength: f.strength, warmth: f.warmth)
            case let s as SerializedFilter:
                if case .exposure(let e) = s.meaning { return .exposure(ev: e.ev) }
                return nil
            default: return nil
            }
        }
    }

    private func assertMatchesOracle(_ xmp: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let chain = try TestFixtures.chain("colour/\(xmp)")
        let filters = Self.oracleFilters(chain)
        XCTAssertFalse(filters.isEmpty, xmp, file: file, line: line)
        for (photo, scale) in Self.photos {
            let decoded = try TestFixtures.decoded(photo, scale: scale)
            let orientation = try TestFixtures.exifOrientation(photo)
            for space in WorkingSpace.allCases {
                let (fast, _) = try TestFixtures.render(photo, xmp: "colour/\(xmp)", size: scale == .full ? .full : .scale(scale),
                                                        space: space)
                let slow = GeometryOracle.orient(
                    ColourOracle.render(decoded, filters: filters, space: space == .linear ? .linear : .srgb), orientation)
                let diff = ImageMetrics.differences(fast.rgb(), slow)
                let label = "\(xmp) on \(photo) in \(space): max \(diff.maxPerChannel) mean \(diff.meanPerChannel.map { String(format: "%.4f", $0) })"
                print(label)
                XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 99, 1, label, file: file, line: line)
                XCTAssertLessThanOrEqual(diff.meanPerChannel.max() ?? 99, 0.1, label, file: file, line: line)
            }
        }
    }

    func testVibranceMatchesTheReference() throws {
        try assertMatchesOracle("vibrance.xmp")
        try assertMatchesOracle("vibrance-negative.xmp")
    }

    func testToneCurveMatchesTheReference() throws { try assertMatchesOracle("tone-curve.xmp") }

    func testHighlightShadowMatchesTheReference() throws {
        try assertMatchesOracle("shadows-highlights.xmp")
        try assertMatchesOracle("shadows-darken.xmp")
    }

    func testFaceBalanceMatchesTheReference() throws { try assertMatchesOracle("face-balance.xmp") }

    func testExposureMatchesTheReference() throws { try assertMatchesOracle("exposure.xmp") }

    func testIdentityChainIsTheOrientedDecodeBitForBit() throws {
        let chain = try TestFixtures.chain("colour/identity.xmp")
        XCTAssertEqual(chain.steps.count, 5, "every colour filter present, at identity values")
        for (photo, _) in Self.photos {
            for space in WorkingSpace.allCases {
                let edit = try PhotoEdit(imagePath: TestFixtures.image(photo), editPath: TestFixtures.xmp("colour/identity.xmp"),
                                         renderer: Renderer(colour: ColourOptions(workingSpace: space)))
                let out = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID()).png").path
                defer { try? FileManager.default.removeItem(atPath: out) }
                try edit.write(try edit.render().encoded(as: .png), to: out)
                let written = TestImage(try PNGCodec.decode(try TestFixtures.bytes(out))).rgb()
                let expected = GeometryOracle.orient(try TestFixtures.decoded(photo), try TestFixtures.exifOrientation(photo))
                XCTAssertTrue(written == expected, "\(photo) in \(space): \(ImageMetrics.differences(written, expected))")
            }
        }
    }

    func testEverySRGBCodeSurvivesTheLinearRoundTrip() {
        let table = WorkingSpace.linear.fromByte
        for code in 0...255 { XCTAssertEqual(WorkingSpace.linear.byte(table[code]), UInt8(code)) }
    }

    func testReducedRendersWithColourFiltersMatchTheDownsampledFullRender() throws {
        for (photo, xmp) in [("Landscape_1.jpg", "colour/enhance-effect-crop.xmp"),
                             ("landscape-1800x1195.jpg", "colour/enhance-effect-crop.xmp"),
                             ("iphone4s-2592x1936.jpg", "colour/face-balance.xmp")] {
            let (full, _) = try TestFixtures.render(photo, xmp: xmp)
            for n in [4, 2, 1] {
                let (reduced, plan) = try TestFixtures.render(photo, xmp: xmp, size: .scale(DecodeScale(numerator: n)!))
                XCTAssertEqual([reduced.width, reduced.height], [plan.orientedSize.width, plan.orientedSize.height])
                let reference = ImageMetrics.areaDownsample(full, width: reduced.width, height: reduced.height)
                let shift = ImageMetrics.phaseCorrelationShift(reference, reduced)
                let means = (0..<3).map { c in (Self.channelMean(reduced, c), Self.channelMean(reference, c)) }
                let label = "\(xmp) on \(photo) at \(n)/8: shift \(shift), channel means \(means)"
                print(label)
                XCTAssertLessThanOrEqual(max(abs(shift.dx), abs(shift.dy)), 0.25, label)
                for (a, b) in means { XCTAssertLessThanOrEqual(abs(a - b), 1, label) }
            }
        }
    }

    static func channelMean(_ image: TestImage, _ channel: Int) -> Double {
        var sum = 0.0
        for i in 0..<(image.width * image.height) { sum += Double(image.pixels[i * image.channels + channel]) }
        return sum / Double(image.width * image.height)
    }
}

extension ColourFilterTests {
    func testRedEyeOnARealPhotoChangesNothingOutsideItsRectangle() throws {
        // progressive-960x1280.jpg, orientation 1: the repair rectangle rr = rows 500…660,
        // columns 340…420 (the red-brown plough) is also the output's.
        for space in WorkingSpace.allCases {
            let (plain, _) = try TestFixtures.render("progressive-960x1280.jpg", xmp: nil, space: space)
            let (repaired, _) = try TestFixtures.render("progressive-960x1280.jpg", xmp: "colour/red-eye.xmp", space: space)
            var changedInside = 0
            for y in 0..<plain.height {
                for x in 0..<plain.width {
                    let inside = (500..<660).contains(y) && (340..<420).contains(x)
                    let same = plain.pixel(x, y) == repaired.pixel(x, y)
                    if inside { changedInside += same ? 0 : 1 } else if !same {
                        return XCTFail("\(space): pixel (\(x), \(y)) outside the repair rectangle changed")
                    }
                }
            }
            print("red-eye in \(space): \(changedInside) pixels changed inside the rectangle")
            XCTAssertGreaterThan(changedInside, 0, "the reddest area inside the rectangle is repaired")
        }
    }

    func testAUserCubeIsAppliedExactly() throws {
        // A channel swap (r, g, b) → (b, r, g) as the Noir table: the output is the plain decode
        // with its channels rotated, up to rounding.
        var lines = ["LUT_3D_SIZE 2"]
        for b in 0...1 { for g in 0...1 { for r in 0...1 { lines.append("\(b) \(r) \(g)") } } }
        let cube = try ColourCube.parse(lines.joined(separator: "\n"))
        for space in WorkingSpace.allCases {
            let edit = try PhotoEdit(imagePath: TestFixtures.image("Landscape_1.jpg"),
                                     editPath: TestFixtures.xmp("colour/effect-noir.xmp"),
                                     renderer: Renderer(colour: ColourOptions(workingSpace: space, effectCubes: [.noir: cube])))
            let rendering = try edit.render()
            XCTAssertEqual(rendering.approximations, [])
            let out = TestImage(rendering.image).rgb()
            let original = try TestFixtures.decoded("Landscape_1.jpg")
            var swapped = original
            for i in 0..<(original.width * original.height) {
                swapped.pixels[i * 3] = original.pixels[i * 3 + 2]
                swapped.pixels[i * 3 + 1] = original.pixels[i * 3]
                swapped.pixels[i * 3 + 2] = original.pixels[i * 3 + 1]
            }
            let diff = ImageMetrics.differences(out, swapped)
            print("channel-swap cube in \(space): \(diff)")
            XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 99, 1, "\(space)")
        }
    }
}
