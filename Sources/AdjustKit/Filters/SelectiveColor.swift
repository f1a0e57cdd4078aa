/// A modern Photos `RKSelectiveColorOperation` adjustment, Selective Color
/// (docs/spec/aae-format.md §3, docs/spec/modern-adjustments.md §11). Support **approximate**:
/// Apple's hue ranges and falloffs are not published.
///
/// Settings: `corrections` (or `inputCorrections`, also under `inputKeys`), an array of objects,
/// each `red`, `green`, `blue` (0…1: the colour picked, sRGB-encoded), `hueShift` (±60 degrees),
/// `saturation` (±100), `luminance` (±70); a correction whose shifts are all 0, or whose picked
/// colour is grey (no hue), changes nothing. Per pixel, on its sRGB-encoded colour in HSL: each
/// correction weighs the pixel by w = (1 − smoothstep(15°, 45°, |hue − picked hue|)) ·
/// smoothstep(0.02, 0.2, chroma) — only the picked hue range, never greys — and the weighted
/// shifts add up: hue + Σw·hueShift, saturation · Π(1 + w·saturation/100), lightness +
/// Σw·luminance/200.
package struct SelectiveColor: Equatable, Sendable {
    package struct Correction: Equatable, Sendable {
        package var red: Double, green: Double, blue: Double
        package var hueShift: Double, saturation: Double, luminance: Double

        package init(red: Double, green: Double, blue: Double, hueShift: Double = 0, saturation: Double = 0,
                    luminance: Double = 0) {
            (self.red, self.green, self.blue) = (red, green, blue)
            (self.hueShift, self.saturation, self.luminance) = (hueShift, saturation, luminance)
        }

        var isIdentity: Bool {
            abs(hueShift) < 0.01 && abs(saturation) < 0.01 && abs(luminance) < 0.01
                || SelectiveColorKernel.hsl(Float(red), Float(green), Float(blue)).chroma < 0.02
        }
    }

    package var corrections: [Correction]

    package init(corrections: [Correction]) { self.corrections = corrections }
}

extension SelectiveColor: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "RKSelectiveColorOperation"
    static let aaeIdentifier = "RKSelectiveColorOperation"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Corrections", .list(corrections.map {
            [("Red", .number($0.red)), ("Green", .number($0.green)), ("Blue", .number($0.blue)),
             ("HueShift", .number($0.hueShift)), ("Saturation", .number($0.saturation)), ("Luminance", .number($0.luminance))]
        }))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> SelectiveColor { self }

    /// nil when no correction changes anything.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> SelectiveColor? {
        let a = try adjustment.flattening("inputKeys")
        let key = a.key("corrections", "inputCorrections")
        guard let value = a.settings[key] else { return nil }
        guard let items = value.arrayValue else {
            throw .wrongSettingType(adjustment: a.identifier, key: key, expected: "an array", found: value.typeName)
        }
        var corrections: [Correction] = []
        for (index, item) in items.prefix(64).enumerated() {
            guard let object = item.objectValue else {
                throw .wrongSettingType(adjustment: a.identifier, key: "\(key)[\(index)]", expected: "an object",
                                        found: item.typeName)
            }
            let c = AAEAdjustment(identifier: a.identifier, settings: object)
            corrections.append(Correction(
                red: try c.fraction("red", default: 0), green: try c.fraction("green", default: 0),
                blue: try c.fraction("blue", default: 0),
                hueShift: try c.rangedNumber("hueShift", range: -60...60, accepted: -180...180),
                saturation: try c.rangedNumber("saturation", range: -100...100, accepted: -300...300),
                luminance: try c.rangedNumber("luminance", range: -70...70, accepted: -300...300)))
        }
        let kept = corrections.filter { !$0.isIdentity }
        return kept.isEmpty ? nil : SelectiveColor(corrections: kept)
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        let kept = corrections.filter { !$0.isIdentity }
        guard !kept.isEmpty else { return .identity }
        return .pixel(SelectiveColorKernel(corrections: kept, space: options.workingSpace),
                          approximation: "RKSelectiveColorOperation (approximation: HSL shifts weighted by the distance "
                              + "from the picked hue)")
    }
}

struct SelectiveColorKernel: PixelKernel {
    struct Range: Sendable { let hue: Float, hueShift: Float, saturation: Float, luminance: Float }
    let ranges: [Range]
    let space: WorkingSpace

    init(corrections: [SelectiveColor.Correction], space: WorkingSpace) {
        ranges = corrections.map {
            Range(hue: Self.hsl(Float($0.red), Float($0.green), Float($0.blue)).h, hueShift: Float($0.hueShift),
                  saturation: Float($0.saturation) / 100, luminance: Float($0.luminance) / 200)
        }
        self.space = space
    }

    /// Hue in degrees (0…360), HSL saturation and lightness, and chroma (max − min).
    static func hsl(_ r: Float, _ g: Float, _ b: Float) -> (h: Float, s: Float, l: Float, chroma: Float) {
        let (hi, lo) = (max(r, g, b), min(r, g, b))
        let c = hi - lo, l = (hi + lo) / 2
        guard c > 1e-6 else { return (0, 0, l, 0) }
        var h: Float
        if hi == r { h = (g - b) / c } else if hi == g { h = (b - r) / c + 2 } else { h = (r - g) / c + 4 }
        h *= 60
        if h < 0 { h += 360 }
        let s = c / max(1e-6, 1 - abs(2 * l - 1))
        return (h, min(1, s), l, c)
    }

    static func rgb(h: Float, s: Float, l: Float) -> (Float, Float, Float) {
        let c = (1 - abs(2 * l - 1)) * s
        let hp = h / 60
        let x = c * (1 - abs(hp.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Float, Float, Float)
        switch hp {
        case ..<1: (r, g, b) = (c, x, 0)
        case ..<2: (r, g, b) = (x, c, 0)
        case ..<3: (r, g, b) = (0, c, x)
        case ..<4: (r, g, b) = (0, x, c)
        case ..<5: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        let m = l - c / 2
        return (r + m, g + m, b + m)
    }

    @inline(__always)
    static func smoothstep(_ a: Float, _ b: Float, _ x: Float) -> Float {
        let t = min(1, max(0, (x - a) / (b - a)))
        return t * t * (3 - 2 * t)
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let e = (min(1, max(0, space.encoded(r))), min(1, max(0, space.encoded(g))), min(1, max(0, space.encoded(b))))
        let pixel = Self.hsl(e.0, e.1, e.2)
        guard pixel.chroma >= 0.02 else { return }
        let chromaWeight = Self.smoothstep(0.02, 0.2, pixel.chroma)
        var (dh, k, dl, touched) = (Float(0), Float(1), Float(0), false)
        for range in ranges {
            var d = abs(pixel.h - range.hue)
            if d > 180 { d = 360 - d }
            let w = (1 - Self.smoothstep(15, 45, d)) * chromaWeight
            guard w > 0 else { continue }
            touched = true
            dh += w * range.hueShift; k *= 1 + w * range.saturation; dl += w * range.luminance
        }
        guard touched else { return }
        var h = (pixel.h + dh).truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        let out = Self.rgb(h: h, s: min(1, max(0, pixel.s * k)), l: min(1, max(0, pixel.l + dl)))
        r = space.working(fromEncoded: out.0); g = space.working(fromEncoded: out.1); b = space.working(fromEncoded: out.2)
    }
}
