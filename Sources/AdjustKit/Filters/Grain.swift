/// A modern Photos `Grain` adjustment (docs/spec/aae-format.md §3, docs/spec/modern-adjustments.md
/// §10). Support **approximate**: film grain as value noise, deterministic.
///
/// Settings (Photos' schema names, also `input`-prefixed and under `inputKeys`): `amount` (0…1,
/// default 0: nothing), `iso` (10…3200, default 800), `seed` (0…1, default 0). The noise is a
/// field over the *stored* image: a lattice of cells c = 1 + iso/800 stored pixels wide, each
/// lattice point given a value in −1…1 by a hash of its integer coordinates and the seed,
/// interpolated with smoothstep weights between the four points around a pixel's centre (and
/// divided by the weights' norm, so that every pixel has the lattice's spread). A
/// reduced decode samples the same field (the cell is rescaled with the decode), so the same photo
/// and edit give the same grain at any scale; nothing random is drawn. The lightness (L = √Y of
/// linear light) moves by 0.12·amount·√(iso/800)·n·4L(1 − L) + a floor of a quarter of that in
/// the shadows and highlights; the chromaticity is kept.
package struct Grain: Equatable, Sendable {
    package var amount: Double, iso: Double, seed: Double
    /// c, the lattice cell in the chain's frame (stored pixels, decoded ones once rescaled).
    package var cell: Double

    package init(amount: Double, iso: Double = 800, seed: Double = 0, cell: Double? = nil) {
        (self.amount, self.iso, self.seed) = (amount, iso, seed)
        self.cell = cell ?? 1 + min(3200, max(10, iso)) / 800
    }

    fileprivate var isIdentity: Bool { amount < 0.001 }
}

extension Grain: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "Grain"
    static let aaeIdentifier = "Grain"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Amount", .number(amount)), ("ISO", .number(iso)), ("Seed", .number(seed)), ("Cell", .number(cell))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// The cell is in pixels: it scales with the decode, so that the field stays the stored image's.
    package func rescaled(by factors: RescaleFactors) -> Grain {
        Grain(amount: amount, iso: iso, seed: seed, cell: cell * factors.sx)
    }

    /// nil when the amount is below 0.001.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Grain? {
        let a = try adjustment.flattening("inputKeys")
        let value = Grain(amount: try a.rangedNumber(a.key("amount", "inputAmount"), range: 0...1, accepted: -1...2),
                          iso: try a.rangedNumber(a.key("iso", "inputISO"), default: 800, range: 10...3200,
                                                  accepted: 0...25600),
                          seed: try a.rangedNumber(a.key("seed", "inputSeed"), range: 0...1, accepted: -1e9...1e9))
        return value.isIdentity ? nil : value
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        let strength = 0.12 * min(1, amount) * (min(3200, max(10, iso)) / 800).squareRoot()
        let kernel = GrainKernel(cell: Float(max(1e-3, cell)), strength: Float(strength),
                                 seed: UInt32(truncatingIfNeeded: Int64((seed * 4_294_967_295).rounded())),
                                 space: options.workingSpace)
        return ColourStage(kernel: kernel,
                           approximation: "Grain (approximation: deterministic value noise on lightness)")
    }
}

struct GrainKernel: StoredPositionalKernel {
    let cell: Float, strength: Float
    let seed: UInt32
    let space: WorkingSpace

    /// A value in −1…1 for lattice point (i, j) (lowbias32 of the coordinates and the seed).
    @inline(__always)
    func lattice(_ i: Int32, _ j: Int32) -> Float {
        var h = UInt32(bitPattern: i) &* 0x8DA6_B343 ^ UInt32(bitPattern: j) &* 0xD816_3841 ^ seed &* 0xCB1A_B31F
        h ^= h >> 16; h &*= 0x7FEB_352D; h ^= h >> 15; h &*= 0x846C_A68B; h ^= h >> 16
        return Float(h >> 8) * (2 / 16_777_215) - 1
    }

    /// The field at (x, y) in decoded pixels (centres at +½).
    @inline(__always)
    func noise(x: Float, y: Float) -> Float {
        let (gx, gy) = (x / cell, y / cell)
        let (fx0, fy0) = (gx.rounded(.down), gy.rounded(.down))
        let (i, j) = (Int32(fx0), Int32(fy0))
        var (fx, fy) = (gx - fx0, gy - fy0)
        fx = fx * fx * (3 - 2 * fx); fy = fy * fy * (3 - 2 * fy)
        let top = lattice(i, j) + (lattice(i + 1, j) - lattice(i, j)) * fx
        let bottom = lattice(i, j + 1) + (lattice(i + 1, j + 1) - lattice(i, j + 1)) * fx
        // Interpolating independent values lowers their spread between lattice points (to half at
        // a cell's centre): divided by the interpolation weights' norm, every pixel's value has the
        // lattice's spread wherever it falls — so a decode whose pixel centres fall elsewhere in
        // the cells (another scale) has the same grain strength.
        let norm = ((1 - fx) * (1 - fx) + fx * fx) * ((1 - fy) * (1 - fy) + fy * fy)
        return (top + (bottom - top) * fy) / norm.squareRoot()
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float, u: Float, v: Float) {
        // Only `apply(row:…)` is used by the renderers; this form takes the stored image as 1×1.
        var p = [r, g, b]
        p.withUnsafeMutableBufferPointer { grainPixel($0.baseAddress!, x: u, y: v) }
        (r, g, b) = (p[0], p[1], p[2])
    }

    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        var p = row
        let fy = Float(y) + 0.5
        for x in x0..<(x0 + count) {
            grainPixel(p, x: Float(x) + 0.5, y: fy)
            p += 3
        }
    }

    @inline(__always)
    private func grainPixel(_ p: UnsafeMutablePointer<Float>, x: Float, y: Float) {
        let l = LumaFixedPoint.lightness(p[0], p[1], p[2], space: space)
        let c = min(1, max(0, l))
        let weight = 0.25 + 3 * c * (1 - c)
        let new = l + strength * weight * noise(x: x, y: y)
        LumaFixedPoint.relight(p, from: l, to: new, space: space)
    }
}
