/// The geometry (geometry.md §1): output pixel centres mapped by T⁻¹ into the source, bilinear
/// with texel centres at integer + ½, transparent outside the source (interpolated
/// premultiplied), alpha × the crop's coverage of the output pixel; then the output-frame colour
/// kernels, per-colour then position-dependent (a vignette, which gets the pixel's centre in the
/// sampling grid). One row of the sampling grid at a time, from the source rows in a
/// `SourceRowWindow`.
///
/// Positions are computed in Double (they must stay exact to a small fraction of a pixel on any
/// photo); weights and colours in Float. An integer translation lands exactly on texel centres:
/// the weights are then exactly 1 and 0 and pixels are copied exactly.
struct OutputRowSampler: Sendable {
    let plan: RenderPlan
    let inverse: AffineMap
    let centreX: [Double], centreY: [Double]
    let coverageX: [Double], coverageY: [Double]
    let outputKernels: [any PixelKernel]
    /// Run after `outputKernels`, on pixels of the sampling grid.
    let positionalKernels: [any PositionalKernel]
    /// T⁻¹ is a translation and the grid's columns are one decoded pixel apart: every pixel of
    /// a row then has the same bilinear weights (the row pitch does not matter).
    let isUnitTranslation: Bool
    /// The columns whose coverage is exactly 1 (all but a fractional crop's edge columns): in a
    /// row of full coverage their samples with all four taps inside are opaque, alpha exactly 1.
    let fullCoverageColumns: Range<Int>

    init(plan: RenderPlan, outputKernels: [any PixelKernel], positionalKernels: [any PositionalKernel] = []) {
        let grid = plan.samplingGrid
        guard let inverse = plan.transform.inverted else { preconditionFailure("the planner rejects singular transforms") }
        let (pw, ph) = (grid.pixelWidth, grid.pixelHeight)
        self.plan = plan
        self.inverse = inverse
        centreX = (0..<grid.size.width).map { grid.extent.minX + (Double($0) + 0.5) * pw }
        centreY = (0..<grid.size.height).map { grid.extent.maxY - (Double($0) + 0.5) * ph }
        coverageX = Self.coverage(centres: centreX, pitch: pw, keptFrom: plan.cropRect?.minX, to: plan.cropRect?.maxX)
        coverageY = Self.coverage(centres: centreY, pitch: ph, keptFrom: plan.cropRect?.minY, to: plan.cropRect?.maxY)
        (self.outputKernels, self.positionalKernels) = (outputKernels, positionalKernels)
        isUnitTranslation = pw == 1 && inverse.a == 1 && inverse.b == 0 && inverse.c == 0 && inverse.d == 1
        // Coverage falls below 1 only towards the edges, so the full columns are one range.
        let first = coverageX.firstIndex(of: 1) ?? 0
        fullCoverageColumns = first..<(coverageX[first...].firstIndex { $0 != 1 } ?? coverageX.count)
    }

    var columns: Int { centreX.count }
    var rows: Int { centreY.count }

    /// Source row v (decoded raster, top-left) of output pixel column i in row j, as a Double.
    @inline(__always)
    private func sourceV(_ i: Int, _ j: Int) -> Double {
        Double(plan.decodedSize.height) - (inverse.b * centreX[i] + inverse.d * centreY[j] + inverse.ty)
    }

    /// The decoded rows grid row j reads (bilinear taps), clamped to the image; nil when none.
    func sourceRows(ofRow j: Int) -> ClosedRange<Int>? {
        let (a, b) = (sourceV(0, j), sourceV(columns - 1, j))
        let lo = (min(a, b) - 0.5).rounded(.down), hi = (max(a, b) - 0.5).rounded(.down) + 1
        let height = Double(plan.decodedSize.height)
        guard hi >= 0, lo < height, lo.isFinite, hi.isFinite else { return nil }
        return Int(max(lo, 0))...Int(min(hi, height - 1))
    }

    /// True when every output pixel lands exactly on one texel centre with unit steps (an integer
    /// translation at the decode's own pitch): `pixelCopyOffset` then maps grid to decode.
    var pixelCopyOffset: (dx: Int, dy: Int)? {
        let grid = plan.samplingGrid
        guard grid.pixelWidth == 1, grid.pixelHeight == 1, inverse.a == 1, inverse.b == 0, inverse.c == 0,
              inverse.d == 1 else { return nil }
        let dx = grid.extent.minX + inverse.tx
        let dy = Double(plan.decodedSize.height) - grid.extent.maxY - inverse.ty
        guard dx.rounded() == dx, dy.rounded() == dy, abs(dx) < 1e9, abs(dy) < 1e9,
              grid.extent.minX.rounded() == grid.extent.minX, grid.extent.maxY.rounded() == grid.extent.maxY else {
            return nil
        }
        return (Int(dx), Int(dy))
    }

    /// Bilinear samples of grid row j as unpremultiplied working-space RGBA (alpha = coverage),
    /// output-frame kernels (per-colour, then positional) applied, into `out` (4 floats a pixel).
    /// `window` holds the decoded columns starting at `columnOffset`; `texels` turns one of its
    /// pixels into working-space RGB.
    ///
    /// The row is three runs of columns: those before and after the interior run are sampled one
    /// by one at their own positions (`GridRowSampling.sampleEach`); the interior run of a
    /// translation at the decode's pitch shares one set of weights (`GridRowSampling.sample(_:)`).
    ///
    /// With `opaqueBytes`, one run of opaque columns (alpha exactly 1, no kernel after) goes
    /// straight to its RGBA8 row instead of `out`: the caller quantizes the rest. Returns that
    /// run (empty without `opaqueBytes`).
    @discardableResult
    func sampleRow<Texels: TexelReader>(_ j: Int, window: SourceRowWindow<Texels.Element>,
                                        columnOffset: Int, texels: Texels, into out: UnsafeMutablePointer<Float>,
                                        opaqueBytes: OpaqueByteRow? = nil) -> Range<Int> {
        centreX.withUnsafeBufferPointer { centreX in
            coverageX.withUnsafeBufferPointer { coverageX in
                let row = GridRowSampling(self, row: j, window: window, columnOffset: columnOffset, texels: texels,
                                          centreX: centreX, coverageX: coverageX, out: out)
                guard let run = row.unitTranslationRun() else { return row.sampleEach(0..<centreX.count, opaqueBytes) }
                row.sampleEach(0..<run.columns.lowerBound, nil)
                let direct = row.sample(run, opaqueBytes)
                row.sampleEach(run.columns.upperBound..<centreX.count, nil)
                return direct
            }
        }
    }

    /// The four taps' weighted sum (all inside the window), in the reference order.
    @inline(__always)
    static func blend<Texels: TexelReader>(_ p0: UnsafeMutablePointer<Texels.Element>,
                                                       _ p1: UnsafeMutablePointer<Texels.Element>,
                                                       _ w00: Float, _ w10: Float, _ w01: Float, _ w11: Float,
                                                       texels: Texels) -> (Float, Float, Float) {
        let (c00, c10, c01, c11) = (texels.working(p0), texels.working(p0 + 3), texels.working(p1), texels.working(p1 + 3))
        return weightedSum(c00, c10, c01, c11, w00, w10, w01, w11)
    }

    /// The four taps' colours weighted, in the reference order (the one sum every interior
    /// sample takes, `InteriorTaps` too).
    @inline(__always)
    static func weightedSum(_ c00: (Float, Float, Float), _ c10: (Float, Float, Float), _ c01: (Float, Float, Float),
                            _ c11: (Float, Float, Float), _ w00: Float, _ w10: Float, _ w01: Float,
                            _ w11: Float) -> (Float, Float, Float) {
        (w00 * c00.0 + w10 * c10.0 + w01 * c01.0 + w11 * c11.0,
         w00 * c00.1 + w10 * c10.1 + w01 * c01.1 + w11 * c11.1,
         w00 * c00.2 + w10 * c10.2 + w01 * c01.2 + w11 * c11.2)
    }

    /// ⌊x⌋ without a libm call (this runs twice a sample); huge values take the slow path.
    @inline(__always)
    static func floor(_ x: Double) -> Double {
        guard abs(x) < 1e15 else { return x.rounded(.down) }
        let t = Double(Int(x))
        return t > x ? t - 1 : t
    }

    /// The fraction of each output pixel's footprint [c − pitch/2, c + pitch/2] inside [lo, hi]
    /// (1 everywhere without a crop).
    static func coverage(centres: [Double], pitch: Double, keptFrom lo: Double?, to hi: Double?) -> [Double] {
        guard let lo, let hi else { return [Double](repeating: 1, count: centres.count) }
        return centres.map { c in
            let inside = min(c + pitch / 2, hi) - max(c - pitch / 2, lo)
            return min(1, max(0, inside / pitch))
        }
    }
}
