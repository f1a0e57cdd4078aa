/// The interior run of a grid row under a translation at the decode's pitch: its columns, the
/// window column of its first pixel's top-left tap, the two source rows it reads and the one set
/// of bilinear weights every pixel of it shares.
struct TapRun<Element> {
    let columns: Range<Int>
    let x0: Int
    let row0: UnsafeMutablePointer<Element>, row1: UnsafeMutablePointer<Element>
    let weights: (w00: Float, w10: Float, w01: Float, w11: Float)
}

/// Sampling one row of the grid (`OutputRowSampler.sampleRow`): what the row's pixels share,
/// computed once, and the per-pixel steps. Lives for one row; the buffers are the sampler's.
struct GridRowSampling<Texels: TexelReader> {
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
        return TapBlock.withTapBlock { block in sampleInterior(lo..<hi, bytes, block) }
    }

    /// `sampleEach`'s run whose taps all lie inside, its taps laid out in `block`.
    @inline(__always)
    private func sampleInterior(_ run: Range<Int>, _ bytes: OpaqueByteRow?, _ block: TapBlock) -> Range<Int> {
        let (lo, hi) = (run.lowerBound, run.upperBound)
        var taps = InteriorTaps(positions: positions, left: left, window: window, texels: texels, centreX: centreX,
                                columns: lo..<hi, block: block)
        // All four taps exist, so their weights sum to 1. With whole coverage and no kernel
        // after, `store` would compute alpha 1 and copy the colour: that is written directly.
        let whole = (lo..<hi).clamped(to: fullCoverageColumns)
        let opaque = coverY == 1 && !hasOutputKernels && !whole.isEmpty ? whole : hi..<hi
        for i in lo..<opaque.lowerBound { let c = taps.sample(i); store(i, c.0, c.1, c.2, 1) }
        if let bytes {
            var start = opaque.lowerBound
            while start < opaque.upperBound {
                let count = min(TapBlock.columns, opaque.upperBound &- start)
                let pixels = bytes.pixels + start &* 4
                if Texels.writesOpaqueBlocks {
                    // Decoded bytes: taps, blend and code in one C loop a block, its taps kept in
                    // registers (`TexelReader.writeOpaqueBlock`).
                    taps.writeOpaqueBlock(from: start, count: count, into: pixels, quantizer: bytes.quantizer)
                } else {
                    // A block's colours first, then their codes: in one loop of this Swift form,
                    // each pixel's code waited on its own sum, and the quantizer's loads on the
                    // code's bucket, a chain too long for the processor to overlap more than a
                    // pixel or two.
                    var c = block.colours
                    for i in start..<(start &+ count) {
                        taps.prefetch(i)
                        (c[0], c[1], c[2]) = taps.sample(i)
                        c += 4
                    }
                    bytes.write(block.colours, count: count, at: pixels)
                }
                start &+= count
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
/// quantizing its floats would give (alpha 1 codes to 255), without the floats' round trip (for
/// a SmartTone HEIC, that round trip and its alpha's coding were a fifth of adjust's own work).
/// Only for the linear space. Blends of texels in [0, 1] skip the NaN test and the clamps
/// (`code(unitBlend:)`); others (rows through stored-frame kernels) keep them (`code`).
struct OpaqueByteRow {
    let pixels: UnsafeMutablePointer<UInt8>
    let quantizer: ByteQuantizer.Bound
    private let unitBlends: Bool

    init?<Texels: TexelReader>(pixels: UnsafeMutablePointer<UInt8>, quantizer: ByteQuantizer.Bound, texels: Texels.Type) {
        guard quantizer.linear else { return nil }
        (self.pixels, self.quantizer, unitBlends) = (pixels, quantizer, Texels.samplesAreUnitBlends)
    }

    @inline(__always)
    private func code(_ value: Float) -> UInt8 { unitBlends ? quantizer.code(unitBlend: value) : quantizer.code(value) }

    /// `count` opaque pixels' bytes from `p` on: their colours (`colours`, four floats a pixel,
    /// the fourth unread) coded, alpha 255.
    @inline(__always)
    func write(_ colours: UnsafeMutablePointer<Float>, count: Int, at p: UnsafeMutablePointer<UInt8>) {
        var (c, p) = (colours, p)
        for _ in 0..<count {
            p[0] = code(c[0]); p[1] = code(c[1]); p[2] = code(c[2]); p[3] = 255
            c += 4; p += 4
        }
    }

    /// An opaque pixel's bytes at `p`: its colour coded, alpha 255.
    @inline(__always)
    func write(_ colour: (Float, Float, Float), at p: UnsafeMutablePointer<UInt8>) {
        p[0] = code(colour.0); p[1] = code(colour.1); p[2] = code(colour.2); p[3] = 255
    }
}
