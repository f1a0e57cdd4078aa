/// A modern Photos `SmartColor` adjustment, the Color slider (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §3, forms from modern-colour.md §7.6). Support
/// **approximate**. Runs on linear sRGB, after SmartTone and before SmartBlackAndWhite.
///
/// Amounts (c = `inputColor`, offsets clamped to −1…1; p75, p98, pG98 = `statistics.satPercentile75`,
/// `satPercentile98`, `satPercentileG98`): vibrancy V = c for c ≤ 0, else c/(3·max(p75, 0.5))
/// (c/3 when p75 ≤ 0 or absent); contrast C = clamp(0.375·(2c − (1 − p98)), −1, 1) where c > 0 and
/// 2c > 1 − p98, else 0, its sign flipped when pG98 > 0.75, p98 > 0.9 and 0.5 < p75 < 0.65; for
/// c > 0 nothing at all when p98 < 0.01 (p98 absent: no contrast). Per pixel, m = mean(R, G, B):
/// 1. vibrancy with V′ = clamp(V + offsetSaturation, −1, 1): V′ ≤ 0, x ← m + (1 + V′)(x − m);
///    V′ > 0, t = 1 + 3V′, on x clamped to [0, 1]: g = 0.3R + 0.5G + 0.2B, y = 0.4R + 0.2G + 0.1B,
///    w = (1 − 2y)²·(1 − 0.8·smoothstep(0.2, 0.4, (R − B)/(R + G + B))), w ← min(w + (t − 2.5)/5, 1)
///    when t > 2.5; x ← x + w·(min(t, 3) − 1)·(x − g) (strongest in deep shadows and bright
///    highlights, held back on skin-like reds);
/// 2. vibrance with a = clamp(C + offsetContrast, −1, 1), on x clamped to [10⁻⁴, 0.9999]:
///    d = x − m, s_k = max(d_k/(1 − m), −d_k/m), S = max_k s_k, skin κ = clamp(4(1 − s_R)·min(R − G,
///    2G − B)/m, 0, 1), w = 0.15 + 0.7κ; gain = (1 − w)·(3a + (−1.5a − 4.5a²)S + (−0.5a + 4.5a³)S² +
///    (4.5a² − 4.5a³ − a)S³) for a > 0, (1 − w)·a·(S² − S + 1) for a < 0; x ← clamp(m + (1 + gain)·d, 0, 1);
/// 3. cast: the Warmth gains of `WhiteBalance` (`warmTint`) at warmth 0.5·offsetCast, positive
///    warmer [I: no render].
package struct SmartColor: Equatable, Sendable {
    /// `inputColor`, −1…1.
    package var color: Double
    package var offsetSaturation: Double, offsetContrast: Double, offsetCast: Double
    /// `statistics.satPercentile75`, `satPercentile98` and `satPercentileG98`, nil when absent.
    package var saturationPercentile75: Double?, saturationPercentile98: Double?, saturationPercentileG98: Double?

    package init(color: Double, offsetSaturation: Double = 0, offsetContrast: Double = 0, offsetCast: Double = 0,
                saturationPercentile75: Double? = nil, saturationPercentile98: Double? = nil,
                saturationPercentileG98: Double? = nil) {
        (self.color, self.offsetSaturation, self.offsetContrast, self.offsetCast) =
            (color, offsetSaturation, offsetContrast, offsetCast)
        (self.saturationPercentile75, self.saturationPercentile98, self.saturationPercentileG98) =
            (saturationPercentile75, saturationPercentile98, saturationPercentileG98)
    }

    fileprivate var isIdentity: Bool {
        ![color, offsetSaturation, offsetContrast, offsetCast].contains(where: { abs($0) >= 0.001 })
    }

    /// Step 1 for c > 0: the vibrancy and the contrast (0 below the threshold); both 0 for c ≤ 0.
    var positiveAmounts: (vibrancy: Double, contrast: Double) {
        let c = min(1, max(-1, color))
        guard c > 0 else { return (0, 0) }
        if let p98 = saturationPercentile98, p98 < 0.01 { return (0, 0) }
        func clamp(_ x: Double) -> Double { min(1, max(-1, x)) }
        let p75 = saturationPercentile75 ?? 0
        let vibrancy = clamp(p75 > 0 ? c / (3 * max(p75, 0.5)) : c / 3)
        var contrast = 0.0
        if let p98 = saturationPercentile98, 2 * c > 1 - p98 {
            contrast = clamp(0.5 * 0.75 * (2 * c - (1 - p98)))
            if let g98 = saturationPercentileG98, g98 > 0.75, p98 > 0.9, p75 > 0.5, p75 < 0.65 { contrast = -contrast }
        }
        return (vibrancy, contrast)
    }
}

extension SmartColor: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "SmartColor"
    static let aaeIdentifier = "SmartColor"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Color", .number(color)), ("OffsetSaturation", .number(offsetSaturation)),
         ("OffsetContrast", .number(offsetContrast)), ("OffsetCast", .number(offsetCast))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> SmartColor { self }

    /// Each value −1…1 (clamped; refused beyond ±3); nil when all are within 0.001 of 0.
    static func read(aae a: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> SmartColor? {
        let statistics = a.settings["statistics"]?.objectValue
        let value = SmartColor(color: try a.slider("inputColor"), offsetSaturation: try a.slider("offsetSaturation"),
                               offsetContrast: try a.slider("offsetContrast"), offsetCast: try a.slider("offsetCast"),
                               saturationPercentile75: statistics?["satPercentile75"]?.numberValue,
                               saturationPercentile98: statistics?["satPercentile98"]?.numberValue,
                               saturationPercentileG98: statistics?["satPercentileG98"]?.numberValue)
        return value.isIdentity ? nil : value
    }

    /// Stage 1's V′ and stage 2's a (module doc comment), each clamped to −1…1.
    var stageAmounts: (vibrancy: Double, vibrance: Double) {
        func clamp(_ x: Double) -> Double { min(1, max(-1, x)) }
        let c = clamp(color), positive = positiveAmounts
        return (clamp((c > 0 ? positive.vibrancy : c) + clamp(offsetSaturation)), clamp(positive.contrast + clamp(offsetContrast)))
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        let cast = abs(offsetCast) >= 0.001 ? WhiteBalance.gains(warmth: 0.5 * min(1, max(-1, offsetCast)), tint: 0) : nil
        let amounts = stageAmounts
        let kernel = SmartColorKernel(vibrancy: Float(amounts.vibrancy), vibrance: Float(amounts.vibrance),
                                      cast: cast.map { (Float($0.0), Float($0.1), Float($0.2)) }, space: options.workingSpace)
        return .pixel(kernel, approximation: "SmartColor (approximation: vibrancy with a skin guard, then vibrance, "
            + "the amounts from the Color slider, the offsets and the photo's saturation percentiles; cast unchecked)")
    }
}

/// The two stages and the cast of the module doc comment, on linear light, a group of pixels at a time (`Lanes`).
private struct SmartColorKernel: LaneKernel {
    /// V′ and a.
    let vibrancy: Float, vibrance: Float
    let cast: (Float, Float, Float)?
    let space: WorkingSpace

    @inline(__always)
    func apply(_ r: inout Lanes, _ g: inout Lanes, _ b: inout Lanes) {
        var (lr, lg, lb) = (space.linear(r), space.linear(g), space.linear(b))
        if vibrancy < 0 {
            let m = (lr + lg + lb) / 3, k = 1 + vibrancy
            lr = m + k * (lr - m); lg = m + k * (lg - m); lb = m + k * (lb - m)
        } else if vibrancy > 0 {
            let t = 1 + 3 * vibrancy
            let (cr, cg, cb) = (lr.clamped01, lg.clamped01, lb.clamped01)
            let pivot: Lanes = 0.3 * cr + 0.5 * cg + 0.2 * cb, y: Lanes = 0.4 * cr + 0.2 * cg + 0.1 * cb
            let total: Lanes = cr + cg + cb
            let redness = ((cr - cb) / total).replacing(with: 0, where: total .<= 0)
            let e = ((redness - 0.2) / 0.2).clamped01
            let smooth: Lanes = e * e * (3 - 2 * e), dark: Lanes = 1 - 2 * y
            var w: Lanes = dark * dark * (1 - 0.8 * smooth)
            if t > 2.5 { w = Lanes.minimum(w + (t - 2.5) / 5, .one) }
            let k = w * (min(t, 3) - 1)
            lr += k * (lr - pivot); lg += k * (lg - pivot); lb += k * (lb - pivot)
        }
        if vibrance != 0 {
            let (cr, cg, cb) = (lr.clamped(1e-4, 0.9999), lg.clamped(1e-4, 0.9999), lb.clamped(1e-4, 0.9999))
            let m = (cr + cg + cb) / 3
            let (dr, dg, db) = (cr - m, cg - m, cb - m)
            // s_k = max(d_k/(1 − m), −d_k/m).
            let (above, below) = (1 / (1 - m), -1 / m)
            let sr = Lanes.maximum(dr * above, dr * below)
            let s = Lanes.maximum(sr, Lanes.maximum(Lanes.maximum(dg * above, dg * below), Lanes.maximum(db * above, db * below)))
            let skin = (4 * (1 - sr) * Lanes.minimum(cr - cg, 2 * cg - cb) / m).clamped01
            let keep = 1 - (0.15 + 0.7 * skin), a = vibrance
            // The cubic's coefficients are the slider's; only s varies per pixel.
            let gain: Lanes
            if a > 0 {
                let (c1, c2, c3) = (-1.5 * a - 4.5 * a * a, -0.5 * a + 4.5 * a * a * a, 4.5 * a * a - 4.5 * a * a * a - a)
                var cubic: Lanes = s * c3 + c2
                cubic = cubic * s + c1
                cubic = cubic * s + 3 * a
                gain = keep * cubic
            } else {
                let quadratic: Lanes = s * s - s + 1
                gain = keep * a * quadratic
            }
            let k = 1 + gain
            (lr, lg, lb) = ((m + k * dr).clamped01, (m + k * dg).clamped01, (m + k * db).clamped01)
        }
        if let cast { lr *= cast.0; lg *= cast.1; lb *= cast.2 }
        (r, g, b) = (space.working(fromLinear: lr), space.working(fromLinear: lg), space.working(fromLinear: lb))
    }
}
