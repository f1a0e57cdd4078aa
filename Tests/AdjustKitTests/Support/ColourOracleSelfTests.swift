import XCTest

/// Self-tests of the colour oracle (Support/ColourOracle.swift) against values derived by hand
/// from docs/spec/filters.md — never against outputs of the oracle itself. Where a value needed
/// more arithmetic than is sensible by hand, it was computed with a 30-digit calculator (mpmath)
/// straight from the spec's formulas, independently of the Swift code; the numbers are pasted in.
final class ColourOracleSelfTests: XCTestCase {

    private typealias RGB = (Double, Double, Double)

    private func assertRGB(_ got: RGB, _ want: RGB, accuracy: Double, _ label: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(got.0, want.0, accuracy: accuracy, "\(label) r", file: file, line: line)
        XCTAssertEqual(got.1, want.1, accuracy: accuracy, "\(label) g", file: file, line: line)
        XCTAssertEqual(got.2, want.2, accuracy: accuracy, "\(label) b", file: file, line: line)
    }

    private func assertExactly(_ got: RGB, _ want: RGB, _ label: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(got.0 == want.0 && got.1 == want.1 && got.2 == want.2,
                      "\(label): \(got) ≠ \(want)", file: file, line: line)
    }

    /// A 256 × 1 RGB image whose pixel i is (code(i, 0), code(i, 1), code(i, 2)).
    private func row256(_ code: (Int, Int) -> Int) -> TestImage {
        var pixels: [UInt8] = []
        for i in 0 ..< 256 {
            for c in 0 ..< 3 { pixels.append(UInt8(code(i, c))) }
        }
        return TestImage(width: 256, height: 1, channels: 3, pixels: pixels)
    }

    /// All 256 grey levels.
    private var greys: TestImage { row256 { i, _ in i } }

    /// Some pixels, including out-of-range and negative working values.
    private let samplePixels: [RGB] = [
        (0, 0, 0), (1, 1, 1), (0.5, 0.5, 0.5), (0.6, 0.4, 0.3), (0.2, 0.5, 0.9),
        (0.05, 0.3, 0.6), (1.3, -0.02, 0.7), (0.001, 0.00002, 0.9999),
    ]

    // MARK: - §0 sRGB transfer

    func testDecodeOfOneHalf() {
        // D(0.5) = ((0.5 + 0.055)/1.055)^2.4 = 0.214041140482232442… (hand/calculator).
        XCTAssertEqual(ColourOracle.decode(0.5), 0.214041140482232442, accuracy: 1e-15)
        // Linear branch: D(0.04) = 0.04/12.92; E(0.003) = 12.92·0.003.
        XCTAssertEqual(ColourOracle.decode(0.04), 0.04 / 12.92, accuracy: 1e-17)
        XCTAssertEqual(ColourOracle.encode(0.003), 0.03876, accuracy: 1e-15)
        // E(1) = 1.055 − 0.055 = 1; D(1) = 1.
        XCTAssertEqual(ColourOracle.encode(1), 1, accuracy: 1e-15)
        XCTAssertEqual(ColourOracle.decode(1), 1, accuracy: 1e-15)
        // Above 1 the power law continues: D(2) = (2.055/1.055)^2.4, E(2) = 1.055·2^(1/2.4) − 0.055.
        XCTAssertEqual(ColourOracle.decode(2), pow(2.055 / 1.055, 2.4), accuracy: 1e-12)
        XCTAssertEqual(ColourOracle.encode(2), 1.055 * pow(2, 1 / 2.4) - 0.055, accuracy: 1e-12)
    }

    func testEncodeDecodeRoundTrip() {
        for i in 0 ... 400 {
            let x = Double(i) / 200 - 0.5  // −0.5 … 1.5, across both branches and both signs
            XCTAssertEqual(ColourOracle.encode(ColourOracle.decode(x)), x, accuracy: 1e-12, "x = \(x)")
            XCTAssertEqual(ColourOracle.decode(ColourOracle.encode(x)), x, accuracy: 1e-12, "x = \(x)")
        }
    }

    func testEncodeDecodeAreOddSymmetric() {
        for x in [0.0, 0.001, 0.0031308, 0.02, 0.04045, 0.3, 0.75, 1, 1.7] {
            XCTAssertEqual(ColourOracle.encode(-x), -ColourOracle.encode(x), "E(−\(x))")
            XCTAssertEqual(ColourOracle.decode(-x), -ColourOracle.decode(x), "D(−\(x))")
        }
    }

    // MARK: - Identity conditions return the input exactly

    func testIdentityConditionsReturnTheInputExactly() {
        let identities: [(OracleColourFilter, String)] = [
            // §1 |a| ≤ 0.001.
            (.vibrance(amount: 0), "vibrance 0"),
            (.vibrance(amount: 0.001), "vibrance 0.001"),
            (.vibrance(amount: -0.001), "vibrance −0.001"),
            // §2 every |x_i − y_i| < 0.001.
            (.toneCurve(points: [(0, 0), (0.25, 0.25), (0.5, 0.5), (0.75, 0.75), (1, 1)]), "tone curve diagonal"),
            (.toneCurve(points: [(0, 0.0009), (0.25, 0.2495), (0.5, 0.5), (0.75, 0.7509), (1, 0.9991)]), "tone curve near diagonal"),
            // §3 −0.05 < s < 0.05 and h > 0.95 (after the clamps; h = 3 clamps to 1).
            (.highlightShadow(shadows: 0, highlights: 1), "highlight/shadow 0, 1"),
            (.highlightShadow(shadows: 0.049, highlights: 0.951), "highlight/shadow 0.049, 0.951"),
            (.highlightShadow(shadows: -0.049, highlights: 3), "highlight/shadow −0.049, 3"),
            // §4 |dI| < 0.001 and |dQ| < 0.001: origI/origQ equal to the target (warmth 0 → indoor
            // (0.005, 0.010); warmth 1 → outdoor (0.105, −0.010); warmth 0.5 → (0.055, 0)), or strength 0.
            (.faceBalance(origI: 0.005, origQ: 0.010, strength: 1, warmth: 0), "face balance indoor target"),
            (.faceBalance(origI: 0.105, origQ: -0.010, strength: 1, warmth: 1), "face balance outdoor target"),
            (.faceBalance(origI: 0.055, origQ: 0, strength: 0.8, warmth: 0.5), "face balance mid target"),
            (.faceBalance(origI: 0.3, origQ: -0.2, strength: 0, warmth: 0.5), "face balance strength 0"),
            // §7 2^0 = 1.
            (.exposure(ev: 0), "exposure 0"),
        ]
        for (filter, label) in identities {
            for space in [OracleWorkingSpace.linear, .srgb] {
                for p in samplePixels {
                    assertExactly(ColourOracle.apply(filter, p, space: space), p, "\(label) on \(p) in \(space)")
                }
            }
        }
    }

    func testJustOutsideTheIdentityConditionsSomethingChanges() {
        let p: RGB = (0.6, 0.4, 0.3)
        let notIdentities: [OracleColourFilter] = [
            .vibrance(amount: 0.5),
            .toneCurve(points: [(0, 0), (0.25, 0.3), (0.5, 0.5), (0.75, 0.75), (1, 1)]),
            .highlightShadow(shadows: 0.05, highlights: 1),
            .highlightShadow(shadows: 0, highlights: 0.95),
            .faceBalance(origI: 0.005, origQ: 0.030, strength: 1, warmth: 0),
            .exposure(ev: 0.1),
        ]
        for filter in notIdentities {
            let out = ColourOracle.apply(filter, p, space: .linear)
            XCTAssertFalse(out.0 == p.0 && out.1 == p.1 && out.2 == p.2, "\(filter) left \(p) unchanged")
        }
    }

    // MARK: - §7 Exposure

    func testExposureOneStopDoubles() {
        for space in [OracleWorkingSpace.linear, .srgb] {
            assertExactly(ColourOracle.apply(.exposure(ev: 1), (0.1, 0.25, 0.7), space: space), (0.2, 0.5, 1.4), "EV +1")
            assertExactly(ColourOracle.apply(.exposure(ev: -1), (0.1, 0.25, 0.7), space: space), (0.05, 0.125, 0.35), "EV −1")
        }
        // 8 bits, srgb working space: 64 → 64/255·2·255 = 128; 200 → 400 → clamp → 255.
        let img = TestImage(width: 2, height: 1, channels: 3, pixels: [64, 64, 64, 200, 0, 255])
        XCTAssertEqual(ColourOracle.render(img, filters: [.exposure(ev: 1)], space: .srgb).pixels,
                       [128, 128, 128, 255, 0, 255])
    }

    // MARK: - §2 Tone curve

    func testStraightLineSplineIsTheLine() {
        // Points on y = 0.5x + 0.25: every second difference is 0, so the natural spline's system
        // has right-hand side 0, all M_i = 0, and the spline is the line itself.
        let pts: [(x: Double, y: Double)] = [(0, 0.25), (0.25, 0.375), (0.5, 0.5), (0.75, 0.625), (1, 0.75)]
        let M = ColourOracle.naturalSplineSecondDerivatives(pts)
        for m in M { XCTAssertEqual(m, 0, accuracy: 1e-15) }
        for u in [0.0, 0.1, 0.3, 0.5, 0.6, 0.875, 1.0] {
            XCTAssertEqual(ColourOracle.evaluateSpline(pts, M, u), 0.5 * u + 0.25, accuracy: 1e-15, "u = \(u)")
        }
        // Through the filter, per channel: out = D(clamp(0.5·E(w) + 0.25, 0, 1)). Take w = D(u)
        // so E(w) = u (to rounding): E(out) = 0.5u + 0.25.
        let f = OracleColourFilter.toneCurve(points: pts)
        for space in [OracleWorkingSpace.linear, .srgb] {
            for u in [0.1, 0.3, 0.5, 0.9] {
                let w = ColourOracle.decode(u)
                let out = ColourOracle.apply(f, (w, w, w), space: space)
                XCTAssertEqual(ColourOracle.encode(out.0), 0.5 * u + 0.25, accuracy: 1e-12, "u = \(u) in \(space)")
                XCTAssertEqual(out.0, out.1); XCTAssertEqual(out.1, out.2)
            }
            // Below x_0 and above x_4 the curve is flat: u < 0 → y_0 = 0.25; u > 1 → y_4 = 0.75.
            let below = ColourOracle.apply(f, (-0.2, -0.2, -0.2), space: space)
            XCTAssertEqual(ColourOracle.encode(below.0), 0.25, accuracy: 1e-12)
            let above = ColourOracle.apply(f, (1.5, 1.5, 1.5), space: space)
            XCTAssertEqual(ColourOracle.encode(above.0), 0.75, accuracy: 1e-12)
        }
    }

    func testHandSolvedSpline() {
        // Points (0,0), (0.25,0), (0.5,1), (0.75,0), (1,0); h = 0.25 everywhere.
        // Dividing the continuity equations by h: M_{i−1} + 4M_i + M_{i+1} = (6/h²)·(y_{i+1} − 2y_i + y_{i−1})
        // = 96·(1, −2, 1) for i = 1, 2, 3. With M_0 = M_4 = 0 and symmetry M_1 = M_3:
        //   4M_1 + M_2 = 96, 2M_1 + 4M_2 = −192  ⇒  M_1 = M_3 = 288/7, M_2 = −480/7.
        // S(0.125) = M_1·(0.125³)/(6·0.25) − (M_1·0.25/6)·0.125 = −M_1/256 = −9/56.
        // S(0.375) = 0.5 − (M_1 + M_2)/256 = 0.5 + 3/28 = 17/28; S(0.625) = 17/28 by symmetry.
        let pts: [(x: Double, y: Double)] = [(0, 0), (0.25, 0), (0.5, 1), (0.75, 0), (1, 0)]
        let M = ColourOracle.naturalSplineSecondDerivatives(pts)
        XCTAssertEqual(M[0], 0); XCTAssertEqual(M[4], 0)
        XCTAssertEqual(M[1], 288.0 / 7, accuracy: 1e-12)
        XCTAssertEqual(M[2], -480.0 / 7, accuracy: 1e-12)
        XCTAssertEqual(M[3], 288.0 / 7, accuracy: 1e-12)
        XCTAssertEqual(ColourOracle.evaluateSpline(pts, M, 0.125), -9.0 / 56, accuracy: 1e-14)
        XCTAssertEqual(ColourOracle.evaluateSpline(pts, M, 0.375), 17.0 / 28, accuracy: 1e-14)
        XCTAssertEqual(ColourOracle.evaluateSpline(pts, M, 0.5), 1, accuracy: 1e-14)
        XCTAssertEqual(ColourOracle.evaluateSpline(pts, M, 0.625), 17.0 / 28, accuracy: 1e-14)
        XCTAssertEqual(ColourOracle.evaluateSpline(pts, M, 0.875), -9.0 / 56, accuracy: 1e-14)
        // Through the filter the negative lobe is clamped to 0 before D: out = D(0) = 0.
        let out = ColourOracle.apply(.toneCurve(points: pts), (ColourOracle.decode(0.125), 0, 0), space: .linear)
        XCTAssertEqual(out.0, 0)
    }

    func testUnevenSplineAgainstADenseSolve() {
        // Uneven knots; M and S computed by the calculator with a dense LU solve of the same
        // continuity equations (not the tridiagonal elimination used by the oracle).
        let pts: [(x: Double, y: Double)] = [(0, 0.05), (0.2, 0.3), (0.45, 0.5), (0.7, 0.8), (1, 0.95)]
        let M = ColourOracle.naturalSplineSecondDerivatives(pts)
        XCTAssertEqual(M[1], -4.30491329479768786127, accuracy: 1e-12)
        XCTAssertEqual(M[2], 4.69768786127167630058, accuracy: 1e-12)
        XCTAssertEqual(M[3], -4.88583815028901734104, accuracy: 1e-12)
        for (u, s) in [(0.1, 0.185762283236994219653), (0.3, 0.380777745664739884393),
                       (0.6, 0.683101445086705202312), (0.9, 0.92171483622350674374)] {
            XCTAssertEqual(ColourOracle.evaluateSpline(pts, M, u), s, accuracy: 1e-14, "u = \(u)")
        }
    }

    func testToneCurveSeesEncodedValuesTwiceInSRGB() {
        // Line y = 0.5x + 0.25 on an 8-bit black pixel:
        // linear: w = D(0) = 0, u = E(0) = 0 → y = 0.25 → D(0.25) → E → 0.25 → 0.25·255 = 63.75 → 64.
        // srgb: w = 0, u = E(0) = 0 → y = 0.25 → D(0.25) = 0.0508760881715… (stays encoded-space
        // working value) → 0.0508760881715·255 = 12.973… → 13.
        let f = OracleColourFilter.toneCurve(points: [(0, 0.25), (0.25, 0.375), (0.5, 0.5), (0.75, 0.625), (1, 0.75)])
        let black = TestImage(width: 1, height: 1, channels: 3, pixels: [0, 0, 0])
        XCTAssertEqual(ColourOracle.render(black, filters: [f], space: .linear).pixels, [64, 64, 64])
        XCTAssertEqual(ColourOracle.render(black, filters: [f], space: .srgb).pixels, [13, 13, 13])
        XCTAssertEqual(ColourOracle.apply(f, (0, 0, 0), space: .srgb).0, 0.0508760881715567906, accuracy: 1e-15)
    }

    // MARK: - §1 Vibrance

    func testVibranceOnNeutralGrey() {
        // Neutral grey r = g = b = v in [1e-4, 0.9999]: c_k = v, ρ = 0, m = 0.33333·3v = 0.99999v.
        // Because the spec's constant is 0.33333 (not 1/3), c − m = 0.00001·v is NOT 0, so s_k is
        // not exactly 0 and grey moves by a tiny amount (≈ 1e-5 relative — far below 1/255):
        //   s_k = max(0.00001v/(1 − 0.99999v), −0.00001v/(0.99999v)) = 0.00001v/(1 − 0.99999v) = S.
        //   min(c_r − c_g, 2c_g − c_b) = min(0, v) = 0 ⇒ q = 0 ⇒ w = 0.15.
        // v = 0.5: S = 0.000005/0.500005 = 9.99990000099999e-6.
        //   a = 1:    P0 = 3, P1 = −6, P2 = 4, P3 = −1; k = 0.85·(3 − 6S + 4S² − S³) = 2.54994900084998725;
        //             out = 0.5 + 0.000005·k = 0.500012749745004249936.
        //   a = −0.5: k = (S² − S + 1)·(−0.5)·0.85 = −0.424995750084998725;
        //             out = 0.5 + 0.000005·k = 0.499997875021249575006.
        for space in [OracleWorkingSpace.linear, .srgb] {
            let up = ColourOracle.apply(.vibrance(amount: 1), (0.5, 0.5, 0.5), space: space)
            assertRGB(up, (0.500012749745004249936, 0.500012749745004249936, 0.500012749745004249936),
                      accuracy: 1e-14, "vibrance +1 on grey 0.5")
            let down = ColourOracle.apply(.vibrance(amount: -0.5), (0.5, 0.5, 0.5), space: space)
            assertRGB(down, (0.499997875021249575006, 0.499997875021249575006, 0.499997875021249575006),
                      accuracy: 1e-14, "vibrance −0.5 on grey 0.5")
        }
        // Hence grey is unchanged at 8 bits: every grey level, both spaces, strong amounts.
        for space in [OracleWorkingSpace.linear, .srgb] {
            for a in [1.0, 0.5, -1.0] {
                XCTAssertEqual(ColourOracle.render(greys, filters: [.vibrance(amount: a)], space: space), greys,
                               "vibrance \(a) on greys in \(space)")
            }
        }
    }

    func testVibranceOnColours() {
        // Calculator values from §1 steps 1–6.
        assertRGB(ColourOracle.apply(.vibrance(amount: 0.7), (0.6, 0.4, 0.3), space: .linear),
                  (0.630259577172531707, 0.393949028639755511, 0.275793754373367413), accuracy: 1e-13, "a = 0.7 skin-ish")
        assertRGB(ColourOracle.apply(.vibrance(amount: -0.6), (0.2, 0.5, 0.9), space: .linear),
                  (0.341375526874960801, 0.514135516847335638, 0.744482170143835421), accuracy: 1e-13, "a = −0.6 blue")
        // Out-of-range channels: ρ = v − c is added back (0 → ρ = −1e-4; 1.2 → ρ = 0.2001).
        assertRGB(ColourOracle.apply(.vibrance(amount: 0.5), (0, 0.5, 1.2), space: .linear),
                  (-0.0000903011292812747611, 0.500000000903200965, 1.20009030293568320), accuracy: 1e-13, "a = 0.5 out of range")
    }

    // MARK: - §3 Highlight/shadow

    func testHighlightShadowOnBlack() {
        // P = (0, 0, 0):
        // 1. W = clamp(0 / max(0, 0.001), 0, 1) = 0; t = s·0^max(1 − s, 0) = 0 for s < 1 (0^0 = 1 → t = 1 at s = 1).
        // 2. c = 0, m = 0 → guard: w = 0.15.
        // 3. E_k = 2^(−t), all equal, so E′_k = z + (1 − z)·E_k (whatever it is).
        // 4. A_k = 2·sign(0)·… = 0.
        // 5. ρ = √0 = 0; u = 0; v = √SS(0) = 0; φ = 0; Sh = A = 0.
        // 6. H_k = sign(0)·… = 0; μ = 1 − SS(−1/3) = 1 − SS(0) = 1; Hm = H·0 + P·1 = 0 (or Hm = P = 0).
        // 7. O = 0·1 + 0·0 = 0.
        // 8. k = min(MW(0), 30·0) = min(1, 0) = 0; out = O·1 + (…)·0 = 0.
        // So black stays exactly black for every s, h.
        for (s, h) in [(0.5, 0.3), (1.0, 0.0), (-1.0, 0.5), (-0.4, 1.0), (0.2, 0.96)] {
            for space in [OracleWorkingSpace.linear, .srgb] {
                let out = ColourOracle.apply(.highlightShadow(shadows: s, highlights: h), (0, 0, 0), space: space)
                XCTAssertTrue(out.0 == 0 && out.1 == 0 && out.2 == 0, "s = \(s), h = \(h): \(out)")
            }
        }
        let black = TestImage(width: 1, height: 1, channels: 3, pixels: [0, 0, 0])
        XCTAssertEqual(ColourOracle.render(black, filters: [.highlightShadow(shadows: 0.6, highlights: 0.2)], space: .linear), black)
    }

    func testHighlightShadowOnColours() {
        // Calculator values from §3 steps 1–8.
        assertRGB(ColourOracle.apply(.highlightShadow(shadows: 0.5, highlights: 0.4), (0.2, 0.1, 0.05), space: .linear),
                  (0.328507118375294340, 0.193592966578537841, 0.114152884604759907), accuracy: 1e-13, "s 0.5 h 0.4")
        assertRGB(ColourOracle.apply(.highlightShadow(shadows: -0.4, highlights: 0.8), (0.7, 0.5, 0.35), space: .linear),
                  (0.686592090445035938, 0.466078735792805368, 0.308165567908012724), accuracy: 1e-13, "s −0.4 h 0.8")
        // h = 1 > 0.9999 → Hm = P (s = 0.3 keeps it from being the identity).
        assertRGB(ColourOracle.apply(.highlightShadow(shadows: 0.3, highlights: 1), (0.05, 0.3, 0.6), space: .linear),
                  (0.0608690532722526857, 0.363942182150138665, 0.704252220094732704), accuracy: 1e-13, "s 0.3 h 1")
    }

    // MARK: - §4 Face balance

    func testFaceBalance() {
        // Calculator value from §4: origI 0.02, origQ 0.03, strength 0.6, warmth 0.3
        // (I_t = 0.035, Q_t = 0.004 → dI = 0.009, dQ = −0.0156).
        assertRGB(ColourOracle.apply(.faceBalance(origI: 0.02, origQ: 0.03, strength: 0.6, warmth: 0.3), (0.5, 0.3, 0.2), space: .linear),
                  (0.498747399045429584, 0.306093267406654923, 0.179517469689518515), accuracy: 1e-13, "face balance")
        // A grey pixel has I = (0.595716 − 0.274453 − 0.321263)·v = 0 and Q = (0.211456 − 0.522591 + 0.311135)·v = 0,
        // so C = 0, C^0.4 = 0: the shift vanishes and out = (Y + 0)^4 with Y = (0.299 + 0.587 + 0.114)·v^0.25 = v^0.25,
        // i.e. grey is unchanged (up to the rounding of the coefficient sums).
        let out = ColourOracle.apply(.faceBalance(origI: 0, origQ: 0.05, strength: 1, warmth: 1), (0.4, 0.4, 0.4), space: .linear)
        assertRGB(out, (0.4, 0.4, 0.4), accuracy: 1e-6, "face balance on grey")
    }

    // MARK: - §0 8-bit pipeline

    func testEmptyChainReproducesEvery8BitCodeInBothSpaces() {
        // All 256 grey levels, and every code in each channel position with unequal channels.
        let mixed = row256 { i, c in [i, 255 - i, (i * 37) % 256][c] }
        for space in [OracleWorkingSpace.linear, .srgb] {
            XCTAssertEqual(ColourOracle.render(greys, filters: [], space: space), greys, "greys in \(space)")
            XCTAssertEqual(ColourOracle.render(mixed, filters: [], space: space), mixed, "mixed in \(space)")
        }
    }

    func testIdentityChainReproducesTheInputInBothSpaces() {
        let identity: [OracleColourFilter] = [
            .vibrance(amount: 0),
            .toneCurve(points: [(0, 0), (0.25, 0.25), (0.5, 0.5), (0.75, 0.75), (1, 1)]),
            .highlightShadow(shadows: 0, highlights: 1),
            .faceBalance(origI: 0.005, origQ: 0.010, strength: 1, warmth: 0),
            .exposure(ev: 0),
        ]
        let mixed = row256 { i, c in [i, 255 - i, (i * 91) % 256][c] }
        for space in [OracleWorkingSpace.linear, .srgb] {
            XCTAssertEqual(ColourOracle.render(mixed, filters: identity, space: space), mixed, "\(space)")
        }
    }

    func testRenderKeepsSizeAndChannels() {
        let img = TestImage(width: 3, height: 2, channels: 3, pixels: (0 ..< 18).map { UInt8($0 * 14) })
        let out = ColourOracle.render(img, filters: [.vibrance(amount: 0.4), .exposure(ev: 0.3)], space: .linear)
        XCTAssertEqual([out.width, out.height, out.channels], [3, 2, 3])
    }
}
