@testable import AdjustKit
import XCTest

/// The modern colour models (modern-adjustments.md) against the research's numbers: SmartBlackAndWhite's weights,
/// SmartColor's negative case, SmartTone's light map and stages, the modern effect names, and
/// WhiteBalance's numeric colorType.
final class ModernColourModelTests: XCTestCase {
    private func kernel(_ filter: any ColourFilter, space: WorkingSpace = .linear) throws -> any PixelKernel {
        guard let kernel = try filter.colourStage(options: ColourOptions(workingSpace: space)).kernel as? any PixelKernel else {
            XCTFail("no per-pixel kernel"); throw CancellationError()
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

    /// modern-colour.md §7.6 through the kernel: V′ = 0.3, a = 0.4 (c = 0.9 with p75 1 gives
    /// 0.9/3; p98 4/15 gives 0.375·(1.8 − 11/15) = 0.4).
    /// Expected values from scripts/research/forms7.py, a separate implementation of the spec's text.
    func testSmartColorPositiveTwoStagesMatchTheResearchForm() throws {
        let color = SmartColor(color: 0.9, saturationPercentile75: 1, saturationPercentile98: 4.0 / 15)
        XCTAssertEqual(color.stageAmounts.vibrancy, 0.3, accuracy: 1e-6)
        XCTAssertEqual(color.stageAmounts.vibrance, 0.4, accuracy: 1e-6)
        let k = try kernel(color)
        for (input, expected) in [((0.01, 0.01, 0.01), (0.01, 0.01, 0.01)), ((0.2, 0.1, 0.05), (0.21458, 0.09663, 0.03766)),
                                  ((0.8, 0.85, 0.9), (0.76587, 0.85012, 0.93436)), ((0.5, 0.3, 0.1), (0.51736, 0.29924, 0.08112))]
            as [((Float, Float, Float), (Float, Float, Float))] {
            let out = run(k, input)
            XCTAssertEqual(out.0, expected.0, accuracy: 1e-4, "\(input)")
            XCTAssertEqual(out.1, expected.1, accuracy: 1e-4, "\(input)")
            XCTAssertEqual(out.2, expected.2, accuracy: 1e-4, "\(input)")
        }
        // Greys stay grey.
        let grey = run(k, (0.3, 0.3, 0.3))
        XCTAssertEqual(grey.0, 0.3, accuracy: 1e-6); XCTAssertEqual(grey.2, 0.3, accuracy: 1e-6)
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
        guard stage.kernel is any PixelKernel else { return XCTFail("expected the per-colour global stages") }
        XCTAssertTrue(stage.approximation?.contains("local light is not rendered") == true, stage.approximation ?? "")
        let absent = try XCTUnwrap(SmartTone.read(aae: AAEAdjustment(identifier: "SmartTone",
                                                                     settings: ["inputLight": .number(0.3)]),
                                                  assumptions: .default))
        XCTAssertTrue(absent.colourStage(options: ColourOptions()).approximation?.contains("absent") == true)
    }

    private typealias RGB = (Float, Float, Float)

    /// The inputs of the spec's test vectors (modern-colour.md §7, linear in → out).
    private let vectorInputs: [RGB] = [(0.01, 0.01, 0.01), (0.2, 0.1, 0.05), (0.8, 0.85, 0.9), (0.5, 0.3, 0.1)]

    private func stages(_ edit: (inout SmartToneParameters) -> Void) -> SmartToneModel {
        var p = SmartToneParameters(localLight: 0, smartShadows: 0, brightness: 0, exposure: 0, black: 0,
                                    highlights: 0, contrast: 0)
        edit(&p)
        return SmartToneModel(p)
    }

    private func check(_ model: SmartToneModel, local: (b0: Float, b1: Float)? = nil, _ expected: [RGB], _ label: String,
                       line: UInt = #line) {
        for (input, want) in zip(vectorInputs, expected) {
            var x = input
            if let local { model.local(&x.0, &x.1, &x.2, b0: local.b0, b1: local.b1) } else { model.global(&x.0, &x.1, &x.2) }
            XCTAssertEqual(x.0, want.0, accuracy: 2e-5, "\(label) \(input)", line: line)
            XCTAssertEqual(x.1, want.1, accuracy: 2e-5, "\(label) \(input)", line: line)
            XCTAssertEqual(x.2, want.2, accuracy: 2e-5, "\(label) \(input)", line: line)
        }
    }

    /// modern-colour.md §7.2–§7.5: the spec's test vectors, an oracle independent of this code.
    func testSmartToneStagesMatchTheSpecVectors() {
        check(stages { $0.brightness = -0.205 }, [(0.00801, 0.00801, 0.00801), (0.16500, 0.07798, 0.03585),
                                                  (0.76854, 0.82348, 0.87876), (0.44149, 0.25158, 0.07032)], "high-key −0.205")
        check(stages { $0.brightness = 0.2 }, [(0.01194, 0.01194, 0.01194), (0.23414, 0.12148, 0.06380),
                                               (0.83070, 0.87588, 0.92073), (0.55709, 0.34724, 0.12895)], "high-key +0.2")
        check(stages { $0.highlights = 0.214 }, [(0.01002, 0.01002, 0.01002), (0.20285, 0.10280, 0.05276),
                                                 (0.79719, 0.84506, 0.89283), (0.51408, 0.31446, 0.11415)], "highlights 0.214")
        check(stages { $0.contrast = 0.1 }, [(0.00770, 0.00770, 0.00770), (0.18978, 0.09259, 0.04469),
                                             (0.81817, 0.86895, 0.91972), (0.50719, 0.30653, 0.10459)], "contrast 0.1")
        check(stages { $0.localLight = 0.3 }, local: (0.2, 0.6),
              [(0.00991, 0.00991, 0.00964), (0.23087, 0.11418, 0.05359), (0.85692, 0.89855, 0.93595),
               (0.57315, 0.35843, 0.11983)], "local light 0.3")
    }

    func testSmartToneStagesKeepTheirFixedPointsAndTheRemainder() {
        // Exposure alone: x / 2^(−2E); a value pushed past 1 keeps its excess through the later stages.
        var (r, g, b): RGB = (0.1, 0.2, 0.3)
        stages { $0.exposure = 0.5 }.global(&r, &g, &b)
        XCTAssertEqual(r, 0.2, accuracy: 1e-6); XCTAssertEqual(g, 0.4, accuracy: 1e-6); XCTAssertEqual(b, 0.6, accuracy: 1e-6)
        (r, g, b) = (0.6, 0.6, 0.6)
        stages { $0.exposure = 0.5; $0.contrast = 0.2 }.global(&r, &g, &b)
        XCTAssertEqual(r, 1.2, accuracy: 1e-5, "1.2 after the levels; contrast maps 1 to 1 and adds 0.2 back")
        // Black is a fixed point of high-key, highlights and contrast; white of high-key and
        // contrast (the highlights' form moves white: −0.7 lifts it to 1.276, clipped at encoding).
        for (model, whiteStays) in [(stages { $0.brightness = 0.5 }, true), (stages { $0.highlights = -0.7 }, false),
                                    (stages { $0.contrast = 0.3 }, true)] {
            var black: RGB = (0, 0, 0), white: RGB = (1, 1, 1)
            model.global(&black.0, &black.1, &black.2); model.global(&white.0, &white.1, &white.2)
            XCTAssertEqual(black.0, 0, accuracy: 1e-6)
            XCTAssertEqual(white.0, whiteStays ? 1 : 1.27570, accuracy: 1e-4)
        }
        // Local light: darker neighbourhoods brighten, brighter ones darken.
        var dark: RGB = (0.1, 0.1, 0.1), bright = dark
        stages { $0.localLight = 0.4 }.local(&dark.0, &dark.1, &dark.2, b0: 0.1, b1: 0.3)
        stages { $0.localLight = 0.4 }.local(&bright.0, &bright.1, &bright.2, b0: 0.6, b1: 0.3)
        XCTAssertGreaterThan(dark.0, 0.1); XCTAssertLessThan(bright.0, 0.1)
        // A negative shadows total is not the map-guided lift (modern-colour.md §7.1): no change.
        var shadow: RGB = (0.02, 0.03, 0.05)
        stages { $0.smartShadows = -0.3 }.local(&shadow.0, &shadow.1, &shadow.2, b0: 0.1, b1: 0.3)
        XCTAssertEqual(shadow.0, 0.02); XCTAssertEqual(shadow.2, 0.05)
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

    /// The smoothed map's knots against the smoothing written out term by term (each knot's
    /// Gaussian weights over the 31 cell centres, normalised; along the rows, then down), in the
    /// order of the cells: the same sums to the bit, however `init` arranges its loops.
    func testSmoothedLightMapIsTheGaussianSumsTermByTerm() throws {
        let map = try XCTUnwrap(try FusedRendererTests.realSmartTone().statistics?.lightMap)
        let (n, k, per) = (SmartToneLightMap.cells, SmoothedLightMap.knots, Double(SmoothedLightMap.knotsPerCell))
        func weight(_ knot: Int, _ cell: Int) -> Double {
            let p = Double(knot) / per
            let all = (0..<n).map { j in exp(-(p - Double(j) - 0.5) * (p - Double(j) - 0.5) / 2) }
            return all[cell] / all.reduce(0, +)
        }
        let weights = (0..<k).map { i in (0..<n).map { weight(i, $0) } }
        let smooth = SmoothedLightMap(map)
        for (y, x) in [(0, 0), (0, k - 1), (k - 1, 0), (120, 37), (200, 248), (k / 2, k / 2)] {
            for plane in 0..<2 {
                var sum = 0.0
                for j in 0..<n {
                    var across = 0.0
                    for i in 0..<n { across += weights[x][i] * map.value(plane: plane, row: j, column: i) }
                    sum += weights[y][j] * across
                }
                XCTAssertEqual(smooth.values[(y * k + x) * 2 + plane].bitPattern, Float(sum).bitPattern, "knot \(x), \(y)")
            }
        }
    }

    /// Four pixels' planes, whether their knots are one or two: each lane is the bilinear blend of
    /// its own knots, as the scalar form reads it.
    func testLightMapPlanesOfFourPixelsAreEachPixelsOwn() throws {
        let smooth = SmoothedLightMap(try XCTUnwrap(try FusedRendererTests.realSmartTone().statistics?.lightMap))
        let column = [Float](unsafeUninitializedCapacity: SmoothedLightMap.knots * 2) { buffer, count in
            smooth.column(v: 0.37, into: buffer.baseAddress!)
            count = SmoothedLightMap.knots * 2
        }
        let width: Float = 3024
        for x0 in [0, 13, 14, 15, 16, 500, 1511, 3020] {
            let u = Lanes((0..<4).map { (Float(min(x0 + $0, 3023)) + 0.5) / width })
            let (b0, b1) = column.withUnsafeBufferPointer { SmoothedLightMap.planes(u: u, in: $0.baseAddress!) }
            for lane in 0..<4 {
                let (i, f) = SmoothedLightMap.knot(u[lane])
                let (a0, a1, c0, c1) = (column[i * 2], column[i * 2 + 1], column[i * 2 + 2], column[i * 2 + 3])
                XCTAssertEqual(b0[lane].bitPattern, (a0 + f * (c0 - a0)).bitPattern, "x \(x0 + lane)")
                XCTAssertEqual(b1[lane].bitPattern, (a1 + f * (c1 - a1)).bitPattern, "x \(x0 + lane)")
            }
        }
    }

    /// One SmartTone kernel run on rows of images of several widths in turn (the first width's knot
    /// columns published without a lock, every other width's made under it: `KnotColumnCache`)
    /// colours each row as a kernel new to that width does, to the bit.
    func testSmartToneRowsAreTheSameWhicheverWidthCameFirst() throws {
        let chain = EditChain([try FusedRendererTests.realSmartTone()])
        let shared = try ColourProgram(chain: chain, options: ColourOptions())
        XCTAssertFalse(shared.storedTail.isEmpty)
        for width in [640, 37, 640, 5, 1001] {
            let size = PixelSize(width: width, height: 480)
            var random = SplitMix64(seed: UInt64(width))
            let row = (0..<(width * 3)).map { _ in Float(Double(random.next() >> 11) / Double(1 << 53)) }
            var once = row, fresh = row
            once.withUnsafeMutableBufferPointer {
                shared.applyStoredTail(row: $0.baseAddress!, count: width, x0: 0, y: 123, imageSize: size)
            }
            let own = try ColourProgram(chain: chain, options: ColourOptions())
            fresh.withUnsafeMutableBufferPointer {
                own.applyStoredTail(row: $0.baseAddress!, count: width, x0: 0, y: 123, imageSize: size)
            }
            XCTAssertEqual(once.map(\.bitPattern), fresh.map(\.bitPattern), "width \(width)")
            XCTAssertNotEqual(once, row, "width \(width): the kernel changed nothing")
        }
    }

    /// The knots found once per column give every group of every run the planes its pixels'
    /// centres give (u = (x + ½)/width, the padded lanes repeating the run's last column), to the bit.
    func testKnotColumnsGiveTheCentresPlanes() throws {
        let smooth = SmoothedLightMap(try XCTUnwrap(try FusedRendererTests.realSmartTone().statistics?.lightMap))
        let column = [Float](unsafeUninitializedCapacity: SmoothedLightMap.knots * 2) { buffer, count in
            smooth.column(v: 0.61, into: buffer.baseAddress!)
            count = SmoothedLightMap.knots * 2
        }
        for width in [3024, 4416, 37, 5] {
            let columns = SmoothedLightMap.KnotColumns(centres: (0..<width).map { (Float($0) + 0.5) / Float(width) })
            XCTAssertEqual(columns.knots.count, width)
            // Runs starting anywhere and ending anywhere, so that the last group is padded 0–3 lanes.
            for (x0, count) in [(0, width), (1, width - 1), (0, width - 2), (width / 3, width / 2), (width - 1, 1)] {
                let last = x0 + count - 1
                for x in stride(from: x0, through: last, by: Lanes.scalarCount) {
                    let (j, fx) = columns.knots.withUnsafeBufferPointer { knots in
                        columns.fractions.withUnsafeBufferPointer { fractions in
                            SmoothedLightMap.KnotColumns.group(at: x, last: last, knots: knots.baseAddress!,
                                                                fractions: fractions.baseAddress!)
                        }
                    }
                    let u = Lanes((0..<4).map { (Float(min(x + $0, last)) + 0.5) / Float(width) })
                    let (got, want) = column.withUnsafeBufferPointer {
                        (SmoothedLightMap.planes(knots: j, fractions: fx, in: $0.baseAddress!),
                         SmoothedLightMap.planes(u: u, in: $0.baseAddress!))
                    }
                    for lane in 0..<4 {
                        XCTAssertEqual(got.0[lane].bitPattern, want.0[lane].bitPattern, "width \(width), x \(x + lane)")
                        XCTAssertEqual(got.1[lane].bitPattern, want.1[lane].bitPattern, "width \(width), x \(x + lane)")
                    }
                }
            }
        }
    }

    func testSmoothedLightMapOfAConstantMapIsConstant() throws {
        let map = try XCTUnwrap(SmartToneLightMap(bytes: [UInt8](repeating: 102, count: 1922)))
        let smooth = SmoothedLightMap(map)
        for value in smooth.values { XCTAssertEqual(value, 0.4, accuracy: 1e-6) }
    }

    /// The law from the stored statistics (modern-adjustments.md §2.3): its parameters for the
    /// three renders' statistics, worked by hand from the law's formulas.
    func testSmartToneLawIsTheOnePlaceForTheParameters() throws {
        func statistics(auto: Double, localAuto: Double, black: Double, white: Double) -> SmartToneStatistics {
            var s = SmartToneStatistics()
            (s.autoValue, s.localAutoValue, s.blackPoint, s.whitePoint) = (auto, localAuto, black, white)
            return s
        }
        let blackPoint = 0.0031976514035982175
        let sets: [(Double, SmartToneStatistics, SmartToneParameters)] = [
            (0.3073453608247423, statistics(auto: 0.2856, localAuto: 0.36, black: blackPoint, white: 1.003921568627451),
             SmartToneParameters(localLight: 0.396, smartShadows: 0, brightness: 0.02182, exposure: 0, black: 0.06395,
                                 highlights: 0, contrast: 0.02643)),
            (0.26345038659793807, statistics(auto: 0.2904, localAuto: 0.36, black: blackPoint, white: 1.184313725490196),
             SmartToneParameters(localLight: 0.35925, smartShadows: 0, brightness: 0.0187, exposure: 0, black: 0.06395,
                                 highlights: 0, contrast: 0.02266)),
            (0.22465695112179485, statistics(auto: 0.068, localAuto: 0.3624, black: blackPoint, white: 0.8745098039215686),
             SmartToneParameters(localLight: 0.39864, smartShadows: 0, brightness: 0.01595, exposure: 0.09673, black: 0.06395,
                                 highlights: 0, contrast: 0.01932)),
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
        // At Light 0 every auto value is 0 (modern-colour.md §7.1): the offsets alone. Below 0,
        // with no render to fit, likewise.
        for light in [0.0, -0.4, -1] {
            let offsets = SmartTone(light: light, offsetContrast: 0.3, offsetBlackPoint: 0.1, statistics: sets[2].1).parameters
            XCTAssertEqual(offsets, SmartToneParameters(localLight: 0, smartShadows: 0, brightness: 0, exposure: 0, black: 0.1,
                                                        highlights: 0, contrast: 0.3), "Light \(light)")
        }
        // The real plist's statistics give the first set's parameters.
        let real = try FusedRendererTests.realSmartTone().parameters
        XCTAssertEqual(real.localLight, 0.396, accuracy: 6e-5)
        XCTAssertEqual(real.black, 0.06395, accuracy: 6e-5)
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
        guard let k = stage.kernel as? any PixelKernel else { return XCTFail("no kernel") }
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

/// The stages on one pixel (every lane the same), for the spec's test vectors.
private extension SmartToneModel {
    /// `local` on one pixel, a chunk of one group.
    func local(_ r: inout Float, _ g: inout Float, _ b: inout Float, b0: Float, b1: Float) {
        RGBPlanes.withPixel(&r, &g, &b) { chunk in
            withUnsafePointer(to: Lanes(repeating: b0)) { b0 in
                withUnsafePointer(to: Lanes(repeating: b1)) { b1 in local(chunk, b0: b0, b1: b1) }
            }
        }
    }

    /// `global` on one pixel, a chunk of one group.
    func global(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        RGBPlanes.withPixel(&r, &g, &b) { global($0) }
    }
}
