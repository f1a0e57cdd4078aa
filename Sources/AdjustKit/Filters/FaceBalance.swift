import Foundation

/// `CIFaceBalance`: the measured skin colour (YIQ `origI`, `origQ`), how strongly to move it to
/// the target, and the target's warmth (0 indoor, 1 outdoor).
package struct FaceBalance: Equatable, Sendable {
    /// `inputOrigI`, `inputOrigQ` (measured skin colour, YIQ), `inputStrength`, and `inputWarmth`
    /// (0 indoor target, 1 outdoor), as written in the `aas:FaceBalance…` properties.
    package var origI: Double, origQ: Double, strength: Double, warmth: Double
    /// Stores the four values as given.
    package init(origI: Double, origQ: Double, strength: Double, warmth: Double) {
        (self.origI, self.origQ, self.strength, self.warmth) = (origI, origQ, strength, warmth)
    }
}

extension FaceBalance: SingleAdjustmentXMPFilter, ColourFilter {
    package static let filterName = "CIFaceBalance"
    static let xmpPropertyNames = ["FaceBalanceOrigI", "FaceBalanceOrigQ", "FaceBalanceStrength", "FaceBalanceWarmth"]

    package var parameterValues: [(String, ParameterValue)] {
        [("OrigI", .number(origI)), ("OrigQ", .number(origQ)), ("Strength", .number(strength)), ("Warmth", .number(warmth))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .strong }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> FaceBalance { self }

    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> FaceBalance? {
        guard xmp.hasAll(xmpPropertyNames, of: filterName) else { return nil }
        let v = try xmp.numbers(xmpPropertyNames)
        return FaceBalance(origI: v[0], origQ: v[1], strength: v[2], warmth: v[3])
    }

    func write(to xmp: inout AdjustmentXMPWriter) {
        xmp.numbers(Self.xmpPropertyNames, [origI, origQ, strength, warmth])
    }

    func colourStage(options: ColourOptions) -> ColourStage { .pixel(FaceBalanceKernel(self)) }
}

/// CIFaceBalance, filters.md §4 [strong]: moves skin tones toward the indoor/outdoor target in YIQ.
struct FaceBalanceKernel: PixelKernel {
    let dI: Float, dQ: Float

    /// nil for the identity (|dI| < 0.001 and |dQ| < 0.001).
    init?(_ f: FaceBalance) {
        let targetI = (1 - f.warmth) * 0.005 + f.warmth * 0.105
        let targetQ = (1 - f.warmth) * 0.010 + f.warmth * -0.010
        let dI = f.strength * (targetI - f.origI), dQ = f.strength * (targetQ - f.origQ)
        guard abs(dI) >= 0.001 || abs(dQ) >= 0.001 else { return nil }
        (self.dI, self.dQ) = (Float(dI), Float(dQ))
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let vr = powf(max(r, 0), 0.25), vg = powf(max(g, 0), 0.25), vb = powf(max(b, 0), 0.25)
        let Y = 0.299 * vr + 0.587 * vg + 0.114 * vb
        let I = 0.595716 * vr - 0.274453 * vg - 0.321263 * vb
        let Q = 0.211456 * vr - 0.522591 * vg + 0.311135 * vb
        let weight = powf(min(1, 2 * (I * I + Q * Q).squareRoot()), 0.4)
        let I2 = I + dI * weight, Q2 = Q + dQ * weight
        let outR = Y + 0.956296 * I2 + 0.621024 * Q2
        let outG = Y - 0.272122 * I2 - 0.647381 * Q2
        let outB = Y - 1.10699 * I2 + 1.70461 * Q2
        func fourth(_ x: Float) -> Float { let y = max(x, 0); let y2 = y * y; return y2 * y2 }
        r = fourth(outR); g = fourth(outG); b = fourth(outB)
    }
}

extension EditChain {
    /// `CIFaceBalance`, applied to the stored image.
    package var faceBalance: FaceBalance? {
        get { self[FaceBalance.self] }
        set { self[FaceBalance.self] = newValue }
    }
}
