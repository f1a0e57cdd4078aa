// ColourOracle.swift — an independent, deliberately slow reference ("oracle") for the colour
// filters of a replayed edit, written only from docs/spec/filters.md §0, §1, §2, §3, §4 and §7.
//
// It imports nothing from the package (Foundation only) and shares no code with the renderer, so
// tests can use it to judge the renderer independently. Every pixel is computed on its own, in
// plain Double arithmetic, one step per spec line; no lookup tables (the tone curve's spline is
// solved exactly and evaluated analytically), no fast paths. The only shortcut is in `render`: a
// memo of the (pure, deterministic) per-pixel result keyed on the pixel's 8-bit input triple, so a
// pixel value seen twice is not computed twice — it changes no output value.
//
// It reuses `TestImage` from GeometryOracle.swift.
//
// Readings of the spec where the text admits more than one (the literal reading is used each time):
// * §0: E and D are made odd-symmetric as E(x) = −E(−x), D(v) = −D(−v) for negative arguments;
//   above 1 the power-law branch simply continues.
// * §0 output: round-half-up is ⌊x + ½⌋ of clamp(v, 0, 1)·255. A NaN working value (which the
//   formulas do not produce for finite 8-bit input) would clamp to 0.
// * §1 step 5, a < 0: "(unclamped a)" is read literally — the gain uses the amount as given,
//   before the clamp to [−1, 1]; the clamped value decides the identity test and the a ≥ 0 / a < 0
//   branch. (The two readings agree for every amount in [−1, 1].)
// * §1 step 3: with the clamp of step 1, m ∈ [0.33333·3e-4, 0.33333·2.9997] ⊂ (0, 1), so neither
//   division by m nor by 1 − m needs a guard.
// * §2: the points are used in the order given; the x values must be strictly increasing (a
//   precondition — the spline is undefined otherwise). u = E(working value) in BOTH working spaces
//   (in `srgb` the already-encoded value is encoded again, as the spec says). u exactly at x_0 or
//   x_4 takes the spline (which equals y_0 / y_4 there).
// * §3 step 1: W^max(1 − s, 0) uses Foundation's pow, so 0^0 = 1 (s = 1 on a pixel with W = 0
//   gives t = s).
// * §3 step 2: m = 0.33333·(c_r + c_g + c_b) as in vibrance step 2. Guard (not in the spec): if
//   m == 0 or m == 1 the skin weight is w = 0.15 (q taken as 0). m == 1 cannot occur (m ≤ 0.99999);
//   m == 0 happens when every channel is ≤ 0.
// * §3 steps 4 and 6: sign(0) = 0, so a zero channel gives A_k = H_k = 0.
// * §3 MW: max(…, …, 1) is taken literally (so MW(L) = 1 for every L ≥ 0).
// * §3 identity: −0.05 < s < 0.05 and h > 0.95, both after the clamps.
// * §4: the identity test uses dI and dQ after `strength` is applied.
// * §7: no identity shortcut is needed (2^0 = 1 exactly).

import Foundation

/// The working space of a render (filters.md §0).
enum OracleWorkingSpace {
    /// Decode 8-bit input with D, run the chain on linear values, encode the result with E.
    case linear
    /// No conversion: the chain runs on encoded values.
    case srgb
}

/// One colour filter of a chain, with its XMP parameters as stored.
enum OracleColourFilter {
    /// §1 CIVibrance, inputAmount.
    case vibrance(amount: Double)
    /// §2 CIToneCurve, five points (x_i, y_i), x strictly increasing.
    case toneCurve(points: [(x: Double, y: Double)])
    /// §3 CIHighlightShadowAdjust, iOS 7 kernel "version 0", radius 0.
    case highlightShadow(shadows: Double, highlights: Double)
    /// §4 CIFaceBalance.
    case faceBalance(origI: Double, origQ: Double, strength: Double, warmth: Double)
    /// §7 CIExposureAdjust, inputEV.
    case exposure(ev: Double)
}

enum ColourOracle {

    // MARK: - §0 sRGB transfer

    /// §0 encode E(x) = 12.92·x for x ≤ 0.0031308, else 1.055·x^(1/2.4) − 0.055; odd-symmetric for
    /// negative x; values > 1 continue the power law.
    static func encode(_ x: Double) -> Double {
        // §0 "Both odd-symmetric for negative values": E(x) = −E(−x).
        if x < 0 { return -encode(-x) }
        // §0 E(x) = 12.92·x for x ≤ 0.0031308.
        if x <= 0.0031308 { return 12.92 * x }
        // §0 else 1.055·x^(1/2.4) − 0.055 (continued above 1).
        return 1.055 * pow(x, 1.0 / 2.4) - 0.055
    }

    /// §0 decode D(v) = v/12.92 for v ≤ 0.04045, else ((v + 0.055)/1.055)^2.4; odd-symmetric for
    /// negative v; values > 1 continue the power law.
    static func decode(_ v: Double) -> Double {
        // §0 "Both odd-symmetric for negative values": D(v) = −D(−v).
        if v < 0 { return -decode(-v) }
        // §0 D(v) = v/12.92 for v ≤ 0.04045.
        if v <= 0.04045 { return v / 12.92 }
        // §0 else ((v + 0.055)/1.055)^2.4 (continued above 1).
        return pow((v + 0.055) / 1.055, 2.4)
    }

    // MARK: - One filter on one pixel

    /// One filter on one unpremultiplied working-space pixel (r, g, b).
    static func apply(_ filter: OracleColourFilter, _ rgb: (Double, Double, Double),
                      space: OracleWorkingSpace) -> (Double, Double, Double) {
        switch filter {
        case .vibrance(let amount):
            return vibrance(amount: amount, rgb)
        case .toneCurve(let points):
            // The spline is the same in both working spaces (§2: "the same code").
            return toneCurve(points: points, rgb)
        case .highlightShadow(let shadows, let highlights):
            return highlightShadow(shadows: shadows, highlights: highlights, rgb)
        case .faceBalance(let origI, let origQ, let strength, let warmth):
            return faceBalance(origI: origI, origQ: origQ, strength: strength, warmth: warmth, rgb)
        case .exposure(let ev):
            return exposure(ev: ev, rgb)
        }
    }

    // MARK: - The §0 pipeline on an 8-bit image

    /// The whole §0 pipeline on an 8-bit RGB image (channels 3): working = D(v/255) (linear) or
    /// v/255 (srgb); the filters in the given order; out = round-half-up(clamp(E(w), 0, 1)·255)
    /// (linear) or of clamp(w, 0, 1)·255 (srgb). Returns channels 3.
    static func render(_ image: TestImage, filters: [OracleColourFilter],
                       space: OracleWorkingSpace) -> TestImage {
        precondition(image.channels == 3, "ColourOracle.render takes an RGB image (channels 3)")
        var out = TestImage(width: image.width, height: image.height, channels: 3)
        // Memo of the pure per-pixel function below, keyed on the 24-bit input triple.
        var memo: [UInt32: (UInt8, UInt8, UInt8)] = [:]
        let count = image.width * image.height
        for i in 0 ..< count {
            let k = i * 3
            let r8 = image.pixels[k], g8 = image.pixels[k + 1], b8 = image.pixels[k + 2]
            let key = UInt32(r8) << 16 | UInt32(g8) << 8 | UInt32(b8)
            let result: (UInt8, UInt8, UInt8)
            if let hit = memo[key] {
                result = hit
            } else {
                result = pixel8(r8, g8, b8, filters: filters, space: space)
                memo[key] = result
            }
            out.pixels[k] = result.0
            out.pixels[k + 1] = result.1
            out.pixels[k + 2] = result.2
        }
        return out
    }

    /// §0 for one 8-bit pixel: to working values, the chain, back to 8 bits.
    private static func pixel8(_ r8: UInt8, _ g8: UInt8, _ b8: UInt8, filters: [OracleColourFilter],
                               space: OracleWorkingSpace) -> (UInt8, UInt8, UInt8) {
        // §0 input: working = D(v/255) (linear) or v/255 (srgb).
        func toWorking(_ byte: UInt8) -> Double {
            let v = Double(byte) / 255.0
            switch space {
            case .linear: return decode(v)
            case .srgb: return v
            }
        }
        var w = (toWorking(r8), toWorking(g8), toWorking(b8))
        // §0: the chain, in the given order, on working values.
        for filter in filters { w = apply(filter, w, space: space) }
        // §0 output: linear → E first; then round-half-up of clamp(v, 0, 1)·255.
        func toByte(_ x: Double) -> UInt8 {
            let v: Double
            switch space {
            case .linear: v = encode(x)
            case .srgb: v = x
            }
            // clamp(v, 0, 1) (NaN → 0).
            let clamped = v.isNaN ? 0.0 : min(max(v, 0.0), 1.0)
            // round-half-up: ⌊x + ½⌋.
            return UInt8(floor(clamped * 255.0 + 0.5))
        }
        return (toByte(w.0), toByte(w.1), toByte(w.2))
    }

    // MARK: - Small helpers (spec notation)

    private static func clamp(_ x: Double, _ lo: Double, _ hi: Double) -> Double {
        min(max(x, lo), hi)
    }

    /// sign(x) ∈ {−1, 0, 1}.
    private static func sign(_ x: Double) -> Double {
        x > 0 ? 1 : (x < 0 ? -1 : 0)
    }

    // MARK: - §1 CIVibrance

    private static func vibrance(amount: Double, _ v: (Double, Double, Double)) -> (Double, Double, Double) {
        let aUnclamped = amount
        // §1 a = clamp(a, −1, 1).
        let a = clamp(amount, -1, 1)
        // §1 |a| ≤ 0.001 → identity.
        if abs(a) <= 0.001 { return v }
        // §1 step 1: c = clamp(v, 1e-4, 0.9999) per channel; ρ = v − c.
        let cr = clamp(v.0, 1e-4, 0.9999), cg = clamp(v.1, 1e-4, 0.9999), cb = clamp(v.2, 1e-4, 0.9999)
        let rhoR = v.0 - cr, rhoG = v.1 - cg, rhoB = v.2 - cb
        // §1 step 2: m = 0.33333·(c_r + c_g + c_b).
        let m = 0.33333 * (cr + cg + cb)
        // §1 step 3: s_k = max((c_k − m)/(1 − m), (m − c_k)/m); S = max(s_r, s_g, s_b).
        let sr = max((cr - m) / (1 - m), (m - cr) / m)
        let sg = max((cg - m) / (1 - m), (m - cg) / m)
        let sb = max((cb - m) / (1 - m), (m - cb) / m)
        let S = max(sr, sg, sb)
        // §1 step 4: q = clamp((1 − s_r)·4·min(c_r − c_g, 2·c_g − c_b)/m, 0, 1); w = 0.7·q + 0.15.
        let q = clamp((1 - sr) * 4 * min(cr - cg, 2 * cg - cb) / m, 0, 1)
        let w = 0.7 * q + 0.15
        // §1 step 5: the gain k.
        let k: Double
        if a >= 0 {
            // a ≥ 0: P0 = 3a, P1 = −1.5a − 4.5a², P2 = −0.5a + 4.5a³, P3 = 4.5a² − 4.5a³ − a;
            // k = (1 − w)·(P0 + P1·S + P2·S² + P3·S³).
            let P0 = 3 * a
            let P1 = -1.5 * a - 4.5 * a * a
            let P2 = -0.5 * a + 4.5 * a * a * a
            let P3 = 4.5 * a * a - 4.5 * a * a * a - a
            k = (1 - w) * (P0 + P1 * S + P2 * S * S + P3 * S * S * S)
        } else {
            // a < 0: k = (S² − S + 1)·a·(1 − w) with the unclamped a (literal reading).
            k = (S * S - S + 1) * aUnclamped * (1 - w)
        }
        // §1 step 6: out = ρ + clamp(c + (c − m)·k, 0, 1).
        return (rhoR + clamp(cr + (cr - m) * k, 0, 1),
                rhoG + clamp(cg + (cg - m) * k, 0, 1),
                rhoB + clamp(cb + (cb - m) * k, 0, 1))
    }

    // MARK: - §2 CIToneCurve

    private static func toneCurve(points: [(x: Double, y: Double)],
                                  _ v: (Double, Double, Double)) -> (Double, Double, Double) {
        precondition(points.count == 5, "§2: the tone curve has five points")
        // §2 identity when every |x_i − y_i| < 0.001.
        if points.allSatisfy({ abs($0.x - $0.y) < 0.001 }) { return v }
        let M = naturalSplineSecondDerivatives(points)
        // §2 applied to R, G, B separately.
        return (toneCurveChannel(points, M, v.0), toneCurveChannel(points, M, v.1), toneCurveChannel(points, M, v.2))
    }

    /// The natural cubic spline through the points: the second derivatives M_0 … M_{n−1} at the
    /// knots, with M_0 = M_{n−1} = 0 ("second derivative 0 at both ends"), from the standard
    /// continuity equations for i = 1 … n−2:
    ///   h_{i−1}·M_{i−1} + 2·(h_{i−1} + h_i)·M_i + h_i·M_{i+1} = 6·((y_{i+1} − y_i)/h_i − (y_i − y_{i−1})/h_{i−1}),
    /// h_i = x_{i+1} − x_i, solved exactly (Thomas algorithm on the tridiagonal system).
    static func naturalSplineSecondDerivatives(_ p: [(x: Double, y: Double)]) -> [Double] {
        let n = p.count
        precondition(n >= 2, "a spline needs two points")
        var h = [Double](repeating: 0, count: n - 1)
        for i in 0 ..< n - 1 {
            h[i] = p[i + 1].x - p[i].x
            precondition(h[i] > 0, "§2 tone curve: x values must be strictly increasing")
        }
        var M = [Double](repeating: 0, count: n)  // M_0 = M_{n−1} = 0 (natural ends)
        let unknowns = n - 2
        if unknowns <= 0 { return M }
        // Row j (j = 0 … unknowns−1) is knot i = j + 1: sub[j]·M_{i−1} + diag[j]·M_i + sup[j]·M_{i+1} = rhs[j].
        var sub = [Double](repeating: 0, count: unknowns)
        var diag = [Double](repeating: 0, count: unknowns)
        var sup = [Double](repeating: 0, count: unknowns)
        var rhs = [Double](repeating: 0, count: unknowns)
        for j in 0 ..< unknowns {
            let i = j + 1
            sub[j] = h[i - 1]
            diag[j] = 2 * (h[i - 1] + h[i])
            sup[j] = h[i]
            rhs[j] = 6 * ((p[i + 1].y - p[i].y) / h[i] - (p[i].y - p[i - 1].y) / h[i - 1])
        }
        // M_0 = M_{n−1} = 0, so the sub term of the first row and the sup term of the last row vanish.
        // Forward elimination.
        for j in 1 ..< unknowns {
            let f = sub[j] / diag[j - 1]
            diag[j] -= f * sup[j - 1]
            rhs[j] -= f * rhs[j - 1]
        }
        // Back substitution.
        var x = [Double](repeating: 0, count: unknowns)
        x[unknowns - 1] = rhs[unknowns - 1] / diag[unknowns - 1]
        var j = unknowns - 2
        while j >= 0 {
            x[j] = (rhs[j] - sup[j] * x[j + 1]) / diag[j]
            j -= 1
        }
        for j in 0 ..< unknowns { M[j + 1] = x[j] }
        return M
    }

    /// The natural spline with knot second derivatives `M` evaluated at u, x_0 ≤ u ≤ x_{n−1}:
    /// on [x_i, x_{i+1}] (h = x_{i+1} − x_i)
    ///   S(u) = M_i·(x_{i+1} − u)³/(6h) + M_{i+1}·(u − x_i)³/(6h)
    ///        + (y_i/h − M_i·h/6)·(x_{i+1} − u) + (y_{i+1}/h − M_{i+1}·h/6)·(u − x_i).
    static func evaluateSpline(_ p: [(x: Double, y: Double)], _ M: [Double], _ u: Double) -> Double {
        // The segment holding u (the last one for u = x_{n−1}).
        var i = 0
        while i < p.count - 2 && u > p[i + 1].x { i += 1 }
        let h = p[i + 1].x - p[i].x
        let a = p[i + 1].x - u
        let b = u - p[i].x
        return M[i] * a * a * a / (6 * h) + M[i + 1] * b * b * b / (6 * h)
            + (p[i].y / h - M[i] * h / 6) * a + (p[i + 1].y / h - M[i + 1] * h / 6) * b
    }

    private static func toneCurveChannel(_ p: [(x: Double, y: Double)], _ M: [Double], _ w: Double) -> Double {
        // §2 u = E(working value) (both working spaces).
        let u = encode(w)
        let y: Double
        if u < p[0].x {
            // §2 below x_0: y_0.
            y = p[0].y
        } else if u > p[p.count - 1].x {
            // §2 above x_4: y_4 (flat).
            y = p[p.count - 1].y
        } else {
            // §2 between: the spline.
            y = evaluateSpline(p, M, u)
        }
        // §2 → clamp to [0, 1] → D.
        return decode(clamp(y, 0, 1))
    }

    // MARK: - §3 CIHighlightShadowAdjust (iOS 7 kernel, version 0, radius 0)

    private static func highlightShadow(shadows: Double, highlights: Double,
                                        _ P: (Double, Double, Double)) -> (Double, Double, Double) {
        // §3 s = clamp(s, −1, 1), h = clamp(h, 0, 1).
        let s = clamp(shadows, -1, 1)
        let h = clamp(highlights, 0, 1)
        // §3 identity when −0.05 < s < 0.05 and h > 0.95.
        if -0.05 < s && s < 0.05 && h > 0.95 { return P }

        // §3 shared: z = clamp(1 − (|s|/0.3)^1.6, 0, 1).
        let z = clamp(1 - pow(abs(s) / 0.3, 1.6), 0, 1)
        // §3 shared: g = 1 / max(1.997 − 1/(1 + e^(−6h)), 1).
        let g = 1 / max(1.997 - 1 / (1 + exp(-6 * h)), 1)
        // §3 shared: L(v) = 0.299r + 0.587g + 0.114b.
        func L(_ v: (Double, Double, Double)) -> Double { 0.299 * v.0 + 0.587 * v.1 + 0.114 * v.2 }
        // §3 shared: SS(t) = t²(3 − 2t) with t clamped to [0, 1].
        func SS(_ t0: Double) -> Double { let t = clamp(t0, 0, 1); return t * t * (3 - 2 * t) }
        // §3 shared: MW(L) = max(0.98 − 2.6L − 2.6L², 0.5965 − 6.25L − 6.25L², 1) (literal max).
        func MW(_ l: Double) -> Double { max(0.98 - 2.6 * l - 2.6 * l * l, 0.5965 - 6.25 * l - 6.25 * l * l, 1) }

        // Step 1: W = clamp((max(P_r,0) + 0.8·max(P_g,0) + 1.1·max(P_b,0)) / max(P_r+P_g+P_b, 0.001), 0, 1);
        //         t = s·W^max(1 − s, 0).
        let W = clamp((max(P.0, 0) + 0.8 * max(P.1, 0) + 1.1 * max(P.2, 0)) / max(P.0 + P.1 + P.2, 0.001), 0, 1)
        let t = s * pow(W, max(1 - s, 0))

        // Step 2: skin weight w, c = clamp(P, 0, 1), m = 0.33333·(c_r + c_g + c_b);
        //   q = max(min(c_r − c_g, 2c_g − c_b), 0)·4·(1 − max((c_r − m)/(1 − m), (m − c_r)/m))/m;
        //   w = 0.7·min(q, 1) + 0.15. Guard: m == 0 or m == 1 → w = 0.15.
        let cr = clamp(P.0, 0, 1), cg = clamp(P.1, 0, 1), cb = clamp(P.2, 0, 1)
        let m = 0.33333 * (cr + cg + cb)
        let w: Double
        if m == 0 || m == 1 {
            w = 0.15
        } else {
            let q = max(min(cr - cg, 2 * cg - cb), 0) * 4 * (1 - max((cr - m) / (1 - m), (m - cr) / m)) / m
            w = 0.7 * min(q, 1) + 0.15
        }

        // Step 3: E_k = 2^(−t − P_k); E′_k = z + (1 − z)·((1 − w)·E_k + w·min(E_r, E_g, E_b)).
        let Er = pow(2, -t - P.0), Eg = pow(2, -t - P.1), Eb = pow(2, -t - P.2)
        let Emin = min(Er, Eg, Eb)
        let Epr = z + (1 - z) * ((1 - w) * Er + w * Emin)
        let Epg = z + (1 - z) * ((1 - w) * Eg + w * Emin)
        let Epb = z + (1 - z) * ((1 - w) * Eb + w * Emin)

        // Step 4: A_k = 2·sign(P_k)·(0.5·|P_k|)^(E′_k).
        let Ar = 2 * sign(P.0) * pow(0.5 * abs(P.0), Epr)
        let Ag = 2 * sign(P.1) * pow(0.5 * abs(P.1), Epg)
        let Ab = 2 * sign(P.2) * pow(0.5 * abs(P.2), Epb)

        // Step 5: ρ = √max(P_r, P_g, P_b, 0); u = clamp(ρ/(0.5t² + 0.1), 0, 1); v = √SS(u);
        //         φ = (1 − v)·v; Sh = A·(1 − φ) + P·φ.
        let rho = sqrt(max(P.0, P.1, P.2, 0))
        let u = clamp(rho / (0.5 * t * t + 0.1), 0, 1)
        let v = sqrt(SS(u))
        let phi = (1 - v) * v
        let Sh = (Ar * (1 - phi) + P.0 * phi, Ag * (1 - phi) + P.1 * phi, Ab * (1 - phi) + P.2 * phi)

        // Step 6: H_k = sign(P_k)·(g·|P_k|)^(2 − h); μ = 1 − SS((ρ − 0.2)/0.6); Hm = H·(1 − μ) + P·μ.
        //         When h > 0.9999 use Hm = P.
        let Hm: (Double, Double, Double)
        if h > 0.9999 {
            Hm = P
        } else {
            let Hr = sign(P.0) * pow(g * abs(P.0), 2 - h)
            let Hg = sign(P.1) * pow(g * abs(P.1), 2 - h)
            let Hb = sign(P.2) * pow(g * abs(P.2), 2 - h)
            let mu = 1 - SS((rho - 0.2) / 0.6)
            Hm = (Hr * (1 - mu) + P.0 * mu, Hg * (1 - mu) + P.1 * mu, Hb * (1 - mu) + P.2 * mu)
        }

        // Step 7: O = Sh·(1 − ρ) + Hm·ρ.
        let O = (Sh.0 * (1 - rho) + Hm.0 * rho, Sh.1 * (1 - rho) + Hm.1 * rho, Sh.2 * (1 - rho) + Hm.2 * rho)

        // Step 8: λ = 1 + 0.05|t|; k = min(MW(L(O)), 30ρ²); out = O·(1 − k) + (0.5 + λ·(O − 0.5))·k.
        let lambda = 1 + 0.05 * abs(t)
        let k = min(MW(L(O)), 30 * rho * rho)
        return (O.0 * (1 - k) + (0.5 + lambda * (O.0 - 0.5)) * k,
                O.1 * (1 - k) + (0.5 + lambda * (O.1 - 0.5)) * k,
                O.2 * (1 - k) + (0.5 + lambda * (O.2 - 0.5)) * k)
    }

    // MARK: - §4 CIFaceBalance

    private static func faceBalance(origI: Double, origQ: Double, strength: Double, warmth: Double,
                                    _ P: (Double, Double, Double)) -> (Double, Double, Double) {
        // §4 I_t = (1 − warmth)·0.005 + warmth·0.105; Q_t = (1 − warmth)·0.010 + warmth·(−0.010).
        let It = (1 - warmth) * 0.005 + warmth * 0.105
        let Qt = (1 - warmth) * 0.010 + warmth * (-0.010)
        // §4 dI = strength·(I_t − origI); dQ = strength·(Q_t − origQ).
        let dI = strength * (It - origI)
        let dQ = strength * (Qt - origQ)
        // §4 identity when |dI| < 0.001 and |dQ| < 0.001.
        if abs(dI) < 0.001 && abs(dQ) < 0.001 { return P }
        // §4 v = max(P, 0)^0.25 per channel.
        let r = pow(max(P.0, 0), 0.25), g = pow(max(P.1, 0), 0.25), b = pow(max(P.2, 0), 0.25)
        // §4 Y = 0.299r + 0.587g + 0.114b; I = 0.595716r − 0.274453g − 0.321263b;
        //    Q = 0.211456r − 0.522591g + 0.311135b.
        let Y = 0.299 * r + 0.587 * g + 0.114 * b
        let I = 0.595716 * r - 0.274453 * g - 0.321263 * b
        let Q = 0.211456 * r - 0.522591 * g + 0.311135 * b
        // §4 C = min(1, 2·√(I² + Q²)).
        let C = min(1, 2 * sqrt(I * I + Q * Q))
        // §4 I′ = I + dI·C^0.4; Q′ = Q + dQ·C^0.4.
        let Ip = I + dI * pow(C, 0.4)
        let Qp = Q + dQ * pow(C, 0.4)
        // §4 r = Y + 0.956296I′ + 0.621024Q′; g = Y − 0.272122I′ − 0.647381Q′; b = Y − 1.10699I′ + 1.70461Q′.
        let r2 = Y + 0.956296 * Ip + 0.621024 * Qp
        let g2 = Y - 0.272122 * Ip - 0.647381 * Qp
        let b2 = Y - 1.10699 * Ip + 1.70461 * Qp
        // §4 out = max(rgb, 0)^4.
        return (pow(max(r2, 0), 4), pow(max(g2, 0), 4), pow(max(b2, 0), 4))
    }

    // MARK: - §7 CIExposureAdjust

    private static func exposure(ev: Double, _ P: (Double, Double, Double)) -> (Double, Double, Double) {
        // §7 out = P·2^EV on working values.
        let f = pow(2, ev)
        return (P.0 * f, P.1 * f, P.2 * f)
    }
}
