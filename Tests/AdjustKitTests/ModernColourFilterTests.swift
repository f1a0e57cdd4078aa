@testable import AdjustKit
import XCTest

/// The modern Photos colour adjustments (docs/spec/modern-adjustments.md): each reads its
/// settings from a synthetic `AAEAdjustment`, is nil at neutral settings, refuses settings of
/// the wrong type or far out of range, and its kernel has the properties its doc comment states.
/// Exact parts (the vignette's i′ and r′, face balance's deltas) are checked against numbers
/// worked out by hand here.
final class ModernColourFilterTests: XCTestCase {
    // MARK: Helpers

    /// A stage without the kernel the test needs (already reported with XCTFail).
    private struct MissingKernel: Error {}

    private func adjustment(_ identifier: String, _ settings: [String: AAEValue]) -> AAEAdjustment {
        AAEAdjustment(identifier: identifier, settings: settings)
    }

    private func read<F: AAEAdjustmentFilter>(_ kind: F.Type, _ settings: [String: AAEValue]) throws -> F? {
        try F.read(aae: adjustment(F.aaeIdentifier, settings), assumptions: .default)
    }

    private func pixelKernel(_ filter: any ColourFilter, space: WorkingSpace = .linear) throws -> any PixelKernel {
        let stage = try filter.colourStage(options: ColourOptions(workingSpace: space))
        guard let kernel = stage.kernel as? any PixelKernel else { XCTFail("no per-pixel kernel"); throw MissingKernel() }
        if filter.support(exactEffects: []) == .approximate {
            XCTAssertNotNil(stage.approximation, "an approximate step names its approximation")
        }
        return kernel
    }

    private func run(_ kernel: any PixelKernel, _ rgb: (Float, Float, Float)) -> (Float, Float, Float) {
        var (r, g, b) = rgb
        kernel.apply(&r, &g, &b)
        return (r, g, b)
    }

    private func assertThrowsAAE(_ body: @autoclosure () throws -> Any?, _ message: String = "",
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
            XCTAssertTrue(error is AAEError, "\(error)", file: file, line: line)
        }
    }

    private static let samples: [(Float, Float, Float)] = [
        (0.8, 0.2, 0.1), (0.1, 0.6, 0.2), (0.05, 0.1, 0.7), (0.5, 0.4, 0.3), (0.9, 0.9, 0.2), (0.02, 0.01, 0.03),
    ]

    // MARK: Registry

    func testKindsAreRegisteredInApplesOrder() {
        let names = FilterRegistry.kinds.map { $0.type.filterName }
        let expected = ["WhiteBalance", "SmartTone", "SmartColor", "RKCurvesOperation", "RKLevelsOperation",
                        "SmartBlackAndWhite", "Effect"]
        let positions = expected.map { names.firstIndex(of: $0)! }
        XCTAssertEqual(positions, positions.sorted())
        XCTAssertEqual(names.last, "DGVignetteEffectOperation")
        XCTAssertGreaterThan(names.firstIndex(of: "DGVignetteEffectOperation")!, names.firstIndex(of: "CICrop") ?? 0)
        for id in ["WhiteBalance", "SmartTone", "SmartColor", "RKCurvesOperation", "RKLevelsOperation",
                   "SmartBlackAndWhite", "DGVignetteEffectOperation"] {
            XCTAssertNotNil(FilterRegistry.aaeKinds[id], id)
        }
    }

    /// Each registered kind's formats, which `FilterKind` settles by overloading when the list
    /// compiles, are the ones a cast at run time finds (the query the registry used before).
    func testEachKindsFormatsAreTheOnesItConformsTo() {
        for kind in FilterRegistry.kinds {
            let name = "\(kind.type)"
            let xmp = kind.type as? any AdjustmentXMPFilter.Type, aae = kind.type as? any AAEAdjustmentFilter.Type
            XCTAssertEqual(kind.xmp.map { ObjectIdentifier($0) }, xmp.map { ObjectIdentifier($0) }, name)
            XCTAssertEqual(kind.aae.map { ObjectIdentifier($0) }, aae.map { ObjectIdentifier($0) }, name)
        }
        // One format or the other, or neither (no kind today is in both).
        let kinds = Dictionary(uniqueKeysWithValues: FilterRegistry.kinds.map { ("\($0.type)", $0) })
        XCTAssertNotNil(kinds["Vibrance"]?.xmp); XCTAssertNil(kinds["Vibrance"]?.aae)
        XCTAssertNotNil(kinds["SmartTone"]?.aae); XCTAssertNil(kinds["SmartTone"]?.xmp)
        XCTAssertNil(kinds["UnsupportedAdjustment"]?.xmp); XCTAssertNil(kinds["UnsupportedAdjustment"]?.aae)
    }

    /// A whole AAE file (XML and binary) through the reader, then each kind's read.
    func testEachKindReadsFromARealContainer() throws {
        let adjustments = [
            AAEBuilder.adjustment("WhiteBalance", settings: #"{"colorType":"tempTint","temperature":4000,"tint":10}"#),
            AAEBuilder.adjustment("SmartTone", settings: #"{"inputLight":0.4,"offsetShadows":0.1,"auto":0}"#),
            AAEBuilder.adjustment("SmartColor", settings: #"{"inputColor":0.3,"statistics":{}}"#),
            AAEBuilder.adjustment("RKCurvesOperation", settings: #"{"inputKeys":{"pointsL":[{"x":0,"y":0},{"x":0.5,"y":0.6},{"x":1,"y":1}]}}"#),
            AAEBuilder.adjustment("RKLevelsOperation", settings: #"{"blackSrcRGB":0.1}"#),
            AAEBuilder.adjustment("SmartBlackAndWhite", settings: #"{"inputBlackAndWhite":0.2,"offsetGrain":0.3}"#),
            AAEBuilder.adjustment("DGVignetteEffectOperation", settings: #"{"inputKeys":{"intensity":0.5,"radius":0.4,"falloff":0.3}}"#),
        ]
        for format in [AAEBuilder.Format.xml, .binary] {
            let document = try AAEDocument(contentsOf: AAEBuilder.aae(adjustments, format: format))
            var steps: [any EditFilter] = []
            for entry in document.adjustments {
                let kind = try XCTUnwrap(FilterRegistry.aaeKinds[entry.identifier], entry.identifier)
                steps.append(try XCTUnwrap(try kind.read(aae: entry, assumptions: .default), entry.identifier))
            }
            let chain = EditChain(steps)
            XCTAssertEqual(chain.steps.map(\.filterName), [
                "WhiteBalance (tempTint)", "SmartTone", "SmartColor", "RKCurvesOperation", "RKLevelsOperation",
                "SmartBlackAndWhite", "DGVignetteEffectOperation",
            ])
            XCTAssertTrue(chain.steps.allSatisfy { $0.support == .approximate })
            let program = try ColourProgram(chain: chain, options: ColourOptions())
            XCTAssertEqual(program.storedFrame.count, 6)
            XCTAssertEqual(program.outputPositional.count, 1)
            XCTAssertEqual(program.approximations.count, 7)
            XCTAssertTrue(program.approximations.contains { $0.hasPrefix("SmartBlackAndWhite") && $0.contains("grain not rendered") })
        }
    }

    // MARK: WhiteBalance

    func testWhiteBalanceNeutralSettingsAreTheIdentity() throws {
        XCTAssertNil(try read(WhiteBalance.self, ["colorType": .string("tempTint"), "temperature": .number(6500), "tint": .number(0)]))
        XCTAssertNil(try read(WhiteBalance.self, ["colorType": .string("warmTint"), "warmTemp": .number(0), "warmTint": .number(0)]))
        XCTAssertNil(try read(WhiteBalance.self, ["colorType": .string("neutralGray"), "grayY": .number(0.6),
                                                  "grayI": .number(0), "grayQ": .number(0), "grayWarmth": .number(0)]))
        XCTAssertNil(try read(WhiteBalance.self, ["colorType": .string("faceBalance"), "faceI": .number(0.05),
                                                  "faceQ": .number(0.02), "faceStrength": .number(0), "faceWarmth": .number(0.5)]))
    }

    /// faceBalance is `CIFaceBalance`'s kernel: the deltas by hand, dI = s·(targetI − I),
    /// dQ = s·(targetQ − Q), targetI = (1 − w)·0.005 + w·0.105, targetQ = (1 − w)·0.010 − w·0.010.
    func testFaceBalanceIsTheFaceBalanceKernel() throws {
        let wb = try XCTUnwrap(read(WhiteBalance.self, ["colorType": .string("faceBalance"), "faceI": .number(0.05),
                                                        "faceQ": .number(0.02), "faceStrength": .number(0.8),
                                                        "faceWarmth": .number(0.5)]))
        XCTAssertEqual(wb.support(exactEffects: []), .strong)
        let face = FaceBalance(origI: 0.05, origQ: 0.02, strength: 0.8, warmth: 0.5)
        XCTAssertEqual(wb.kind, .faceBalance(face))
        let reference = try XCTUnwrap(FaceBalanceKernel(face))
        // targetI = 0.5·0.005 + 0.5·0.105 = 0.055, targetQ = 0; dI = 0.8·0.005, dQ = 0.8·(−0.02).
        XCTAssertEqual(reference.dI, 0.004, accuracy: 1e-7)
        XCTAssertEqual(reference.dQ, -0.016, accuracy: 1e-7)
        let stage = wb.colourStage(options: ColourOptions())
        XCTAssertNil(stage.approximation)
        let kernel = try pixelKernel(wb)
        for colour in Self.samples {
            let a = run(kernel, colour), b = run(reference, colour)
            XCTAssertEqual([a.0, a.1, a.2], [b.0, b.1, b.2])
        }
    }

    func testTemperatureWarmsAndCoolsAndKeepsGreyLuminance() throws {
        let warm = try pixelKernel(try XCTUnwrap(read(WhiteBalance.self, ["colorType": .string("tempTint"), "temperature": .number(9000)])))
        let cool = try pixelKernel(try XCTUnwrap(read(WhiteBalance.self, ["colorType": .string("tempTint"), "temperature": .number(3500)])))
        let grey: (Float, Float, Float) = (0.3, 0.3, 0.3)
        let w = run(warm, grey), c = run(cool, grey)
        XCTAssertGreaterThan(w.0, w.2, "9000 K corrected to 6500 K is warmer")
        XCTAssertLessThan(c.0, c.2, "3500 K corrected to 6500 K is cooler")
        for out in [w, c] { XCTAssertEqual(0.2126 * out.0 + 0.7152 * out.1 + 0.0722 * out.2, 0.3, accuracy: 1e-5) }
        XCTAssertEqual(run(warm, (0, 0, 0)).0, 0, "black stays black")
        // Positive tint: more magenta (green lowered against red and blue).
        let tint = try pixelKernel(try XCTUnwrap(read(WhiteBalance.self, ["colorType": .string("tempTint"),
                                                                           "temperature": .number(6500), "tint": .number(40)])))
        let t = run(tint, grey)
        XCTAssertLessThan(t.1, t.0); XCTAssertLessThan(t.1, t.2)
        let warmSlider = try pixelKernel(try XCTUnwrap(read(WhiteBalance.self, ["colorType": .string("warmTint"), "warmTemp": .number(0.5)])))
        let s = run(warmSlider, grey)
        XCTAssertGreaterThan(s.0, s.2)
    }

    /// The picked grey's YIQ (of v = linear^¼, computed here with the forward YIQ matrix) makes
    /// that colour neutral.
    func testNeutralGrayMakesThePickedColourGrey() throws {
        let picked: (Double, Double, Double) = (0.30, 0.25, 0.18)
        let v = (pow(picked.0, 0.25), pow(picked.1, 0.25), pow(picked.2, 0.25))
        let y = 0.299 * v.0 + 0.587 * v.1 + 0.114 * v.2
        let i = 0.595716 * v.0 - 0.274453 * v.1 - 0.321263 * v.2
        let q = 0.211456 * v.0 - 0.522591 * v.1 + 0.311135 * v.2
        let wb = try XCTUnwrap(read(WhiteBalance.self, ["colorType": .string("neutralGray"), "grayY": .number(y),
                                                        "grayI": .number(i), "grayQ": .number(q)]))
        XCTAssertEqual(wb.support(exactEffects: []), .approximate)
        let out = run(try pixelKernel(wb), (Float(picked.0), Float(picked.1), Float(picked.2)))
        XCTAssertEqual(out.0, out.1, accuracy: 2e-4); XCTAssertEqual(out.2, out.1, accuracy: 2e-4)
        // In the sRGB working space the gains still act on linear light.
        let encoded = run(try pixelKernel(wb, space: .srgb), (SRGBTransfer.encode(Float(picked.0)),
                                                               SRGBTransfer.encode(Float(picked.1)),
                                                               SRGBTransfer.encode(Float(picked.2))))
        XCTAssertEqual(encoded.0, encoded.2, accuracy: 5e-4)
    }

    func testWhiteBalanceRefusesBadSettings() {
        assertThrowsAAE(try self.read(WhiteBalance.self, ["colorType": .string("sepia")]))
        assertThrowsAAE(try self.read(WhiteBalance.self, ["temperature": .number(5000)]), "no colorType")
        assertThrowsAAE(try self.read(WhiteBalance.self, ["colorType": .string("tempTint")]), "no temperature")
        assertThrowsAAE(try self.read(WhiteBalance.self, ["colorType": .string("tempTint"), "temperature": .number(1e9)]))
        assertThrowsAAE(try self.read(WhiteBalance.self, ["colorType": .string("tempTint"), "temperature": .string("warm")]))
        assertThrowsAAE(try self.read(WhiteBalance.self, ["colorType": .string("warmTint"), "warmTemp": .number(40)]))
        // A number is read as macOS 10.15 writes it (1 = faceBalance; at face strength 0, a no-op);
        // an unknown number is refused.
        XCTAssertNil(try read(WhiteBalance.self, ["colorType": .number(1)]))
        XCTAssertThrowsError(try read(WhiteBalance.self, ["colorType": .number(3)])) { error in
            guard case .wrongSettingType(_, "colorType", _, "3.0")? = error as? AAEError else {
                return XCTFail("\(error)")
            }
        }
        XCTAssertThrowsError(try read(WhiteBalance.self, ["colorType": .bool(true)]))
    }

    // MARK: SmartTone

    func testSmartToneNeutralIsIdentityAndSampleReads() throws {
        XCTAssertNil(try read(SmartTone.self, ["inputLight": .number(0), "offsetExposure": .number(0), "auto": .number(0),
                                               "statistics": .object(["p50": .number(0.3)])]))
        let doc = try AAEDocument(contentsOf: TestFixtures.bytes(TestFixtures.path("Fixtures/aae/IMG_1994.AAE")))
        let tone = try XCTUnwrap(SmartTone.read(aae: try XCTUnwrap(doc.adjustment("SmartTone")), assumptions: .default))
        XCTAssertEqual(tone.light, 0.22465695112179485)
        assertThrowsAAE(try self.read(SmartTone.self, ["inputLight": .number(12)]))
        // A bool reads leniently as 0/1 (AAEValue.lenientNumber); text that is no number is refused.
        assertThrowsAAE(try self.read(SmartTone.self, ["offsetContrast": .string("more")]))
        assertThrowsAAE(try self.read(SmartTone.self, ["offsetContrast": .bool(true)]))
    }

    func testSmartToneBrightensDarkensAndIsMonotone() throws {
        let settings: [[String: AAEValue]] = [
            ["inputLight": .number(0.6)], ["inputLight": .number(-0.6)],
            ["inputLight": .number(1), "offsetShadows": .number(1), "offsetHighlights": .number(-1), "offsetContrast": .number(1)],
            ["inputLight": .number(-1), "offsetShadows": .number(-1), "offsetHighlights": .number(1), "offsetContrast": .number(-1),
             "offsetBlackPoint": .number(1), "offsetExposure": .number(-1), "offsetLocalLight": .number(1), "offsetBrightness": .number(1)],
        ]
        var mids: [Float] = []
        for s in settings {
            let kernel = try pixelKernel(try XCTUnwrap(read(SmartTone.self, s)))
            var previous: Float = -1
            for step in 0...256 {
                let v = Float(step) / 256
                let out = run(kernel, (v, v, v))
                XCTAssertEqual(out.0, out.1); XCTAssertEqual(out.1, out.2, "the same curve on every channel")
                XCTAssertGreaterThanOrEqual(out.0, previous - 1e-6, "monotone at \(v) for \(s)")
                previous = out.0
            }
            mids.append(run(kernel, (0.18, 0.18, 0.18)).0)
        }
        // Without a light map only high-key and contrast run; the local light, which carries most of
        // the law's brightening, needs the map.
        XCTAssertGreaterThan(mids[0], 0.18 * 1.02, "Light > 0 brightens mid grey (global stages, no light map)")
        XCTAssertEqual(mids[1], 0.18, accuracy: 1e-6, "Light < 0 alone renders nothing: no render to fit it (modern-adjustments.md §2.3)")
        let light = try pixelKernel(try XCTUnwrap(read(SmartTone.self, ["inputLight": .number(0.6)])))
        XCTAssertEqual(run(light, (1, 1, 1)).0, 1, accuracy: 1e-5, "white stays white")
        XCTAssertEqual(run(light, (0, 0, 0)).0, 0, accuracy: 1e-6, "black stays black")
    }

    // MARK: SmartColor

    func testSmartColorNeutralDesaturateAndVibrance() throws {
        XCTAssertNil(try read(SmartColor.self, ["inputColor": .number(0), "offsetCast": .number(0.0001)]))
        let grey = try pixelKernel(try XCTUnwrap(read(SmartColor.self, ["inputColor": .number(-1)])))
        for colour in Self.samples {
            let out = run(grey, colour)
            XCTAssertEqual(out.0, out.1, accuracy: 1e-5); XCTAssertEqual(out.1, out.2, accuracy: 1e-5)
            XCTAssertEqual(out.0, (colour.0 + colour.1 + colour.2) / 3, accuracy: 1e-5, "the mean (modern-adjustments.md §3)")
        }
        let positive = try pixelKernel(try XCTUnwrap(read(SmartColor.self, ["inputColor": .number(0.5)])))
        // Without statistics: V′ = c/3, no vibrance; t = 1 + 3V′ = 1.5; on x in [0, 1]
        // x ← x + w·(t − 1)·(x − g) with g = 0.3R + 0.5G + 0.2B, y = 0.4R + 0.2G + 0.1B,
        // w = (1 − 2y)²·(1 − 0.8·smoothstep(0.2, 0.4, (R − B)/(R + G + B))) (modern-colour.md §7.6).
        for colour in Self.samples {
            let a = run(positive, colour)
            let (r, g, b) = colour
            let pivot = 0.3 * r + 0.5 * g + 0.2 * b, y = 0.4 * r + 0.2 * g + 0.1 * b
            let e = min(1, max(0, ((r - b) / (r + g + b) - 0.2) / 0.2))
            let k = (1 - 2 * y) * (1 - 2 * y) * (1 - 0.8 * e * e * (3 - 2 * e)) * 0.5
            XCTAssertEqual(a.0, r + k * (r - pivot), accuracy: 1e-5); XCTAssertEqual(a.1, g + k * (g - pivot), accuracy: 1e-5)
            XCTAssertEqual(a.2, b + k * (b - pivot), accuracy: 1e-5)
        }
        let saturate = try pixelKernel(try XCTUnwrap(read(SmartColor.self, ["offsetSaturation": .number(0.5)])))
        let muted: (Float, Float, Float) = (0.4, 0.3, 0.25)
        let s = run(saturate, muted)
        XCTAssertGreaterThan(s.0 - s.2, muted.0 - muted.2)
        let warm = run(try pixelKernel(try XCTUnwrap(read(SmartColor.self, ["offsetCast": .number(0.8)]))), (0.3, 0.3, 0.3))
        XCTAssertGreaterThan(warm.0, warm.2)
        assertThrowsAAE(try self.read(SmartColor.self, ["inputColor": .string("more")]))
        assertThrowsAAE(try self.read(SmartColor.self, ["offsetSaturation": .number(-50)]))
    }

    // MARK: SmartBlackAndWhite

    func testSmartBlackAndWhiteIsGreyAndTheSamplesRead() throws {
        for name in ["IMG_1994.AAE", "D1D4040D-D141-44E8-93EA-E403D9F63E07.plist", "IMG_3582.AAE"] {
            let doc = try AAEDocument(contentsOf: TestFixtures.bytes(TestFixtures.path("Fixtures/aae/\(name)")))
            let bw = try XCTUnwrap(SmartBlackAndWhite.read(aae: try XCTUnwrap(doc.adjustment("SmartBlackAndWhite")),
                                                           assumptions: .default), name)
            let kernel = try pixelKernel(bw)
            for colour in Self.samples {
                let out = run(kernel, colour)
                XCTAssertEqual(out.0, out.1); XCTAssertEqual(out.1, out.2, "\(name) is grey")
            }
            // Neutral offsets: a grey keeps its value (to the ~10⁻⁴ chroma the IPT matrices leave on a grey).
            XCTAssertEqual(run(kernel, (0.2, 0.2, 0.2)).0, 0.2, accuracy: 3e-4)
        }
        XCTAssertNotNil(try read(SmartBlackAndWhite.self, [:]), "black and white has no identity")
        // The filter hue: red is lighter at H = 0.6521 (red weight 0.394) than at H = 0 (red weight 0.13).
        let red: (Float, Float, Float) = (0.7, 0.1, 0.1)
        let throughRed = run(try pixelKernel(try XCTUnwrap(read(SmartBlackAndWhite.self, ["inputBlackAndWhite": .number(0.6521)]))), red)
        let throughBlue = run(try pixelKernel(try XCTUnwrap(read(SmartBlackAndWhite.self, ["inputBlackAndWhite": .number(0)]))), red)
        XCTAssertGreaterThan(throughRed.0, throughBlue.0)
        // Tone > 0 is contrast: a dark grey darker, a light grey lighter.
        let tone = try pixelKernel(try XCTUnwrap(read(SmartBlackAndWhite.self, ["offsetTone": .number(0.8)])))
        XCTAssertLessThan(run(tone, (0.05, 0.05, 0.05)).0, 0.05)
        XCTAssertGreaterThan(run(tone, (0.6, 0.6, 0.6)).0, 0.6)
        assertThrowsAAE(try self.read(SmartBlackAndWhite.self, ["inputBlackAndWhite": .array([])]))
        let stage = try XCTUnwrap(read(SmartBlackAndWhite.self, [:])).colourStage(options: ColourOptions())
        XCTAssertFalse(stage.approximation?.contains("grain") ?? true, "no grain note without grain")
    }

    // MARK: Curves

    func testCurvesLayoutsIdentityAndShape() throws {
        let objects = AAEValue.array([.object(["x": .number(0), "y": .number(0)]), .object(["x": .number(0.25), "y": .number(0.35)]),
                                      .object(["x": .number(1), "y": .number(1)])])
        let pairs = AAEValue.array([.array([.number(0), .number(0)]), .array([.number(0.25), .number(0.35)]),
                                    .array([.number(1), .number(1)])])
        let flat = AAEValue.array([0, 0, 0.25, 0.35, 1, 1].map { .number($0) })
        let expected = Curves(rgb: [Point(x: 0, y: 0), Point(x: 0.25, y: 0.35), Point(x: 1, y: 1)])
        XCTAssertEqual(try read(Curves.self, ["inputKeys": .object(["pointsL": objects])]), expected)
        XCTAssertEqual(try read(Curves.self, ["pointsRGB": pairs]), expected)
        XCTAssertEqual(try read(Curves.self, ["inputPointsL": flat]), expected)
        XCTAssertNil(try read(Curves.self, ["pointsL": .array([0, 0, 0.5, 0.5, 1, 1].map { .number($0) })]))
        XCTAssertNil(try read(Curves.self, [:]))

        // Through the points, on encoded values, monotone; a red-only curve leaves green alone.
        let kernel = try pixelKernel(expected)
        let quarter = SRGBTransfer.decode(0.25)
        XCTAssertEqual(SRGBTransfer.encode(run(kernel, (quarter, quarter, quarter)).0), 0.35, accuracy: 1e-4)
        var previous: Float = -1
        for step in 0...200 {
            let v = Float(step) / 200, out = run(kernel, (v, v, v)).0
            XCTAssertGreaterThanOrEqual(out, previous); previous = out
        }
        let redOnly = try XCTUnwrap(read(Curves.self, ["pointsR": .array([0, 0.1, 1, 1].map { .number($0) })]))
        let out = run(try pixelKernel(redOnly), (0, 0.5, 0))
        XCTAssertEqual(SRGBTransfer.encode(out.0), 0.1, accuracy: 1e-4)
        XCTAssertEqual(out.1, 0.5, accuracy: 1e-5)

        assertThrowsAAE(try self.read(Curves.self, ["pointsL": .number(3)]))
        assertThrowsAAE(try self.read(Curves.self, ["pointsL": .array([.number(0)])]))
        assertThrowsAAE(try self.read(Curves.self, ["pointsL": .array((0..<200).map { .number(Double($0) / 200) })]))
        assertThrowsAAE(try self.read(Curves.self, ["pointsL": .array([0, 0, 1, 50].map { .number($0) })]))
        assertThrowsAAE(try self.read(Curves.self, ["pointsL": .array([.object(["x": .number(0)]), .object([:])])]))
    }

    /// The Fritsch–Carlson interpolant never overshoots: between two points it stays between
    /// their values even where a natural spline would ring.
    func testMonotoneCubicDoesNotOvershoot() {
        let curve = MonotoneCubicCurve(points: [(0, 0), (0.1, 0.8), (0.2, 0.82), (1, 1)])
        for step in 0...1000 {
            let x = Double(step) / 1000, y = curve.value(at: x)
            if x >= 0.1, x <= 0.2 { XCTAssertTrue((0.8...0.82).contains(y), "\(x) → \(y)") }
            XCTAssertTrue((0...1).contains(y))
        }
        XCTAssertEqual(curve.value(at: 0.1), 0.8, accuracy: 1e-12)
    }

    // MARK: Levels

    func testLevelsLayoutsAndMapping() throws {
        XCTAssertNil(try read(Levels.self, [:]))
        XCTAssertNil(try read(Levels.self, ["blackSrcRGB": .number(0), "whiteDstRGB": .number(1)]))
        let flat = try XCTUnwrap(read(Levels.self, ["inputBlackSrcRGB": .number(0.1), "whiteSrcRGB": .number(0.9)]))
        let nested = try XCTUnwrap(read(Levels.self, ["inputKeys": .object(["RGB": .object(["blackSrc": .number(0.1),
                                                                                             "inputWhiteSrc": .number(0.9)])])]))
        XCTAssertEqual(flat, nested)
        // Absent shadow/mid/highlight pairs lie on the line between black and white.
        for (got, want) in zip(flat.rgb.sources, [0.1, 0.3, 0.5, 0.7, 0.9]) { XCTAssertEqual(got, want, accuracy: 1e-12) }
        XCTAssertEqual(flat.rgb.destinations, [0, 0.25, 0.5, 0.75, 1])
        let kernel = try pixelKernel(flat)
        func through(_ encoded: Float) -> Float {
            let v = SRGBTransfer.decode(encoded)
            return SRGBTransfer.encode(run(kernel, (v, v, v)).0)
        }
        XCTAssertEqual(through(0.05), 0, accuracy: 1e-4)
        XCTAssertEqual(through(0.1), 0, accuracy: 1e-4)
        XCTAssertEqual(through(0.5), 0.5, accuracy: 1e-4)
        XCTAssertEqual(through(0.7), 0.75, accuracy: 1e-4)
        XCTAssertEqual(through(0.95), 1, accuracy: 1e-4)
        // A channel's mid point moves only that channel.
        let blue = try XCTUnwrap(read(Levels.self, ["midDstBlue": .number(0.6)]))
        let v = SRGBTransfer.decode(0.5)
        let out = run(try pixelKernel(blue), (v, v, v))
        XCTAssertEqual(SRGBTransfer.encode(out.2), 0.6, accuracy: 1e-4)
        XCTAssertEqual(out.0, v, accuracy: 1e-5)
        assertThrowsAAE(try self.read(Levels.self, ["blackSrcRGB": .string("x")]))
        assertThrowsAAE(try self.read(Levels.self, ["whiteSrcRGB": .number(300)]))
        assertThrowsAAE(try self.read(Levels.self, ["RGB": .number(1)]))
    }

    // MARK: Vignette

    /// Spec §6 by hand: i = 0.5, radius 0.5 → r = 0.5, i′ = 0.5^0.6 = 0.659754, r′ = 0.5;
    /// i = −0.5, radius 0.25 → r = 0.75, i′ = −0.659754, r′ = 0.4·0.25 + 0.7 = 0.8;
    /// i = 1, radius 0 → r = 1, i′ = 1, r′ = 0.3·0.5 + 0.5 = 0.65.
    func testVignetteSpecFormula() throws {
        let a = try XCTUnwrap(read(Vignette.self, ["inputKeys": .object(["intensity": .number(0.5), "radius": .number(0.5),
                                                                         "falloff": .number(0.5)])]))
        XCTAssertEqual(a.effectiveIntensity, 0.659754, accuracy: 1e-6)
        XCTAssertEqual(a.effectiveRadius, 0.5, accuracy: 1e-12)
        let b = try XCTUnwrap(read(Vignette.self, ["inputIntensity": .number(-0.5), "inputRadius": .number(0.25)]))
        XCTAssertEqual(b.effectiveIntensity, -0.659754, accuracy: 1e-6)
        XCTAssertEqual(b.effectiveRadius, 0.8, accuracy: 1e-12)
        XCTAssertEqual(b.falloff, 0.5, "falloff defaults to 0.5")
        let c = try XCTUnwrap(read(Vignette.self, ["intensity": .number(1), "radius": .number(0)]))
        XCTAssertEqual(c.effectiveIntensity, 1)
        XCTAssertEqual(c.effectiveRadius, 0.65, accuracy: 1e-12)
        XCTAssertNil(try read(Vignette.self, ["inputKeys": .object(["intensity": .number(0), "radius": .number(0.5)])]))
        XCTAssertEqual(FilterRegistry.role(of: Vignette.self), .outputColour)
        assertThrowsAAE(try self.read(Vignette.self, ["inputKeys": .number(1)]))
        assertThrowsAAE(try self.read(Vignette.self, ["intensity": .number(100)]))
    }

    private func positional(_ vignette: Vignette) throws -> any PositionalKernel {
        let stage = vignette.colourStage(options: ColourOptions())
        guard let kernel = stage.kernel as? any PositionalKernel else { XCTFail("no positional kernel"); throw MissingKernel() }
        XCTAssertNotNil(stage.approximation)
        return kernel
    }

    private func shade(_ kernel: any PositionalKernel, _ v: Float, x: Float, y: Float, w: Float, h: Float) -> (Float, Float, Float) {
        var (r, g, b) = (v, v, v)
        kernel.apply(&r, &g, &b, x: x, y: y, width: w, height: h)
        return (r, g, b)
    }

    /// 200 × 100, i′ = 0.659754, R = 0.5·200 = 100, falloff 0.5 → inner radius 50. At d = 75,
    /// u = 0.5, smoothstep = 0.5, so linear 0.5 → 0.5·(1 − 0.659754·0.5) = 0.335062.
    func testVignetteKernelDarkensTheEdgesSymmetrically() throws {
        let kernel = try positional(Vignette(intensity: 0.5, radius: 0.5, falloff: 0.5))
        let (w, h): (Float, Float) = (200, 100)
        XCTAssertEqual(shade(kernel, 0.5, x: 100, y: 50, w: w, h: h).0, 0.5, "the centre is untouched")
        XCTAssertEqual(shade(kernel, 0.5, x: 175, y: 50, w: w, h: h).0, 0.335062, accuracy: 1e-5)
        XCTAssertEqual(shade(kernel, 0.5, x: 160, y: 95, w: w, h: h).0, 0.335062, accuracy: 1e-5,
                       "(60, 45) from the centre is also at d = 75: the distance is radial")
        let corners = [(0.5, 0.5), (199.5, 0.5), (0.5, 99.5), (199.5, 99.5)].map {
            shade(kernel, 0.5, x: Float($0.0), y: Float($0.1), w: w, h: h).0
        }
        XCTAssertEqual(Set(corners).count, 1, "symmetric: \(corners)")
        XCTAssertLessThan(corners[0], shade(kernel, 0.5, x: 100, y: 0.5, w: w, h: h).0, "corners darker than the edge middle")
        let lighten = try positional(Vignette(intensity: -0.5, radius: 0.5, falloff: 0.5))
        XCTAssertGreaterThan(shade(lighten, 0.5, x: 0.5, y: 0.5, w: w, h: h).0, 0.5)
        let v = Vignette(intensity: 0.5)
        XCTAssertEqual(v.rescaled(by: RescaleFactors(sx: 0.5, sy: 0.5, delta: 0, storedSize: PixelSize(width: 8, height: 8),
                                                     decodedSize: PixelSize(width: 4, height: 4))), v)
    }
}
