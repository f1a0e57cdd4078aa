@testable import AdjustKit
import XCTest

/// The modern colour models (modern-adjustments.md) against the research's numbers: SmartBlackAndWhite's weights,
/// SmartColor's negative case, SmartTone's light map and stages, the modern effect names, and
/// WhiteBalance's numeric colorType.
final class ModernColourModelTests: XCTestCase {
    private func kernel(_ filter: any ColourFilter, space: WorkingSpace = .linear) throws -> any PixelKernel {
        guard case .pointwise(let kernel)? = try filter.colourStage(options: ColourOptions(workingSpace: space)).kernel else {
            XCTFail("no pointwise kernel"); throw CancellationError()
        }
        return kernel
    }

    private func run(_ kernel: any PixelKernel, _ rgb: (Float, Float, Float)) -> (Float, Float, Float) {
        var (r, g, b) = rgb
        kernel.apply(&r, &g, &b)
        return (r, g, b)
    }

    // MARK: SmartBlackAndWhite (§4)

    func testBlackAndWhiteWeightsMatchTheSpecExample() {
        let w = SmartBlackAndWhite(hue: 0.6521).weights
        XCTAssertEqual(w.0, 0.394, accuracy: 0.001)
        XCTAssertEqual(w.1, 0.594, accuracy: 0.001)
        XCTAssertEqual(w.2, 0.012, accuracy: 0.001)
        XCTAssertEqual(w.0 + w.1 + w.2, 1, accuracy: 1e-12)
    }

    func testBlackAndWhiteLeavesNeutralGreysUnchanged() throws {
        for hue in [-0.589, 0, 0.3333, 0.6521] {
            let k = try kernel(SmartBlackAndWhite(hue: hue))
            for code in stride(from: 0, through: 255, by: 17) {
                let v = SRGBTransfer.decode(Float(code) / 255)
                let out = run(k, (v, v, v))
                XCTAssertEqual(out.0, out.1); XCTAssertEqual(out.1, out.2)
                XCTAssertEqual(SRGBTransfer.encode(out.0) * 255, Float(code), accuracy: 0.05, "hue \(hue) grey \(code)")
            }
        }
    }

    func testBlackAndWhiteIsGreyAndFollowsTheWeights() throws {
        // A saturated red through H = 0.6521: the weights give 0.394 of its value (0.197), the
        // hue-selective contrast darkens it below the pivot to 0.14422 (research bw2_model.py).
        let out = run(try kernel(SmartBlackAndWhite(hue: 0.6521)), (0.5, 0, 0))
        XCTAssertEqual(out.0, out.2)
        XCTAssertEqual(out.0, 0.14422, accuracy: 1e-4)
    }

    /// The research's vectors for the hue-selective contrast (modern-adjustments.md §4): linear in,
    /// linear grey out, offsetStrength 0.
    func testBlackAndWhiteMatchesTheResearchVectors() throws {
        let inputs: [(Float, Float, Float)] = [(0.5, 0.5, 0.5), (0.6, 0.3, 0.15), (0.1, 0.3, 0.6), (0.02, 0.01, 0.005),
                                               (0.2, 0.1, 0.03), (0.3, 0.35, 0.1)]
        let expected: [Double: [Float]] = [
            0.6521: [0.49998, 0.36968, 0.28657, 0.00960, 0.08766, 0.28244],
            0.3333: [0.49993, 0.33415, 0.32833, 0.00987, 0.09577, 0.29050],
            -0.589: [0.50006, 0.43894, 0.21948, 0.01661, 0.16380, 0.29790],
        ]
        for (hue, outputs) in expected {
            let k = try kernel(SmartBlackAndWhite(hue: hue))
            for (input, output) in zip(inputs, outputs) {
                let out = run(k, input)
                XCTAssertEqual(out.0, out.2)
                XCTAssertEqual(out.0, output, accuracy: 1e-4, "hue \(hue) \(input)")
            }
        }
        let w = SmartBlackAndWhite(hue: 0.3333).weights
        XCTAssertEqual(w.0, 0.33150, accuracy: 1e-5); XCTAssertEqual(w.1, 0.46199, accuracy: 1e-5)
        XCTAssertEqual(w.2, 0.20652, accuracy: 1e-5)
        let chain = SmartBlackAndWhite(hue: -0.589).weights
        XCTAssertEqual(chain.0, 0.40638, accuracy: 1e-5); XCTAssertEqual(chain.1, 0.44100, accuracy: 1e-5)
    }

    // MARK: SmartColor (§5)

    func testSmartColorNegativeMixesTowardTheMean() throws {
        let k = try kernel(SmartColor(color: -0.5))
        let out = run(k, (0.8, 0.4, 0.3))
        let m: Float = 0.5
        XCTAssertEqual(out.0, m + 0.5 * (0.8 - m), accuracy: 1e-5)
        XCTAssertEqual(out.1, m + 0.5 * (0.4 - m), accuracy: 1e-5)
        XCTAssertEqual(out.2, m + 0.5 * (0.3 - m), accuracy: 1e-5)
        let grey = run(try kernel(SmartColor(color: -1)), (0.8, 0.4, 0.3))
        XCTAssertEqual(grey.0, m, accuracy: 1e-5); XCTAssertEqual(grey.2, m, accuracy: 1e-5)
    }

    func testSmartColorPositiveAmountsFollowTheStatistics() {
        let a = SmartColor(color: 0.6, saturationPercentile75: 0.6, saturationPercentile98: 0.8).positiveAmounts
        XCTAssertEqual(a.vibrancy, 0.6 / 1.8, accuracy: 1e-12)
        XCTAssertEqual(a.contrast, 0.375 * (1.2 - 0.2), accuracy: 1e-12)
        let b = SmartColor(color: 0.3, saturationPercentile75: 0.2, saturationPercentile98: 0.1).positiveAmounts
        XCTAssertEqual(b.vibrancy, 0.3 / 1.5, accuracy: 1e-12)
        XCTAssertEqual(b.contrast, 0)
        // The sign flip, nothing below p98 0.01, c/3 without p75.
        let flipped = SmartColor(color: 0.5, saturationPercentile75: 0.6, saturationPercentile98: 0.95,
                                 saturationPercentileG98: 0.8).positiveAmounts
        XCTAssertEqual(flipped.contrast, -0.375 * (1 - 0.05), accuracy: 1e-12)
        XCTAssertEqual(SmartColor(color: 0.5, saturationPercentile98: 0.005).positiveAmounts.vibrancy, 0)
        XCTAssertEqual(SmartColor(color: 0.6).positiveAmounts.vibrancy, 0.2, accuracy: 1e-12)
        XCTAssertEqual(SmartColor(color: -0.6).positiveAmounts.vibrancy, 0)
    }

    /// The research's vector (modern-adjustments.md §3): SmartColor −0.845615 on (0.6, 0.3, 0.15).
    func testSmartColorNegativeVector() throws {
        let out = run(try kernel(SmartColor(color: -0.845615)), (0.6, 0.3, 0.15))
        XCTAssertEqual(out.0, 0.38860, accuracy: 1e-4)
        XCTAssertEqual(out.1, 0.34228, accuracy: 1e-4)
        XCTAssertEqual(out.2, 0.31912, accuracy: 1e-4)
    }

    // MARK: SmartTone (§2, §3)

    func testLightMapDecodesFromTheRealPlist() throws {
        let tone = try FusedRendererTests.realSmartTone()
        let statistics = try XCTUnwrap(tone.statistics)
        let map = try XCTUnwrap(statistics.lightMap)
        XCTAssertEqual(map.bytes.count, 1922)
        // Bytes as Python's base64 module decodes them: the first cell, the centre cell, the last.
        XCTAssertEqual(Array(map.bytes[0..<4]), [21, 90, 74, 119])
        XCTAssertEqual(map.value(plane: 0, row: 15, column: 15), 20.0 / 255, accuracy: 1e-12)
        XCTAssertEqual(map.value(plane: 1, row: 15, column: 15), 29.0 / 255, accuracy: 1e-12)
        XCTAssertEqual(Array(map.bytes[1920...]), [15, 122])
        XCTAssertEqual(try XCTUnwrap(statistics.localAutoValue), 0.36, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(statistics.p98), 0.6, accuracy: 1e-9)
        XCTAssertEqual(tone.light, 0.3073, accuracy: 1e-4)
    }

    func testMalformedLightMapRendersTheGlobalStagesAndSaysSo() throws {
        let adjustment = AAEAdjustment(identifier: "SmartTone", settings: [
            "inputLight": .number(0.3), "statistics": .object(["lightMap": .string("AAAA"), "p50": .number(0.1)])])
        let tone = try XCTUnwrap(SmartTone.read(aae: adjustment, assumptions: .default))
        XCTAssertNil(tone.statistics?.lightMap)
        let stage = tone.colourStage(options: ColourOptions())
        guard case .pointwise? = stage.kernel else { return XCTFail("expected the per-colour global stages") }
        XCTAssertTrue(stage.approximation?.contains("local light is not rendered") == true, stage.approximation ?? "")
        let absent = try XCTUnwrap(SmartTone.read(aae: AAEAdjustment(identifier: "SmartTone",
                                                                     settings: ["inputLight": .number(0.3)]),
                                                  assumptions: .default))
        XCTAssertTrue(absent.colourStage(options: ColourOptions()).approximation?.contains("absent") == true)
    }

    func testSmartToneStages() {
        func parameters(_ edit: (inout SmartToneParameters) -> Void) -> SmartToneModel {
            var p = SmartToneParameters(localLight: 0, smartShadows: 0, brightness: 0, exposure: 0, black: 0,
                                        highlights: 0, contrast: 0)
            edit(&p)
            return SmartToneModel(p)
        }
        // Exposure alone: x / 2^(−2E).
        var (r, g, b): (Float, Float, Float) = (0.1, 0.2, 0.3)
        parameters { $0.exposure = 0.5 }.global(&r, &g, &b)
        XCTAssertEqual(r, 0.2, accuracy: 1e-6); XCTAssertEqual(g, 0.4, accuracy: 1e-6); XCTAssertEqual(b, 0.6, accuracy: 1e-6)
        // High-key: x + B·(√(1 − (x − 1)²) − x); 0 and 1 fixed.
        (r, g, b) = (0.25, 0, 1)
        parameters { $0.brightness = 0.5 }.global(&r, &g, &b)
        XCTAssertEqual(r, 0.25 + 0.5 * ((1 - 0.5625).squareRoot() - 0.25), accuracy: 1e-6)
        XCTAssertEqual(g, 0); XCTAssertEqual(b, 1)
        // Local light: no change where the local median puts the strength at 0 (b0 = 1.2/3.4) and
        // the pivot's local contrast is 0 (a pixel at the pivot 0.5² in the square-root domain).
        (r, g, b) = (0.25, 0.25, 0.25)
        parameters { $0.localLight = 0.4 }.local(&r, &g, &b, b0: 1.2 / 3.4, b1: 0.3)
        XCTAssertEqual(r, 0.25, accuracy: 1e-6); XCTAssertEqual(b, 0.25, accuracy: 1e-6)
        // Darker neighbourhoods brighten, brighter ones darken.
        var dark: (Float, Float, Float) = (0.1, 0.1, 0.1), bright = dark
        parameters { $0.localLight = 0.4 }.local(&dark.0, &dark.1, &dark.2, b0: 0.1, b1: 0.3)
        parameters { $0.localLight = 0.4 }.local(&bright.0, &bright.1, &bright.2, b0: 0.6, b1: 0.3)
        XCTAssertGreaterThan(dark.0, 0.1); XCTAssertLessThan(bright.0, 0.1)
    }

    /// The test vectors of the research (modern-adjustments.md §2.4), stage by stage: the
    /// 7783E8E6 law's parameters on given (r, g, b, b0, b1).
    func testSmartToneStagesMatchTheResearchVectors() {
        let law = SmartToneParameters(localLight: 0.3492, smartShadows: -0.1117, brightness: 0.0231, exposure: 0,
                                      black: 0.064, highlights: 0, contrast: 0.0246)
        let none = SmartToneParameters(localLight: 0, smartShadows: 0, brightness: 0, exposure: 0, black: 0,
                                       highlights: 0, contrast: 0)
        var curve = none; curve.localLight = law.localLight
        var local = curve; local.smartShadows = law.smartShadows
        var key = none; key.brightness = law.brightness
        var tone = law; (tone.localLight, tone.smartShadows, tone.brightness) = (0, 0, 0)
        typealias RGB = (Float, Float, Float)
        let cases: [(RGB, Float, Float, RGB, RGB, RGB, RGB)] = [
            ((0.02, 0.03, 0.05), 0.30, 0.60, (0.01581, 0.02542, 0.04474), (0.01549, 0.02504, 0.04434),
             (0.01918, 0.02959, 0.05011), (0.01528, 0.02522, 0.04484)),
            ((0.20, 0.15, 0.10), 0.45, 0.70, (0.15148, 0.10946, 0.06898), (0.15147, 0.10939, 0.06880),
             (0.16018, 0.11735, 0.07562), (0.15493, 0.11266, 0.07148)),
            ((0.60, 0.55, 0.50), 0.55, 0.95, (0.48821, 0.43629, 0.38622), (0.48821, 0.43629, 0.38622),
             (0.49676, 0.44527, 0.39552), (0.49984, 0.44770, 0.39731)),
            ((0.90, 0.90, 0.90), 0.25, 0.40, (0.93154, 0.93154, 0.92932), (0.93154, 0.93154, 0.92932),
             (0.93306, 0.93306, 0.93089), (0.93534, 0.93534, 0.93315)),
        ]
        func check(_ x: RGB, _ expected: RGB, _ label: String) {
            XCTAssertEqual(x.0, expected.0, accuracy: 1e-4, label)
            XCTAssertEqual(x.1, expected.1, accuracy: 1e-4, label)
            XCTAssertEqual(x.2, expected.2, accuracy: 1e-4, label)
        }
        for (input, b0, b1, afterCurve, afterLocal, afterKey, afterTone) in cases {
            var x = input
            SmartToneModel(curve).local(&x.0, &x.1, &x.2, b0: b0, b1: b1)
            check(x, afterCurve, "3a.1–3 \(input)")
            x = input
            SmartToneModel(local).local(&x.0, &x.1, &x.2, b0: b0, b1: b1)
            check(x, afterLocal, "3a.4 \(input)")
            SmartToneModel(key).global(&x.0, &x.1, &x.2)
            check(x, afterKey, "3b \(input)")
            SmartToneModel(tone).global(&x.0, &x.1, &x.2)
            check(x, afterTone, "3c \(input)")
        }
        // Stage 3c alone with the IMG_1994 law.
        let chain = SmartToneParameters(localLight: 0, smartShadows: 0, brightness: 0, exposure: 0.0967, black: 0.064,
                                        highlights: -0.8125, contrast: 0.0180)
        for (input, expected) in [((0.05, 0.05, 0.05), (0.05225, 0.05225, 0.05225)),
                                  ((0.3, 0.2, 0.1), (0.33141, 0.21823, 0.10638)),
                                  ((0.8, 0.85, 0.9), (0.87745, 0.96028, 1.0))] as [(RGB, RGB)] {
            var x = input
            SmartToneModel(chain).global(&x.0, &x.1, &x.2)
            check(x, expected, "IMG_1994 3c \(input)")
        }
    }

    /// The smoothed map read at a pixel against the research's reference upsample (a separable
    /// normalised Gaussian of σ = 1 cell, cell j's centre at (x + 0.5)/W·31 − 0.5 = j) on the
    /// 7783E8E6 map, 3024 × 4032.
    func testLightMapSamplingMatchesTheGaussianReference() throws {
        let map = SmoothedLightMap(try XCTUnwrap(try FusedRendererTests.realSmartTone().statistics?.lightMap))
        for (x, y, b0, b1) in [(0, 0, 0.15771, 0.49875), (1512, 2016, 0.08362, 0.19301),
                               (2500, 1000, 0.18973, 0.39892)] as [(Int, Int, Float, Float)] {
            let p = map.planes(u: (Float(x) + 0.5) / 3024, v: (Float(y) + 0.5) / 4032)
            XCTAssertEqual(p.0, b0, accuracy: 2e-4, "b0 at \(x), \(y)")
            XCTAssertEqual(p.1, b1, accuracy: 2e-4, "b1 at \(x), \(y)")
        }
    }

    func testSmoothedLightMapOfAConstantMapIsConstant() throws {
        let map = try XCTUnwrap(SmartToneLightMap(bytes: [UInt8](repeating: 102, count: 1922)))
        let smooth = SmoothedLightMap(map)
        for value in smooth.values { XCTAssertEqual(value, 0.4, accuracy: 1e-6) }
    }

    /// The law from the stored statistics (modern-adjustments.md §2.3): the research's parameters
    /// of the three renders.
    func testSmartToneLawIsTheOnePlaceForTheParameters() throws {
        func statistics(auto: Double, localAuto: Double, black: Double, white: Double) -> SmartToneStatistics {
            var s = SmartToneStatistics()
            (s.autoValue, s.localAutoValue, s.blackPoint, s.whitePoint) = (auto, localAuto, black, white)
            return s
        }
        let blackPoint = 0.0031976514035982175
        let sets: [(Double, SmartToneStatistics, SmartToneParameters)] = [
            (0.3073453608247423, statistics(auto: 0.2856, localAuto: 0.36, black: blackPoint, white: 1.003921568627451),
             SmartToneParameters(localLight: 0.3492, smartShadows: -0.1117, brightness: 0.0231, exposure: 0, black: 0.0640,
                                 highlights: 0, contrast: 0.0246)),
            (0.26345038659793807, statistics(auto: 0.2904, localAuto: 0.36, black: blackPoint, white: 1.184313725490196),
             SmartToneParameters(localLight: 0.3168, smartShadows: -0.1014, brightness: 0.0198, exposure: 0, black: 0.0640,
                                 highlights: 0, contrast: 0.0211)),
            (0.22465695112179485, statistics(auto: 0.068, localAuto: 0.3624, black: blackPoint, white: 0.8745098039215686),
             SmartToneParameters(localLight: 0.3515, smartShadows: -0.1125, brightness: 0.0168, exposure: 0.0967, black: 0.0640,
                                 highlights: -0.8125, contrast: 0.0180)),
        ]
        for (light, stats, expected) in sets {
            let p = SmartTone(light: light, statistics: stats).parameters
            for (a, b) in [(p.localLight, expected.localLight), (p.smartShadows, expected.smartShadows),
                           (p.brightness, expected.brightness), (p.exposure, expected.exposure), (p.black, expected.black),
                           (p.highlights, expected.highlights), (p.contrast, expected.contrast)] {
                XCTAssertEqual(a, b, accuracy: 6e-5, "inputLight \(light)")
            }
        }
        // Offsets add to the parameter they name.
        let base = SmartTone(light: 0.3, statistics: sets[0].1).parameters
        let moved = SmartTone(light: 0.3, offsetExposure: 0.1, offsetContrast: -0.2, offsetBlackPoint: 0.05,
                              statistics: sets[0].1).parameters
        XCTAssertEqual(moved.exposure, base.exposure + 0.1, accuracy: 1e-12)
        XCTAssertEqual(moved.contrast, base.contrast - 0.2, accuracy: 1e-12)
        XCTAssertEqual(moved.black, base.black + 0.05, accuracy: 1e-12)
        // The real plist's statistics give the first set's parameters.
        let real = try FusedRendererTests.realSmartTone().parameters
        XCTAssertEqual(real.localLight, 0.3492, accuracy: 6e-5)
        XCTAssertEqual(real.black, 0.0640, accuracy: 6e-5)
    }

    // MARK: Effects and WhiteBalance

    func testModernEffectNamesAreApproximateAndRender() throws {
        for name in ModernPhotoEffect.allCases.map(\.rawValue) + ["Mono", "Tonal", "Noir"] {
            for identifier in ["Effect", "Effect3D"] {
                let adjustment = AAEAdjustment(identifier: identifier, settings: ["effectName": .string(name),
                                                                                  "effectIntensity": .number(0.5)])
                XCTAssertEqual(FilterRegistry.aaeSupport(of: adjustment), .approximate, "\(identifier) \(name)")
            }
            let look = try XCTUnwrap(EffectIntensityDissolve.Look(name: name))
            let stage = EffectIntensityDissolve(look: look, intensity: 0.5).colourStage(options: ColourOptions())
            XCTAssertNotNil(stage.kernel, name); XCTAssertNotNil(stage.approximation, name)
        }
        XCTAssertEqual(FilterRegistry.aaeSupport(of: AAEAdjustment(identifier: "Effect", settings: ["effectName": .string("3DFoo")])),
                       .unsupported)
    }

    /// The frame's test vectors (modern-adjustments.md §8): 8-bit in, out before rounding.
    func testModernEffectFramesMatchTheResearchVectors() {
        typealias RGB = (Float, Float, Float)
        let cases: [(ModernPhotoEffect, RGB, RGB)] = [
            (.dramaticCool, (0, 0, 0), (1.12, 2.96, 16.67)), (.dramaticCool, (64, 64, 64), (30.80, 47.10, 68.30)),
            (.dramaticCool, (96, 96, 96), (50.30, 85.07, 111.02)), (.dramaticCool, (192, 192, 192), (194.78, 198.80, 203.15)),
            (.dramaticCool, (200, 120, 60), (190.47, 119.78, 98.39)), (.dramaticCool, (40, 90, 160), (0.00, 81.88, 147.97)),
            (.vivid, (64, 64, 64), (56.84, 56.84, 56.84)), (.vivid, (200, 120, 60), (220.22, 116.22, 38.22)),
            (.vivid, (40, 90, 160), (21.55, 86.55, 177.55)), (.vividWarm, (200, 120, 60), (228.08, 118.19, 28.41)),
            (.vividCool, (40, 90, 160), (14.64, 86.55, 186.18)), (.dramatic, (200, 120, 60), (186.29, 126.29, 81.29)),
            (.dramaticWarm, (40, 90, 160), (49.35, 81.67, 123.81)), (.noir, (200, 120, 60), (140.22, 140.22, 140.22)),
            (.noir, (64, 64, 64), (47.29, 47.29, 47.29)), (.silverplate, (64, 64, 64), (59.09, 57.59, 54.58)),
            (.silverplate, (200, 120, 60), (141.37, 139.41, 135.48)),
        ]
        for (effect, input, expected) in cases {
            let out = ModernPhotoEffects.frame(for: effect)(input.0 / 255, input.1 / 255, input.2 / 255)
            XCTAssertEqual(out.0 * 255, expected.0, accuracy: 0.01, "\(effect) \(input)")
            XCTAssertEqual(out.1 * 255, expected.1, accuracy: 0.01, "\(effect) \(input)")
            XCTAssertEqual(out.2 * 255, expected.2, accuracy: 0.01, "\(effect) \(input)")
        }
    }

    func testUserCubeReplacesAModernEffect() throws {
        let cube = ColourCube.sampling(size: 2) { r, g, b in (1 - r, 1 - g, 1 - b) }
        let options = ColourOptions(modernEffectCubes: [.vivid: cube])
        let stage = EffectIntensityDissolve(modern: .vivid).colourStage(options: options)
        XCTAssertNil(stage.approximation)
        guard case .pointwise(let k)? = stage.kernel else { return XCTFail("no kernel") }
        let out = run(k, (0, 0, 0))
        XCTAssertEqual(out.0, 1, accuracy: 1e-5)
    }

    func testWhiteBalanceColorTypeAsANumber() throws {
        func read(_ settings: [String: AAEValue]) throws -> WhiteBalance? {
            try WhiteBalance.read(aae: AAEAdjustment(identifier: "WhiteBalance", settings: settings), assumptions: .default)
        }
        let face = try XCTUnwrap(read(["colorType": .number(1), "faceI": .number(0.05), "faceQ": .number(-0.02),
                                       "faceStrength": .number(0.7), "faceWarmth": .number(0.2)]))
        guard case .faceBalance = face.kind else { return XCTFail("1 is faceBalance") }
        XCTAssertNil(try read(["colorType": .number(1), "faceI": .number(0.05), "faceQ": .number(-0.02),
                               "faceStrength": .number(0), "faceWarmth": .number(0)]))
        XCTAssertNil(try read(["colorType": .number(1), "isDefaults": .bool(true)]))
        XCTAssertThrowsError(try read(["colorType": .number(7)]))
    }
}
