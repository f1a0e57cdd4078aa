import Foundation

/// `CIHighlightShadowAdjust` (`aas:Shadows`, `aas:Highlights`). Stored as written; the renderer
/// clamps shadows to [−1, 1] and highlights to [0, 1]. `radius` is pixel-valued; XMP never
/// stores it (it stays 0).
package struct HighlightShadow: Equatable, Sendable {
    /// `inputShadowAmount` (`aas:Shadows`), as written; rendered clamped to [−1, 1].
    package var shadows: Double
    /// `inputHighlightAmount` (`aas:Highlights`), as written; rendered clamped to [0, 1].
    package var highlights: Double
    /// `inputRadius`, in pixels of the stored image (the rescaler scales it); 0 when read from XMP.
    package var radius: Double
    /// Stores the amounts unclamped; `radius` defaults to 0, as XMP never stores it.
    package init(shadows: Double, highlights: Double, radius: Double = 0) {
        (self.shadows, self.highlights, self.radius) = (shadows, highlights, radius)
    }
}

extension HighlightShadow: SingleAdjustmentXMPFilter, ColourFilter {
    package static let filterName = "CIHighlightShadowAdjust"
    static let xmpPropertyNames = ["Shadows", "Highlights"]

    package var parameterValues: [(String, ParameterValue)] {
        [("ShadowAmount", .number(shadows)), ("HighlightAmount", .number(highlights)), ("Radius", .number(radius))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .strong }
    /// The radius is a length in pixels: × √(sx·sy).
    package func rescaled(by factors: RescaleFactors) -> HighlightShadow {
        var copy = self
        copy.radius *= (factors.sx * factors.sy).squareRoot()
        return copy
    }

    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> HighlightShadow? {
        guard xmp.hasAll(xmpPropertyNames, of: filterName) else { return nil }
        let v = try xmp.numbers(xmpPropertyNames)
        return HighlightShadow(shadows: v[0], highlights: v[1])
    }

    /// iOS's writer omits the identity, |shadows| < 0.005 and highlights > 0.995.
    func write(to xmp: inout AdjustmentXMPWriter) {
        guard !(abs(shadows) < 0.005 && highlights > 0.995) else { return }
        xmp.numbers(Self.xmpPropertyNames, [shadows, highlights])
    }

    func colourStage(options: ColourOptions) -> ColourStage { .pixel(HighlightShadowKernel(self)) }
}

/// CIHighlightShadowAdjust, the iOS 7 kernel ("version 0", radius 0), filters.md §3 [strong].
struct HighlightShadowKernel: PixelKernel {
    let s: Float, h: Float
    let z: Float, gain: Float

    /// nil for the identity (−0.05 < shadows < 0.05 and highlights > 0.95).
    init?(_ adjust: HighlightShadow) {
        let s = min(1, max(-1, adjust.shadows)), h = min(1, max(0, adjust.highlights))
        guard !(s > -0.05 && s < 0.05 && h > 0.95) else { return nil }
        self.s = Float(s); self.h = Float(h)
        z = Float(min(1, max(0, 1 - pow(abs(s) / 0.3, 1.6))))
        gain = Float(1 / max(1.997 - 1 / (1 + exp(-6 * h)), 1))
    }

    @inline(__always) private static func smoothstep(_ t: Float) -> Float {
        let c = min(1, max(0, t)); return c * c * (3 - 2 * c)
    }

    @inline(__always) private static func signedPow(_ x: Float, _ base: Float, _ exponent: Float) -> Float {
        // sign(x)·(base·|x|)^exponent
        let magnitude = powf(base * abs(x), exponent)
        return x < 0 ? -magnitude : (x > 0 ? magnitude : 0)
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let P = (r, g, b)
        // 1. Shadow weight by hue, and the effective shadow amount t.
        let W = min(1, max(0, (max(P.0, 0) + 0.8 * max(P.1, 0) + 1.1 * max(P.2, 0)) / max(P.0 + P.1 + P.2, 0.001)))
        let t = s * powf(W, max(1 - s, 0))
        // 2. Skin weight (vibrance's, on P clamped to [0, 1]); black and white have no hue.
        let cr = min(1, max(0, P.0)), cg = min(1, max(0, P.1)), cb = min(1, max(0, P.2))
        let m = 0.33333 * (cr + cg + cb)
        var w: Float = 0.15
        if m > 0, m < 1 {
            let q = max(min(cr - cg, 2 * cg - cb), 0) * 4 * (1 - max((cr - m) / (1 - m), (m - cr) / m)) / m
            w = 0.7 * min(q, 1) + 0.15
        }
        // 3. Per-channel exponents, pulled toward the smallest on skin.
        let Er = powf(2, -t - P.0), Eg = powf(2, -t - P.1), Eb = powf(2, -t - P.2)
        let Emin = min(Er, Eg, Eb)
        func exponent(_ e: Float) -> Float { z + (1 - z) * ((1 - w) * e + w * Emin) }
        // 4. The shadow curve.
        let A = (Self.signedPow(P.0, 0.5, exponent(Er)) * 2, Self.signedPow(P.1, 0.5, exponent(Eg)) * 2,
                 Self.signedPow(P.2, 0.5, exponent(Eb)) * 2)
        // 5. Blend with the original by brightness.
        let rho = max(P.0, P.1, P.2, 0).squareRoot()
        let u = min(1, max(0, rho / (0.5 * t * t + 0.1)))
        let v = Self.smoothstep(u).squareRoot()
        let phi = (1 - v) * v
        let Sh = (A.0 * (1 - phi) + P.0 * phi, A.1 * (1 - phi) + P.1 * phi, A.2 * (1 - phi) + P.2 * phi)
        // 6. The highlight curve.
        var Hm = P
        if h <= 0.9999 {
            let mu = 1 - Self.smoothstep((rho - 0.2) / 0.6)
            let H = (Self.signedPow(P.0, gain, 2 - h), Self.signedPow(P.1, gain, 2 - h), Self.signedPow(P.2, gain, 2 - h))
            Hm = (H.0 * (1 - mu) + P.0 * mu, H.1 * (1 - mu) + P.1 * mu, H.2 * (1 - mu) + P.2 * mu)
        }
        // 7. Shadows in the dark, highlights in the light.
        let O = (Sh.0 * (1 - rho) + Hm.0 * rho, Sh.1 * (1 - rho) + Hm.1 * rho, Sh.2 * (1 - rho) + Hm.2 * rho)
        // 8. Contrast restoration.
        let lambda = 1 + 0.05 * abs(t)
        let L = 0.299 * O.0 + 0.587 * O.1 + 0.114 * O.2
        let MW = max(0.98 - 2.6 * L - 2.6 * L * L, 0.5965 - 6.25 * L - 6.25 * L * L, 1)
        let k = min(MW, 30 * rho * rho)
        r = O.0 * (1 - k) + (0.5 + lambda * (O.0 - 0.5)) * k
        g = O.1 * (1 - k) + (0.5 + lambda * (O.1 - 0.5)) * k
        b = O.2 * (1 - k) + (0.5 + lambda * (O.2 - 0.5)) * k
    }
}

extension EditChain {
    /// `CIHighlightShadowAdjust`, the last filter of the XMP path applied to the stored image.
    package var highlightShadow: HighlightShadow? {
        get { self[HighlightShadow.self] }
        set { self[HighlightShadow.self] = newValue }
    }
}
