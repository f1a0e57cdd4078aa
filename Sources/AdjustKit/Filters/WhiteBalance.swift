import Foundation

/// A modern Photos `WhiteBalance` adjustment (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §1). `colorType` picks one of four kinds:
///
/// - `faceBalance` (`faceI`, `faceQ`, `faceStrength`, `faceWarmth`): the same four inputs as
///   AdjustmentXMP's `CIFaceBalance` (spec §6), rendered by its kernel (`FaceBalanceKernel`).
///   Support **strong**.
/// - `tempTint` (`temperature` in kelvin, `tint`): **approximate**. von Kries-style gains on
///   linear-light sRGB channels, g_c = W₆₅₀₀,c / W_T,c, where W_T is the linear sRGB colour of
///   the illuminant at temperature T on the Planckian locus (Kim et al. 2002, T clamped to
///   1667…25000 K) moved off the locus by Δuv = tint/3000 (CIE 1960 uv, toward green for
///   tint > 0), and W₆₅₀₀ the locus point at 6500 K with no tint. The gains are then scaled so
///   that a grey keeps its luminance. [I] `temperature` is the illuminant the photo is corrected
///   *from* (as in Lightroom and Photos for Mac: a higher temperature gives a warmer picture),
///   6500 K / tint 0 is neutral, and tint is in Core Image's units (−150…150).
/// - `warmTint` (`warmTemp`, `warmTint`, `warmFace`), iOS's Warmth and Tint sliders:
///   **approximate**. The `tempTint` gains for T = 10⁶ / (10⁶/6500 − 75·warmTemp) (warmTemp ±1 =
///   ∓75 mired) and tint = 50·warmTint. [I] both sliders in −1…1, 0 neutral; `warmFace` is kept
///   but not rendered (its meaning is unknown).
/// - `neutralGray` (`grayY`, `grayI`, `grayQ`, `grayWarmth`), the eyedropper: **approximate**.
///   The picked grey is taken as YIQ of v = linear^¼ (the space of `CIFaceBalance`'s kernel) [I];
///   its linear colour G = (YIQ→RGB)⁴ gets gains g_c = lum(G) / G_c (clamped to 1/8…8), so it
///   becomes a neutral grey; then `grayWarmth` (−1…1, 0 neutral [I]) warms it like `warmTemp`;
///   the gains are then divided by their Rec. 709 luminance, so a grey keeps its luminance.
///
/// Every gain kernel multiplies linear light, so black stays black and any neutral grey stays
/// grey when the settings are neutral (the read returns nil then).
package struct WhiteBalance: Equatable, Sendable {
    /// The `colorType` and its settings.
    package enum Kind: Equatable, Sendable {
        case faceBalance(FaceBalance)
        case temperatureTint(temperature: Double, tint: Double)
        case warmthTint(warmth: Double, tint: Double, face: Double)
        case neutralGray(y: Double, i: Double, q: Double, warmth: Double)
    }

    package var kind: Kind
    package init(_ kind: Kind) { self.kind = kind }

    /// The `colorType` names, in the file's spelling.
    static let colorTypes = ["faceBalance", "tempTint", "warmTint", "neutralGray"]
    /// `colorType` as a number, as real macOS 10.15 files store it: 1 = faceBalance [V].
    static let numberedColorTypes: [Double: String] = [1: "faceBalance"]

    /// The linear-light channel gains of the three approximate kinds (nil for faceBalance).
    var channelGains: (Double, Double, Double)? {
        switch kind {
        case .faceBalance: return nil
        case let .temperatureTint(temperature, tint): return Self.gains(temperature: temperature, tint: tint)
        case let .warmthTint(warmth, tint, _): return Self.gains(warmth: warmth, tint: 50 * tint)
        case let .neutralGray(y, i, q, warmth):
            func fourth(_ v: Double) -> Double { let c = max(v, 0); return c * c * c * c }
            let r = fourth(y + 0.956296 * i + 0.621024 * q)
            let g = fourth(y - 0.272122 * i - 0.647381 * q)
            let b = fourth(y - 1.10699 * i + 1.70461 * q)
            let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
            func gain(_ c: Double) -> Double { c > 0 ? min(8, max(0.125, luminance / c)) : 8 }
            let warm = Self.gains(warmth: warmth, tint: 0)
            let raw = (gain(r) * warm.0, gain(g) * warm.1, gain(b) * warm.2)
            // A white balance moves colour, not exposure: scaled so that a grey keeps its luminance,
            // as the other kinds are (unscaled, a strongly tinted pick brightened every grey up to
            // 2.4×, which no white-balance slider does).
            let scale = 0.2126 * raw.0 + 0.7152 * raw.1 + 0.0722 * raw.2
            return (raw.0 / scale, raw.1 / scale, raw.2 / scale)
        }
    }

    /// Gains for the Warmth slider (−1…1, ∓75 mired about 6500 K) and a Core Image tint.
    static func gains(warmth: Double, tint: Double) -> (Double, Double, Double) {
        gains(temperature: 1e6 / (1e6 / 6500 - 75 * warmth), tint: tint)
    }

    /// von Kries gains that correct an illuminant at `temperature` kelvin and `tint` to the 6500 K
    /// locus point, normalised to keep a grey's luminance.
    static func gains(temperature: Double, tint: Double) -> (Double, Double, Double) {
        let reference = illuminantRGB(temperature: 6500, tint: 0)
        let illuminant = illuminantRGB(temperature: temperature, tint: tint)
        var g = (reference.0 / illuminant.0, reference.1 / illuminant.1, reference.2 / illuminant.2)
        let luminance = 0.2126 * g.0 + 0.7152 * g.1 + 0.0722 * g.2
        g = (g.0 / luminance, g.1 / luminance, g.2 / luminance)
        return g
    }

    /// Linear sRGB (Y = 1) of the Planckian locus at `temperature`, moved by `tint`/3000 along
    /// the locus normal in CIE 1960 uv (positive: toward green).
    static func illuminantRGB(temperature: Double, tint: Double) -> (Double, Double, Double) {
        let t = min(25_000, max(1667, temperature))
        func uv(_ t: Double) -> (Double, Double) {
            let (x, y) = planckianXY(t)
            let d = -2 * x + 12 * y + 3
            return (4 * x / d, 6 * y / d)
        }
        var (u, v) = uv(t)
        if tint != 0 {
            // The tangent by a central difference; the normal is the tangent turned a quarter
            // turn toward +v (green: above the locus).
            let a = uv(max(1667, t - 10)), b = uv(min(25_000, t + 10))
            var (du, dv) = (b.0 - a.0, b.1 - a.1)
            let length = (du * du + dv * dv).squareRoot()
            (du, dv) = (du / length, dv / length)
            var normal = (-dv, du)
            if normal.1 < 0 { normal = (-normal.0, -normal.1) }
            u += tint / 3000 * normal.0; v += tint / 3000 * normal.1
        }
        let d = 2 * u - 8 * v + 4
        let x = 3 * u / d, y = 2 * v / d
        let X = x / y, Z = (1 - x - y) / y
        return (3.2404542 * X - 1.5371385 - 0.4985314 * Z,
                -0.9692660 * X + 1.8760108 + 0.0415560 * Z,
                0.0556434 * X - 0.2040259 + 1.0572252 * Z)
    }

    /// CIE 1931 xy of the Planckian locus, Kim et al. (2002) cubic fits, 1667…25000 K.
    static func planckianXY(_ t: Double) -> (Double, Double) {
        let t1 = 1e3 / t, t2 = t1 * t1, t3 = t2 * t1
        let x = t <= 4000 ? -0.2661239 * t3 - 0.2343589 * t2 + 0.8776956 * t1 + 0.179910
                          : -3.0258469 * t3 + 2.1070379 * t2 + 0.2226347 * t1 + 0.240390
        let x2 = x * x, x3 = x2 * x
        let y: Double
        if t <= 2222 { y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683 }
        else if t <= 4000 { y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867 }
        else { y = 3.0817580 * x3 - 5.87338670 * x2 + 3.75112997 * x - 0.37001483 }
        return (x, y)
    }
}

extension WhiteBalance: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "WhiteBalance"
    static let aaeIdentifier = "WhiteBalance"

    /// Strong for `faceBalance` (the structure is known, a constant inferred); approximate for the
    /// other kinds. `colorType` is a name, or the number real macOS 10.15 files store.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel {
        let colorType: String?
        switch adjustment.settings["colorType"] {
        case .number(let n)?: colorType = numberedColorTypes[n]
        case let other?: colorType = other.stringValue
        case nil: colorType = nil
        }
        return colorType == "faceBalance" ? .strong : .approximate
    }

    package var stepName: String {
        switch kind {
        case .faceBalance: return "WhiteBalance (faceBalance)"
        case .temperatureTint: return "WhiteBalance (tempTint)"
        case .warmthTint: return "WhiteBalance (warmTint)"
        case .neutralGray: return "WhiteBalance (neutralGray)"
        }
    }

    package var parameterValues: [(String, ParameterValue)] {
        switch kind {
        case .faceBalance(let f):
            return [("FaceI", .number(f.origI)), ("FaceQ", .number(f.origQ)), ("FaceStrength", .number(f.strength)),
                    ("FaceWarmth", .number(f.warmth))]
        case let .temperatureTint(temperature, tint): return [("Temperature", .number(temperature)), ("Tint", .number(tint))]
        case let .warmthTint(warmth, tint, face):
            return [("WarmTemp", .number(warmth)), ("WarmTint", .number(tint)), ("WarmFace", .number(face))]
        case let .neutralGray(y, i, q, warmth):
            return [("GrayY", .number(y)), ("GrayI", .number(i)), ("GrayQ", .number(q)), ("GrayWarmth", .number(warmth))]
        }
    }

    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport {
        if case .faceBalance = kind { return .strong }
        return .approximate
    }

    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> WhiteBalance { self }

    /// `colorType` is a name or, as in real macOS 10.15 files, a number (1 = faceBalance; other
    /// numbers are refused). nil when `isDefaults` is true, or when the settings change nothing
    /// (the face-balance kernel's identity — face strength 0 — or every gain
    /// within 10⁻⁴ of 1). Ranges: face I/Q ±1 and strength/warmth 0…1 (as `CIFaceBalance`),
    /// temperature 1667…25000 K (refused outside 500…100 000), tint ±150 (refused beyond ±1000),
    /// sliders ±1 (refused beyond ±3), grey Y 0…1, I/Q ±1; clamped inside, as
    /// `AAEAdjustment.rangedNumber` says.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> WhiteBalance? {
        let a = adjustment
        // An adjustment Photos marks as at its defaults is a no-op (aae-format.md §10).
        if a.settings["isDefaults"]?.flagValue == true { return nil }
        let colorType: String
        switch a.settings["colorType"] {
        case .number(let n)?:
            // Real macOS 10.15 files store the kind as a number: 1 is faceBalance [V]; no other
            // number has been seen, so any other is refused rather than guessed.
            guard let name = numberedColorTypes[n] else {
                throw .wrongSettingType(adjustment: a.identifier, key: "colorType",
                                        expected: "one of " + colorTypes.joined(separator: ", ") + " (or 1, faceBalance)",
                                        found: String(n.description.prefix(20)))
            }
            colorType = name
        default:
            colorType = try adjustment.string("colorType")
        }
        let value: WhiteBalance
        switch colorType {
        case "faceBalance":
            let face = FaceBalance(origI: try a.slider("faceI"), origQ: try a.slider("faceQ"),
                                   strength: try a.fraction("faceStrength", default: 0),
                                   warmth: try a.fraction("faceWarmth", default: 0))
            guard FaceBalanceKernel(face) != nil else { return nil }
            return WhiteBalance(.faceBalance(face))
        case "tempTint":
            guard try a.optionalNumber("temperature") != nil else {
                throw .missingSetting(adjustment: a.identifier, key: "temperature")
            }
            value = WhiteBalance(.temperatureTint(
                temperature: try a.rangedNumber("temperature", range: 1667...25_000, accepted: 500...100_000),
                tint: try a.rangedNumber("tint", range: -150...150, accepted: -1000...1000)))
        case "warmTint":
            value = WhiteBalance(.warmthTint(warmth: try a.slider("warmTemp"), tint: try a.slider("warmTint"),
                                             face: try a.slider("warmFace")))
        case "neutralGray":
            value = WhiteBalance(.neutralGray(y: try a.fraction("grayY", default: 0.5), i: try a.slider("grayI"),
                                              q: try a.slider("grayQ"), warmth: try a.slider("grayWarmth")))
        default:
            throw .wrongSettingType(adjustment: a.identifier, key: "colorType",
                                    expected: "one of " + colorTypes.joined(separator: ", "),
                                    found: AAEError.quoted(colorType))
        }
        guard let g = value.channelGains, [g.0, g.1, g.2].contains(where: { abs($0 - 1) > 1e-4 }) else { return nil }
        return value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        switch kind {
        case .faceBalance(let face):
            return .pixel(FaceBalanceKernel(face))
        case .temperatureTint, .warmthTint, .neutralGray:
            // Neutral settings are an exact no-op (the read returns nil for them too).
            guard let g = channelGains, [g.0, g.1, g.2].contains(where: { abs($0 - 1) > 1e-4 }) else { return .identity }
            let what: String
            switch kind {
            case .temperatureTint: what = "tempTint (approximation: von Kries gains from the Planckian locus)"
            case .warmthTint: what = "warmTint (approximation: von Kries gains from the Planckian locus; warmFace not rendered)"
            default: what = "neutralGray (approximation: neutral-grey gains from the YIQ grey point)"
            }
            return .pixel(ChannelGainKernel(gains: (Float(g.0), Float(g.1), Float(g.2)), space: options.workingSpace),
                              approximation: "WhiteBalance \(what)")
        }
    }
}

/// Multiplies linear light by one gain per channel.
private struct ChannelGainKernel: PixelKernel {
    let gains: (Float, Float, Float)
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        r = space.working(fromLinear: space.linear(r) * gains.0)
        g = space.working(fromLinear: space.linear(g) * gains.1)
        b = space.working(fromLinear: space.linear(b) * gains.2)
    }
}
