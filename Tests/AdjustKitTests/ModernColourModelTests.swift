@testable import AdjustKit
import XCTest

/// The models of modern-colour.md against the spec's own numbers: SmartBlackAndWhite's weights,
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
        // A saturated red through H = 0.6521 (red weight 0.394) stays near 0.394 of its value.
        let out = run(try kernel(SmartBlackAndWhite(hue: 0.6521)), (0.5, 0, 0))
        XCTAssertEqual(out.0, out.2)
        XCTAssertEqual(out.0, 0.5 * 0.394, accuracy: 0.05)
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
        XCTAssertEqual(a.contrast, 1.2 - 0.2, accuracy: 1e-12)
        let b = SmartColor(color: 0.3, saturationPercentile75: 0.2, saturationPercentile98: 0.1).positiveAmounts
        XCTAssertEqual(b.vibrancy, 0.3 / 1.5, accuracy: 1e-12)
        XCTAssertEqual(b.contrast, 0)
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

    func testSmoothedLightMapOfAConstantMapIsConstant() throws {
        let map = try XCTUnwrap(SmartToneLightMap(bytes: [UInt8](repeating: 102, count: 1922)))
        let smooth = SmoothedLightMap(map)
        for value in smooth.values { XCTAssertEqual(value, 0.4, accuracy: 1e-6) }
    }

    func testSmartToneLawIsTheOnePlaceForTheParameters() {
        let p = SmartTone(light: 0.3, offsetExposure: 0.1, offsetContrast: -0.2).parameters
        let c = SmartToneLaw.coefficients
        XCTAssertEqual(p.localLight, c.localLight * 0.3, accuracy: 1e-12)
        XCTAssertEqual(p.exposure, c.exposure * 0.3 + 0.1, accuracy: 1e-12)
        XCTAssertEqual(p.contrast, c.contrast * 0.3 - 0.2, accuracy: 1e-12)
        XCTAssertEqual(p.black, c.black, accuracy: 1e-12)
    }

    // MARK: Effects and WhiteBalance

    func testModernEffectNamesAreApproximateAndRender() throws {
        for name in ModernPhotoEffect.allCases.map(\.rawValue) + ["Mono", "Tonal", "Noir"] {
            for identifier in ["Effect", "Effect3D"] {
                let adjustment = AAEAdjustment(identifier: identifier, settings: ["effectName": .string(name),
                                                                                  "effectIntensity": .number(0.5)])
                XCTAssertEqual(AAESupport.level(of: adjustment), .approximate, "\(identifier) \(name)")
            }
            let look = try XCTUnwrap(EffectIntensityDissolve.Look(name: name))
            let stage = EffectIntensityDissolve(look: look, intensity: 0.5).colourStage(options: ColourOptions())
            XCTAssertNotNil(stage.kernel, name); XCTAssertNotNil(stage.approximation, name)
        }
        XCTAssertEqual(AAESupport.level(of: AAEAdjustment(identifier: "Effect", settings: ["effectName": .string("3DFoo")])),
                       .unsupported)
    }

    func testDramaticCoolMatchesTheSpecGreys() {
        // modern-colour.md §6: grey 64 → (28, 43, 69), 96 → (61, 87, 102), 192 → (196, 200, 202).
        for (grey, expected) in [(64, (28, 43, 69)), (96, (61, 87, 102)), (192, (196, 200, 202))] {
            let v = Float(grey) / 255
            let out = ModernPhotoEffects.dramaticCool(v, v, v)
            XCTAssertEqual(out.0 * 255, Float(expected.0), accuracy: 4, "\(grey)")
            XCTAssertEqual(out.1 * 255, Float(expected.1), accuracy: 4, "\(grey)")
            // The compact form's own blue row gives 64 and 97 for the render's 69 and 102 (it is a
            // 34.5 dB fit, not the render): a wider tolerance there.
            XCTAssertEqual(out.2 * 255, Float(expected.2), accuracy: 6, "\(grey)")
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
