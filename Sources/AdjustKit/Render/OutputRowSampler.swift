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
    fileprivate static func blend<Texels: TexelReader>(_ p0: UnsafeMutablePointer<Texels.Element>,
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

/// The interior run of a grid row under a translation at the decode's pitch: its columns, the
/// window column of its first pixel's top-left tap, the two source rows it reads and the one set
/// of bilinear weights every pixel of it shares.
private struct TapRun<Element> {
    let columns: Range<Int>
    let x0: Int
    let row0: UnsafeMutablePointer<Element>, row1: UnsafeMutablePointer<Element>
    let weights: (w00: Float, w10: Float, w01: Float, w11: Float)
}

/// Sampling one row of the grid (`OutputRowSampler.sampleRow`): what the row's pixels share,
/// computed once, and the per-pixel steps. Lives for one row; the buffers are the sampler's.
private struct GridRowSampling<Texels: TexelReader> {
    let inverse: AffineMap
    let window: SourceRowWindow<Texels.Element>
    let texels: Texels
    let centreX: UnsafeBufferPointer<Double>, coverageX: UnsafeBufferPointer<Double>
    let out: UnsafeMutablePointer<Float>
    let outputKernels: [any PixelKernel]
    let positionalKernels: [any PositionalKernel]
    /// Any output-frame kernel at all (the opaque run's shortcut skips them).
    let hasOutputKernels: Bool
    /// The row's centre in the grid, and the grid's size, for the positional kernels.
    let rowCentre: Float, gridWidth: Float, gridHeight: Float
    let isUnitTranslation: Bool, fullCoverageColumns: Range<Int>
    /// The decoded image's size; the window's columns and rows.
    let W: Int, H: Int, left: Int, right: Int, top: Int, bottom: Int
    /// Top-left taps in these ranges have all four taps inside both the image and the window.
    let firstX: Double, lastX: Double, firstY: Double, lastY: Double
    let sourceHeight: Double
    /// The row's crop coverage, and its share of T⁻¹'s x and y (c·qy + tx, d·qy + ty).
    let coverY: Double, cqy: Double, dqy: Double
    /// A column centre's position in the source, for this row.
    let positions: RowPositions

    init(_ sampler: OutputRowSampler, row j: Int, window: SourceRowWindow<Texels.Element>, columnOffset: Int,
         texels: Texels, centreX: UnsafeBufferPointer<Double>, coverageX: UnsafeBufferPointer<Double>,
         out: UnsafeMutablePointer<Float>) {
        (inverse, self.window, self.texels, self.centreX, self.coverageX, self.out) =
            (sampler.inverse, window, texels, centreX, coverageX, out)
        (outputKernels, positionalKernels) = (sampler.outputKernels, sampler.positionalKernels)
        hasOutputKernels = !outputKernels.isEmpty || !positionalKernels.isEmpty
        (rowCentre, gridWidth, gridHeight) = (Float(j) + 0.5, Float(sampler.columns), Float(sampler.rows))
        (isUnitTranslation, fullCoverageColumns) = (sampler.isUnitTranslation, sampler.fullCoverageColumns)
        (W, H) = (sampler.plan.decodedSize.width, sampler.plan.decodedSize.height)
        (left, right) = (columnOffset, columnOffset + window.width)
        (top, bottom) = (window.top, window.bottom)
        (firstX, lastX) = (Double(max(0, left)), Double(min(W, right) - 2))
        (firstY, lastY) = (Double(max(0, top)), Double(min(H, bottom) - 2))
        sourceHeight = Double(H)
        let qy = sampler.centreY[j]
        coverY = sampler.coverageY[j]
        (cqy, dqy) = (inverse.c * qy + inverse.tx, inverse.d * qy + inverse.ty)
        positions = RowPositions(a: inverse.a, b: inverse.b, cqy: cqy, dqy: dqy, sourceHeight: sourceHeight)
    }

    /// A translation with columns at the decode's pitch (a crop at a reduced scale) has the same
    /// weights at every pixel of a row: its run of columns whose taps all lie inside, which then
    /// skips the position arithmetic; nil for other transforms or when no column qualifies.
    func unitTranslationRun() -> TapRun<Texels.Element>? {
        guard isUnitTranslation, !centreX.isEmpty else { return nil }
        let fy = sourceHeight - dqy - 0.5, fx = centreX[0] + cqy - 0.5
        let x0f = OutputRowSampler.floor(fx), y0f = OutputRowSampler.floor(fy)
        guard y0f >= firstY, y0f <= lastY, abs(x0f) < 1e9 else { return nil }
        let first = max(0, Int(firstX - x0f)), last = min(centreX.count, Int(lastX - x0f) + 1)
        guard last > first else { return nil }
        let wx = Float(fx - x0f), wy = Float(fy - y0f)
        return TapRun(columns: first..<last, x0: Int(x0f) + first - left,
                      row0: window.row(Int(y0f)), row1: window.row(Int(y0f) + 1),
                      weights: ((1 - wx) * (1 - wy), wx * (1 - wy), (1 - wx) * wy, wx * wy))
    }

    /// Writes pixel i: its colour (unpremultiplied), alpha from the taps' total weight `a` and
    /// the coverage, then the output-frame kernels.
    @inline(__always)
    func store(_ i: Int, _ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        let o = out + i * 4
        let alpha = Float(Double(a) * coverageX[i] * coverY)
        if alpha > 0 {
            o[0] = r; o[1] = g; o[2] = b; o[3] = alpha
            if hasOutputKernels {
                for kernel in outputKernels { kernel.apply(&o[0], &o[1], &o[2]) }
                for kernel in positionalKernels {
                    kernel.apply(&o[0], &o[1], &o[2], x: Float(i) + 0.5, y: rowCentre, width: gridWidth, height: gridHeight)
                }
            }
        } else {
            o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0
        }
    }

    /// Pixels `columns`, each at its own position, taps inside or not.
    ///
    /// ⌊fx⌋ and ⌊fy⌋ only move one way along a row (each step of their arithmetic is monotone
    /// in the column's centre), so the columns whose four taps are all inside are one run: the
    /// columns outside it are peeled off both ends, and the run is sampled without a bounds test
    /// a pixel (a call a pixel, with the sampler's fields reloaded each time, was 40 % of a
    /// straighten's CPU). Inside, fx and fy are ≥ 0, where ⌊x⌋ is the truncation.
    ///
    /// With `bytes`, the opaque part of the run goes there instead (`OutputRowSampler.sampleRow`);
    /// returns it.
    @inline(__always)
    @discardableResult
    func sampleEach(_ columns: Range<Int>, _ bytes: OpaqueByteRow?) -> Range<Int> {
        var (lo, hi) = (columns.lowerBound, columns.upperBound)
        while lo < hi { let tap = topLeftTap(lo); guard !tapsInside(tap) else { break }; sampleOutside(lo, tap); lo += 1 }
        while hi > lo { let tap = topLeftTap(hi - 1); guard !tapsInside(tap) else { break }; sampleOutside(hi - 1, tap); hi -= 1 }
        guard lo < hi else { return hi..<hi }
        var taps = InteriorTaps(positions: positions, left: left, window: window, texels: texels, centreX: centreX,
                                columns: lo..<hi)
        // All four taps exist, so their weights sum to 1. With whole coverage and no kernel
        // after, `store` would compute alpha 1 and copy the colour: that is written directly.
        let whole = (lo..<hi).clamped(to: fullCoverageColumns)
        let opaque = coverY == 1 && !hasOutputKernels && !whole.isEmpty ? whole : hi..<hi
        for i in lo..<opaque.lowerBound { let c = taps.sample(i); store(i, c.0, c.1, c.2, 1) }
        if let bytes {
            var p = bytes.pixels + opaque.lowerBound &* 4
            for i in opaque {
                taps.prefetch(i)
                let c = taps.sample(i)
                bytes.write(c, at: p)
                p += 4
            }
        } else {
            var o = out + opaque.lowerBound &* 4
            for i in opaque {
                taps.prefetch(i)
                let c = taps.sample(i)
                o[0] = c.0; o[1] = c.1; o[2] = c.2; o[3] = 1
                o += 4
            }
        }
        for i in opaque.upperBound..<hi { let c = taps.sample(i); store(i, c.0, c.1, c.2, 1) }
        return bytes == nil ? hi..<hi : opaque
    }

    /// Column i's top-left tap, ⌊fx⌋ and ⌊fy⌋ (texel coordinates, top-left origin).
    @inline(__always)
    private func topLeftTap(_ i: Int) -> (x0f: Double, y0f: Double, wx: Float, wy: Float) {
        let (fx, fy) = positions.source(centreX[i])
        let x0f = OutputRowSampler.floor(fx), y0f = OutputRowSampler.floor(fy)
        return (x0f, y0f, Float(fx - x0f), Float(fy - y0f))
    }

    /// Whether all four taps of a column (its `topLeftTap`) lie inside both the image and the
    /// window.
    @inline(__always)
    private func tapsInside(_ tap: (x0f: Double, y0f: Double, wx: Float, wy: Float)) -> Bool {
        tap.x0f >= firstX && tap.x0f <= lastX && tap.y0f >= firstY && tap.y0f <= lastY
    }

    /// A pixel whose taps are not all inside the image and the window: a partial blend at the
    /// edge, or transparent beyond it.
    @inline(never)
    private func sampleOutside(_ i: Int, _ tap: (x0f: Double, y0f: Double, wx: Float, wy: Float)) {
        let (x0f, y0f, wx, wy) = tap
        if x0f > -2, x0f < Double(W), y0f > -2, y0f < Double(H) {
            sampleEdge(i, x0: Int(x0f), y0: Int(y0f), wx: wx, wy: wy)
        } else {
            store(i, 0, 0, 0, 0)
        }
    }

    /// A pixel with taps outside the image or the window: adds one texel at a time; texels
    /// outside the image are transparent (weight lost). The window holds every texel of the
    /// image a sample can reach (RenderPlanner.sourceRegion).
    @inline(__always)
    private func sampleEdge(_ i: Int, x0: Int, y0: Int, wx: Float, wy: Float) {
        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
        @inline(__always) func add(_ x: Int, _ y: Int, _ w: Float) {
            guard w > 0, x >= 0, x < W, y >= 0, y < H, x >= left, x < right, y >= top, y < bottom else { return }
            let c = texels.working(window.row(y) + (x - left) * 3)
            r += w * c.0; g += w * c.1; b += w * c.2
            a += w
        }
        add(x0, y0, (1 - wx) * (1 - wy)); add(x0 + 1, y0, wx * (1 - wy))
        add(x0, y0 + 1, (1 - wx) * wy); add(x0 + 1, y0 + 1, wx * wy)
        if a > 0 { r /= a; g /= a; b /= a }
        store(i, r, g, b, a)
    }

    /// The interior run: every tap inside, one set of weights. A tap of weight 0 adds exactly +0
    /// to its sum (texels are finite), so the cases below skip those taps and still give the
    /// four-tap sum's bits. With `bytes`, the opaque part of the run goes there instead; returns
    /// it.
    @inline(__always)
    func sample(_ run: TapRun<Texels.Element>, _ bytes: OpaqueByteRow?) -> Range<Int> {
        let (row0, row1, texels) = (run.row0, run.row1, texels)
        let (w00, w10, w01, w11) = run.weights
        let x0 = run.x0 - run.columns.lowerBound
        if w01 == 0, w11 == 0, w10 == 0 {
            // On texel centres (w00 = 1).
            return runLoop(run.columns, CentreTap(texels: texels, row0: row0, x0: x0), bytes)
        } else if w01 == 0, w11 == 0 {
            // On one source row.
            return runLoop(run.columns, RowTaps(texels: texels, row0: row0, x0: x0, w00: w00, w10: w10), bytes)
        } else if w10 == 0, w11 == 0 {
            // On one source column.
            return runLoop(run.columns, ColumnTaps(texels: texels, row0: row0, row1: row1, x0: x0, w00: w00, w01: w01), bytes)
        } else {
            return runLoop(run.columns, FourTaps(texels: texels, row0: row0, row1: row1, x0: x0, weights: run.weights), bytes)
        }
    }

    /// Stores `taps(i)` (all four taps inside: weight 1) for every column of `run`. Where
    /// coverage is whole and no kernel follows, `store` would compute alpha 1 and copy the
    /// colour: the opaque part of the run writes that directly. Generic over the tap pattern
    /// (not a closure): each pattern gets a loop of its own with the taps inlined, where a
    /// closure was left a call per pixel.
    @inline(__always)
    private func runLoop<Taps: RunTaps>(_ run: Range<Int>, _ taps: Taps, _ bytes: OpaqueByteRow?) -> Range<Int>
    where Taps.Texels == Texels {
        let whole = run.clamped(to: fullCoverageColumns)
        let opaque = coverY == 1 && !hasOutputKernels && !whole.isEmpty ? whole : run.upperBound..<run.upperBound
        for i in run.lowerBound..<opaque.lowerBound { let c = taps(i); store(i, c.0, c.1, c.2, 1) }
        if let bytes {
            var p = bytes.pixels + opaque.lowerBound &* 4
            for i in opaque {
                let c = taps(i)
                bytes.write(c, at: p)
                p += 4
            }
        } else {
            var o = out + opaque.lowerBound * 4
            for i in opaque {
                let c = taps(i)
                o[0] = c.0; o[1] = c.1; o[2] = c.2; o[3] = 1
                o += 4
            }
        }
        for i in opaque.upperBound..<run.upperBound { let c = taps(i); store(i, c.0, c.1, c.2, 1) }
        return bytes == nil ? run.upperBound..<run.upperBound : opaque
    }
}

/// Where a grid row's column centres land in the source (texel coordinates, top-left origin): T⁻¹
/// with the row's share (`cqy`, `dqy`) computed once. The one formula every sample of the row
/// uses, so that the edge test, the edge samples and `InteriorTaps` agree to the bit.
struct RowPositions {
    let a: Double, b: Double, cqy: Double, dqy: Double, sourceHeight: Double

    /// fx and fy of the column whose centre is at `qx`.
    @inline(__always)
    func source(_ qx: Double) -> (fx: Double, fy: Double) {
        (a * qx + cqy - 0.5, sourceHeight - (b * qx + dqy) - 0.5)
    }
}

/// Where a row's opaque run goes straight to output bytes (`OutputRowSampler.sampleRow`): the
/// row's RGBA8 pixels and the quantizer that codes them. An opaque pixel's bytes are exactly what
/// quantizing its floats would give (alpha 1 codes to 255), without the floats' round trip.
/// Only for the linear space and texels whose samples are finite (`code(finite:)`).
struct OpaqueByteRow {
    let pixels: UnsafeMutablePointer<UInt8>
    let quantizer: ByteQuantizer.Bound

    init?<Texels: TexelReader>(pixels: UnsafeMutablePointer<UInt8>, quantizer: ByteQuantizer.Bound, texels: Texels.Type) {
        guard quantizer.linear, Texels.samplesAreFinite else { return nil }
        (self.pixels, self.quantizer) = (pixels, quantizer)
    }

    /// An opaque pixel's bytes at `p`: its colour coded, alpha 255.
    @inline(__always)
    func write(_ colour: (Float, Float, Float), at p: UnsafeMutablePointer<UInt8>) {
        p[0] = quantizer.code(finite: colour.0); p[1] = quantizer.code(finite: colour.1)
        p[2] = quantizer.code(finite: colour.2); p[3] = 255
    }
}

/// Pixel i of an interior run (`GridRowSampling.sample(_:)`): the weighted sum of the taps that
/// have a weight, in the reference order. `x0` is the window column of pixel 0's top-left tap.
private protocol RunTaps {
    associatedtype Texels: TexelReader
    func callAsFunction(_ i: Int) -> (Float, Float, Float)
}

/// On texel centres (w00 = 1): the texel itself.
private struct CentreTap<Texels: TexelReader>: RunTaps {
    let texels: Texels, row0: UnsafeMutablePointer<Texels.Element>, x0: Int
    @inline(__always) func callAsFunction(_ i: Int) -> (Float, Float, Float) { texels.working(row0 + (x0 + i) * 3) }
}

/// On one source row: two taps side by side.
private struct RowTaps<Texels: TexelReader>: RunTaps {
    let texels: Texels, row0: UnsafeMutablePointer<Texels.Element>, x0: Int, w00: Float, w10: Float
    @inline(__always) func callAsFunction(_ i: Int) -> (Float, Float, Float) {
        let (c00, c10) = (texels.working(row0 + (x0 + i) * 3), texels.working(row0 + (x0 + i + 1) * 3))
        return (w00 * c00.0 + w10 * c10.0, w00 * c00.1 + w10 * c10.1, w00 * c00.2 + w10 * c10.2)
    }
}

/// On one source column: two taps one above the other.
private struct ColumnTaps<Texels: TexelReader>: RunTaps {
    let texels: Texels, row0: UnsafeMutablePointer<Texels.Element>, row1: UnsafeMutablePointer<Texels.Element>
    let x0: Int, w00: Float, w01: Float
    @inline(__always) func callAsFunction(_ i: Int) -> (Float, Float, Float) {
        let (c00, c01) = (texels.working(row0 + (x0 + i) * 3), texels.working(row1 + (x0 + i) * 3))
        return (w00 * c00.0 + w01 * c01.0, w00 * c00.1 + w01 * c01.1, w00 * c00.2 + w01 * c01.2)
    }
}

/// Anywhere else: all four taps.
private struct FourTaps<Texels: TexelReader>: RunTaps {
    let texels: Texels, row0: UnsafeMutablePointer<Texels.Element>, row1: UnsafeMutablePointer<Texels.Element>
    let x0: Int, weights: (w00: Float, w10: Float, w01: Float, w11: Float)
    @inline(__always) func callAsFunction(_ i: Int) -> (Float, Float, Float) {
        OutputRowSampler.blend(row0 + (x0 + i) * 3, row1 + (x0 + i) * 3, weights.w00, weights.w10, weights.w01, weights.w11,
                               texels: texels)
    }
}

/// Reads one pixel of a `SourceRowWindow` as working-space RGB for the sampler.
protocol TexelReader {
    associatedtype Element
    func working(_ pixel: UnsafeMutablePointer<Element>) -> (Float, Float, Float)
    /// Every texel, and so every blend of texels, is finite (`OpaqueByteRow`).
    static var samplesAreFinite: Bool { get }
}

/// A window of working-space floats: the reference pipeline's whole image, or decoded rows
/// already through the stored-frame colour kernels.
struct FloatTexels: TexelReader {
    /// The stored-frame kernels are not known never to make a NaN.
    static var samplesAreFinite: Bool { false }
    @inline(__always) func working(_ p: UnsafeMutablePointer<Float>) -> (Float, Float, Float) { (p[0], p[1], p[2]) }
}

/// A window of decoded 8-bit RGB through the 256-entry decode table: the fused renderer keeps
/// its windows in bytes, a quarter of the memory of working-space floats.
struct ByteTexels: TexelReader {
    let table: UnsafePointer<Float>
    /// The decode table's 256 values are finite.
    static var samplesAreFinite: Bool { true }
    @inline(__always) func working(_ p: UnsafeMutablePointer<UInt8>) -> (Float, Float, Float) {
        (table[Int(p[0])], table[Int(p[1])], table[Int(p[2])])
    }
}
