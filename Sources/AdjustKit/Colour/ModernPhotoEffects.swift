/// The photo filters of Photos since iOS 13 / macOS 10.15, carried by name in a modern edit's
/// `Effect` or `Effect3D` adjustment (docs/spec/aae-format.md §3; docs/spec/modern-adjustments.md
/// §8). Approximate with the built-in tables (`ModernPhotoEffects`), as exact as the user's `.cube`
/// with `--effect-lut NAME=FILE`.
public enum ModernPhotoEffect: String, CaseIterable, Sendable {
    case vivid = "3DVivid", vividWarm = "3DVividWarm", vividCool = "3DVividCool"
    case dramatic = "3DDramatic", dramaticWarm = "3DDramaticWarm", dramaticCool = "3DDramaticCool"
    /// Silvertone in Photos' menu.
    case silverplate = "3DSilverplate"
    case noir = "3DNoir"

    /// The name as Photos writes it (`3DDramaticCool`), any case.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let effect = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
        self = effect
    }

    /// The effect's kernel: the user's table when `options` has one, else the built-in
    /// approximation, with a note saying so.
    func colourStage(options: ColourOptions) -> ColourStage {
        if let cube = options.modernEffectCubes[self] {
            return .pointwise(PhotoEffectKernel(cube: cube, space: options.workingSpace))
        }
        let how = self == .dramaticCool ? "built-in approximation fitted to one render"
                                        : "built-in approximation, not fitted to any render"
        return .pointwise(PhotoEffectKernel(cube: ModernPhotoEffects.cube(for: self), space: options.workingSpace),
                          approximation: "Effect \(rawValue) (\(how); --effect-lut gives the exact table)")
    }
}

/// Built-in stand-ins for the modern filters, each a function of sRGB-encoded (r, g, b) sampled
/// on a 33³ grid once (as `BuiltInPhotoEffects`).
///
/// All are built on one frame, that of `3DDramaticCool`'s fitted form (modern-colour.md §6):
/// per-channel tone curves, then a 3 × 3 mix, in the sRGB-gamma domain. `3DDramaticCool` is that
/// compact form itself [V: 34.5 dB on its render in the spec; fitted]: M = [[1.043, 0.044, 0.026],
/// [0.029, 0.988, 0.075], [0.022, 0.368, 0.731]], the curves through knots at 0, 32, …, 224, 255
/// (natural cubic spline): c_G and c_B as the spec gives them; c_R, which the spec leaves open,
/// solved from its grey examples (64 → 28, 96 → 61, 192 → 196) and from black → 0 and white → 255
/// through M's first row, in between following c_G's shape [I].
///
/// The others have no render to fit (modern-colour.md §6): built from three ingredients with
/// constants chosen by eye and documented here, **unfitted**: a contrast S-curve (k of
/// `BuiltInPhotoEffects.sCurve`), a saturation factor about Rec. 601 luma, and a split-tone — a
/// colour added to the shadows, weighted (1 − v)², and one to the highlights, weighted v²:
/// - Vivid: k 0.15, saturation ×1.30; VividWarm: the same, shadows (+0.010, 0, −0.015), highlights
///   (+0.030, +0.005, −0.035); VividCool: the same, shadows (−0.015, 0, +0.020), highlights
///   (−0.030, 0, +0.030);
/// - Dramatic: k 0.35, mid-tones lowered (lift −0.12), saturation ×0.80; DramaticWarm: the same,
///   shadows (+0.030, +0.005, −0.030), highlights (+0.040, +0.010, −0.030);
/// - Silverplate (Silvertone): grey from Rec. 601 luma, k 0.25, a cool silver tone (shadows
///   (−0.010, 0, +0.015), highlights (−0.005, 0, +0.010));
/// - Noir: grey from Rec. 601 luma, k 0.6, shadows below 0.05 crushed.
public enum ModernPhotoEffects {
    public static func cube(for effect: ModernPhotoEffect) -> ColourCube { cubes[effect]! }

    private static let cubes: [ModernPhotoEffect: ColourCube] = Dictionary(
        uniqueKeysWithValues: ModernPhotoEffect.allCases.map { ($0, BuiltInPhotoEffects.build(function(for: $0))) })

    /// One line: what the approximation does.
    public static func summary(of effect: ModernPhotoEffect) -> String {
        switch effect {
        case .dramaticCool: return "fitted compact form: per-channel curves and a 3 × 3 mix (modern-colour.md §6)"
        case .vivid, .vividWarm, .vividCool: return "unfitted: more contrast, saturation ×1.3, a split-tone for Warm/Cool"
        case .dramatic, .dramaticWarm: return "unfitted: strong contrast, darker mid-tones, saturation ×0.8"
        case .silverplate: return "unfitted: B&W with contrast and a cool silver tone"
        case .noir: return "unfitted: high-contrast B&W"
        }
    }

    static func function(for effect: ModernPhotoEffect) -> BuiltInPhotoEffects.Effect {
        typealias Tint = (Float, Float, Float)
        let none: Tint = (0, 0, 0)
        switch effect {
        case .dramaticCool: return dramaticCool
        case .vivid: return colour(contrast: 0.15, lift: 0, saturation: 1.3, shadows: none, highlights: none)
        case .vividWarm:
            return colour(contrast: 0.15, lift: 0, saturation: 1.3, shadows: (0.010, 0, -0.015), highlights: (0.030, 0.005, -0.035))
        case .vividCool:
            return colour(contrast: 0.15, lift: 0, saturation: 1.3, shadows: (-0.015, 0, 0.020), highlights: (-0.030, 0, 0.030))
        case .dramatic: return colour(contrast: 0.35, lift: -0.12, saturation: 0.8, shadows: none, highlights: none)
        case .dramaticWarm:
            return colour(contrast: 0.35, lift: -0.12, saturation: 0.8, shadows: (0.030, 0.005, -0.030),
                          highlights: (0.040, 0.010, -0.030))
        case .silverplate:
            return { r, g, b in
                let v = BuiltInPhotoEffects.sCurve(BuiltInPhotoEffects.luma601(r, g, b), 0.25)
                return splitTone(v, v, v, shadows: (-0.010, 0, 0.015), highlights: (-0.005, 0, 0.010))
            }
        case .noir:
            return { r, g, b in
                let y = BuiltInPhotoEffects.luma601(r, g, b)
                let v = BuiltInPhotoEffects.sCurve(BuiltInPhotoEffects.clamp01((y - 0.05) / 0.95), 0.6)
                return (v, v, v)
            }
        }
    }

    /// Contrast, a mid-tone lift, saturation, then the split-tone; encoded values.
    private static func colour(contrast: Float, lift: Float, saturation: Float, shadows: (Float, Float, Float),
                               highlights: (Float, Float, Float)) -> BuiltInPhotoEffects.Effect {
        { r, g, b in
            func tone(_ x: Float) -> Float { BuiltInPhotoEffects.lift(BuiltInPhotoEffects.sCurve(x, contrast), lift) }
            let s = BuiltInPhotoEffects.saturate(tone(r), tone(g), tone(b), by: saturation)
            return splitTone(s.0, s.1, s.2, shadows: shadows, highlights: highlights)
        }
    }

    private static func splitTone(_ r: Float, _ g: Float, _ b: Float, shadows: (Float, Float, Float),
                                  highlights: (Float, Float, Float)) -> (Float, Float, Float) {
        let v = BuiltInPhotoEffects.luma601(r, g, b), low = (1 - v) * (1 - v), high = v * v
        return (BuiltInPhotoEffects.clamp01(r + low * shadows.0 + high * highlights.0),
                BuiltInPhotoEffects.clamp01(g + low * shadows.1 + high * highlights.1),
                BuiltInPhotoEffects.clamp01(b + low * shadows.2 + high * highlights.2))
    }

    // MARK: 3DDramaticCool (modern-colour.md §6)

    /// Knot positions, in codes.
    static let knotCodes: [Double] = [0, 32, 64, 96, 128, 160, 192, 224, 255]
    static let dramaticCoolRed: [Double] = [-1, 7, 23.5, 53, 96, 140, 175.7, 203, 229.6]
    static let dramaticCoolGreen: [Double] = [-3, 15, 41, 77, 117, 155, 183, 204, 225]
    static let dramaticCoolBlue: [Double] = [34, 42, 66, 93, 125, 156, 180, 204, 217]
    static let dramaticCoolMix: [[Float]] = [[1.043, 0.044, 0.026], [0.029, 0.988, 0.075], [0.022, 0.368, 0.731]]

    private static let dramaticCoolCurves: [NaturalCubicSpline] = [dramaticCoolRed, dramaticCoolGreen, dramaticCoolBlue].map {
        NaturalCubicSpline(points: zip(knotCodes, $0).map { Point(x: $0 / 255, y: $1 / 255) })
    }

    static func dramaticCool(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let c = [Float(dramaticCoolCurves[0].value(at: Double(r))), Float(dramaticCoolCurves[1].value(at: Double(g))),
                 Float(dramaticCoolCurves[2].value(at: Double(b)))]
        let m = dramaticCoolMix
        func row(_ i: Int) -> Float { BuiltInPhotoEffects.clamp01(m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2]) }
        return (row(0), row(1), row(2))
    }
}
