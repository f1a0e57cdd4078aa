/// The photo filters of Photos since iOS 13 / macOS 10.15, carried by name in a modern edit's
/// `Effect` or `Effect3D` adjustment (docs/spec/aae-format.md §3; docs/spec/modern-adjustments.md
/// §8). Approximate with the built-in tables (`ModernPhotoEffects`), as exact as the user's `.cube`
/// with `--effect-lut NAME=FILE`.
package enum ModernPhotoEffect: String, CaseIterable, Sendable {
    case vivid = "3DVivid", vividWarm = "3DVividWarm", vividCool = "3DVividCool"
    case dramatic = "3DDramatic", dramaticWarm = "3DDramaticWarm", dramaticCool = "3DDramaticCool"
    /// Silvertone in Photos' menu.
    case silverplate = "3DSilverplate"
    case noir = "3DNoir"

    /// The name as Photos writes it (`3DDramaticCool`), any case.
    package init?(name: String) {
        let lowered = name.lowercased()
        guard let effect = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
        self = effect
    }

    /// The effect's kernel: the user's table when `options` has one, else the built-in
    /// approximation, with a note saying so.
    func colourStage(options: ColourOptions) -> ColourStage {
        if let cube = options.modernEffectCubes[self] {
            return .pixel(PhotoEffectKernel(cube: cube, space: options.workingSpace))
        }
        let how = self == .dramaticCool ? "built-in approximation fitted to one render"
                                        : "built-in approximation, not fitted to any render"
        return .pixel(PhotoEffectKernel(cube: ModernPhotoEffects.cube(for: self), space: options.workingSpace),
                          approximation: "Effect \(rawValue) (\(how); --effect-lut gives the exact table)")
    }
}

/// Built-in stand-ins for the modern filters, each a function of sRGB-encoded (r, g, b) sampled
/// on a 33³ grid once (as `BuiltInPhotoEffects`).
///
/// All are built on one frame (docs/spec/modern-adjustments.md §8), on sRGB-encoded values e in
/// 0…255: Y = 0.299R + 0.587G + 0.114B, d = e − Y·(1, 1, 1),
/// **out_k = T_k(Y) + s(Y)·(Mc·d)_k**, clamped to 0…255, T_k and s piecewise-linear through knots
/// at Y = 0, 32, 64, …, 224, 255. T_k is what a neutral grey becomes (contrast and split-tone live
/// on the neutral axis); Mc and s are the chroma treatment. The intensity then dissolves as
/// `EffectIntensityDissolve` does.
///
/// `3DDramaticCool` [fitted on 6191423D's render, half scale, with the render's neutrals as
/// anchors: 45 numbers, below]. The others have no render to fit and are **unfitted**: Mc = I
/// (plain chroma), s constant, T_k = S-curve + split-tone, S-curve(Y) = 255·(t + k·t(1 − t)(2t − 1)),
/// t = Y/255, split-tone + v_k·4t(1 − t) (8-bit units, full at mid-grey), both taken at the knots:
/// - Vivid k 0.30, s 1.30; VividWarm the same with v (+8, +2, −10); VividCool v (−8, 0, +10);
/// - Dramatic k 0.45, s 0.75; DramaticWarm the same with v (+8, +2, −10);
/// - Silverplate (Silvertone) k 0.30, s 0 (grey), v (+3, +1, −3); Noir k 0.70, s 0.
package enum ModernPhotoEffects {
    package static func cube(for effect: ModernPhotoEffect) -> ColourCube { cubes[effect]! }

    private static let cubes: [ModernPhotoEffect: ColourCube] = Dictionary(
        uniqueKeysWithValues: ModernPhotoEffect.allCases.map { ($0, BuiltInPhotoEffects.build(function(for: $0))) })

    /// One line: what the approximation does.
    package static func summary(of effect: ModernPhotoEffect) -> String {
        switch effect {
        case .dramaticCool: return "fitted: neutral-axis curves and a luma-dependent chroma matrix (modern-adjustments.md §8)"
        case .vivid, .vividWarm, .vividCool: return "unfitted: contrast, saturation ×1.3, a split-tone for Warm/Cool"
        case .dramatic, .dramaticWarm: return "unfitted: strong contrast, saturation ×0.75"
        case .silverplate: return "unfitted: B&W with contrast and a silver tone"
        case .noir: return "unfitted: high-contrast B&W"
        }
    }

    /// The frame's 45 numbers: T_R, T_G, T_B and s at the knots, and Mc.
    struct Frame: Sendable {
        var curves: [[Float]]
        var mix: [[Float]]
        var saturation: [Float]

        /// The unfitted effects: an S-curve of contrast `k`, a split-tone `tint` at mid-grey, chroma × `saturation`.
        init(contrast k: Float, saturation: Float, tint: (Float, Float, Float)) {
            let t = ModernPhotoEffects.knots.map { $0 / 255 }
            let curve = t.map { 255 * ($0 + k * $0 * (1 - $0) * (2 * $0 - 1)) }
            let bell = t.map { 4 * $0 * (1 - $0) }
            curves = [tint.0, tint.1, tint.2].map { v in zip(curve, bell).map { $0 + v * $1 } }
            mix = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
            self.saturation = [Float](repeating: saturation, count: ModernPhotoEffects.knots.count)
        }

        init(curves: [[Float]], mix: [[Float]], saturation: [Float]) {
            (self.curves, self.mix, self.saturation) = (curves, mix, saturation)
        }

        /// sRGB-encoded 0…1 in and out.
        func callAsFunction(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
            let e = (r * 255, g * 255, b * 255)
            let y = 0.299 * e.0 + 0.587 * e.1 + 0.114 * e.2
            let d = (e.0 - y, e.1 - y, e.2 - y)
            let (i, f) = ModernPhotoEffects.segment(y)
            @inline(__always) func at(_ v: [Float]) -> Float { v[i] + f * (v[i + 1] - v[i]) }
            let s = at(saturation)
            func channel(_ k: Int) -> Float {
                let m = mix[k]
                return min(255, max(0, at(curves[k]) + s * (m[0] * d.0 + m[1] * d.1 + m[2] * d.2))) / 255
            }
            return (channel(0), channel(1), channel(2))
        }
    }

    /// Knot positions, in codes.
    static let knots: [Float] = [0, 32, 64, 96, 128, 160, 192, 224, 255]

    /// The knot segment of y (0…255) and the fraction along it.
    @inline(__always)
    static func segment(_ y: Float) -> (Int, Float) {
        let c = min(255, max(0, y))
        let i = min(knots.count - 2, max(0, Int(c / 32)))
        return (i, (c - knots[i]) / (knots[i + 1] - knots[i]))
    }

    static func frame(for effect: ModernPhotoEffect) -> Frame {
        switch effect {
        case .dramaticCool: return dramaticCool
        case .vivid: return Frame(contrast: 0.30, saturation: 1.30, tint: (0, 0, 0))
        case .vividWarm: return Frame(contrast: 0.30, saturation: 1.30, tint: (8, 2, -10))
        case .vividCool: return Frame(contrast: 0.30, saturation: 1.30, tint: (-8, 0, 10))
        case .dramatic: return Frame(contrast: 0.45, saturation: 0.75, tint: (0, 0, 0))
        case .dramaticWarm: return Frame(contrast: 0.45, saturation: 0.75, tint: (8, 2, -10))
        case .silverplate: return Frame(contrast: 0.30, saturation: 0, tint: (3, 1, -3))
        case .noir: return Frame(contrast: 0.70, saturation: 0, tint: (0, 0, 0))
        }
    }

    static func function(for effect: ModernPhotoEffect) -> BuiltInPhotoEffects.Effect {
        let f = frame(for: effect)
        return { r, g, b in f(r, g, b) }
    }

    /// 3DDramaticCool [fitted on 6191423D: 34.4 dB at research, full resolution]: the neutral
    /// axis (grey 64 → (30.8, 47.1, 68.3), the render's neutrals (30, 47, 67)), the chroma matrix
    /// (rows sum to 0 on luma; trace/3 = 1) and its luma-dependent strength.
    static let dramaticCool = Frame(
        curves: [[1.1165621913, 13.4861898333, 30.8027763769, 50.2952792472, 112.6641400192, 158.3616103879,
                  194.7791168938, 222.8251886057, 246.9106628657],
                 [2.9640911668, 21.4991474171, 47.0963807443, 85.0691261525, 129.5807141207, 167.9836168413,
                  198.7973984791, 224.3092946935, 243.213386373],
                 [16.6652394992, 37.27863922, 68.3003878331, 111.0162971196, 141.8813246561, 172.5873501363,
                  203.1512637851, 228.0029128192, 248.0155555342]],
        mix: [[1.4089824407, -1.2269813146, -0.182001126], [-0.5948677744, 0.7300638563, -0.1351960819],
              [-0.5986171732, -0.2623365298, 0.860953703]],
        saturation: [0.177769407, 0.3897973894, 0.5036725989, 0.6683495874, 0.5354467066, 0.4965152833,
                     0.4174505975, 0.3723677772, 0.3148434708])
}
