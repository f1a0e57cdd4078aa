/// `CIVibrance` (`aas:Vibrance`). `amount` is stored as written; the renderer clamps it to
/// [−1, 1] (filters.md §1).
package struct Vibrance: Equatable, Sendable {
    /// `inputAmount` (`aas:Vibrance`), as written; rendered clamped to [−1, 1].
    package var amount: Double
    /// Stores `amount` unclamped.
    package init(amount: Double) { self.amount = amount }
}

extension Vibrance: SingleAdjustmentXMPFilter, ColourFilter {
    package static let filterName = "CIVibrance"
    static let xmpPropertyNames = ["Vibrance"]

    package var parameterValues: [(String, ParameterValue)] { [("Amount", .number(amount))] }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .exact }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> Vibrance { self }

    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> Vibrance? {
        guard xmp.hasAll(xmpPropertyNames, of: filterName) else { return nil }
        return Vibrance(amount: try xmp.numbers(xmpPropertyNames)[0])
    }

    /// iOS's writer omits the identity, |amount| ≤ 0.001.
    func write(to xmp: inout AdjustmentXMPWriter) {
        if abs(amount) > 0.001 { xmp.numbers(Self.xmpPropertyNames, [amount]) }
    }

    func colourStage(options: ColourOptions) -> ColourStage { .pixel(VibranceKernel(self)) }
}

/// CIVibrance, filters.md §1 [exact].
struct VibranceKernel: PixelKernel {
    let a: Float

    /// nil for the identity (|a| ≤ 0.001 after clamping).
    init?(_ vibrance: Vibrance) {
        let a = min(1, max(-1, vibrance.amount))
        guard abs(a) > 0.001 else { return nil }
        self.a = Float(a)
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let cr = min(0.9999, max(1e-4, r)), cg = min(0.9999, max(1e-4, g)), cb = min(0.9999, max(1e-4, b))
        let m = 0.33333 * (cr + cg + cb)   // 0.33333, not 1/3: the spec's constant
        func saturation(_ c: Float) -> Float { max((c - m) / (1 - m), (m - c) / m) }
        let sr = saturation(cr)
        let S = max(sr, saturation(cg), saturation(cb))
        let q = min(1, max(0, (1 - sr) * 4 * min(cr - cg, 2 * cg - cb) / m))
        let w = 0.7 * q + 0.15
        let k: Float
        if a >= 0 {
            let p0 = 3 * a, p1 = -1.5 * a - 4.5 * a * a
            let p2 = -0.5 * a + 4.5 * a * a * a, p3 = 4.5 * a * a - 4.5 * a * a * a - a
            k = (1 - w) * (p0 + S * (p1 + S * (p2 + S * p3)))
        } else {
            k = (S * S - S + 1) * a * (1 - w)
        }
        r = (r - cr) + min(1, max(0, cr + (cr - m) * k))
        g = (g - cg) + min(1, max(0, cg + (cg - m) * k))
        b = (b - cb) + min(1, max(0, cb + (cb - m) * k))
    }
}

extension EditChain {
    /// `CIVibrance`, applied to the stored image.
    package var vibrance: Vibrance? {
        get { self[Vibrance.self] }
        set { self[Vibrance.self] = newValue }
    }
}
