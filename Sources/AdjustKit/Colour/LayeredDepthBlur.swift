import Foundation

/// DepthEffect's blur as a lens makes it (docs/spec/depth-effect.md §4, modern-adjustments.md
/// §12): each point spreads over its own circle, an in-focus point spreads nothing, and a nearer
/// surface hides what lies behind it. A per-pixel gather (each receiving pixel averaging around
/// itself) pulls the bright subject into the background next to it — the halo this replaces.
///
/// Layered depth of field: every pixel is shared between the sharp layer and at most two blurred
/// layers on each side of the focus plane (its radius interpolated between the layers' radii);
/// each blurred layer's linear light and coverage (premultiplied) are blurred with that layer's
/// kernel, and the layers are composited far to near — the behind layers, then the sharp layer at
/// full resolution, then the front layers — and divided by the coverage reached, so that what the
/// subject hides is filled from its surroundings and no light crosses its edge.
///
/// Cost: the blurred layers are computed on a grid of `Layout.cell`-pixel cells (the blur is
/// large: up to 2 % of the long side), with a two-pass box per axis per layer standing for the
/// disc (a Gaussian of σ = r/2, which depth-effect.md §6 measures ≈ 0.1 dB from the disc), and
/// read back bilinearly; only the sharp layer, the membership and the grain run per pixel. The
/// cells' sums and the boxes' running sums are integers (value·2¹⁴), exact in any order, every
/// other step is the same arithmetic wherever it runs, and the cells are aligned to the image, so
/// a pixel's result does not depend on which rows or columns a run covers
/// (`NeighbourhoodKernel`'s contract).
struct LayeredDepthBlur: NeighbourhoodKernel {
    let depth: DepthMap
    /// The focus plane's disparity, 1/m.
    let focus: Float
    let law: DepthBlurLaw
    let imageSize: PixelSize
    let space: WorkingSpace
    let layout: Layout
    var radius: Int { layout.radius }

    /// Each depth value's layers, for values i/`steps` (the radius moves by under 0.05 px a step
    /// on an iPhone's range): a lookup instead of the law and the search per pixel.
    private let table: [Membership]
    fileprivate static let steps: Float = 4096
    /// Each image column's depth-map column and weight toward the next (the map is bilinearly
    /// scaled to the image, at pixel centres).
    private let columnTaps: [Int32], columnWeights: [Float]

    init(depth: DepthMap, focus: Float, law: DepthBlurLaw, imageSize: PixelSize, space: WorkingSpace) {
        (self.depth, self.focus, self.law, self.imageSize, self.space) = (depth, focus, law, imageSize, space)
        layout = Layout(maxRadius: law.maxRadius)
        let layout = layout
        table = (0...Int(Self.steps)).map { i in
            Self.membership(radius: law.radius(depth.disparity(ofValue: Float(i) / Self.steps) - focus), layout: layout)
        }
        let w = depth.size.width
        var (taps, weights) = ([Int32](), [Float]())
        for x in 0..<imageSize.width {
            let u = min(max((Float(x) + 0.5) / Float(imageSize.width) * Float(w) - 0.5, 0), Float(w - 1))
            taps.append(Int32(u))
            weights.append(u - Float(Int(u)))
        }
        (columnTaps, columnWeights) = (taps, weights)
    }

    /// The layers' kernels, the cell size and the kernel's reach for a largest blur radius.
    struct Layout: Equatable, Sendable {
        /// The box half-widths (two passes per axis) of the layers, smallest blur first: each stands
        /// for a disc of radius `cellRadius` cells (σ = r/2, counting the ¼ cell² that the cell
        /// average and the bilinear read-back add).
        static let boxes: [(Int, Int)] = [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 4), (5, 5), (7, 7), (10, 10), (12, 12)]
        static func cellRadius(_ box: (Int, Int)) -> Float {
            2 * (0.25 + Float(box.0 * (box.0 + 1) + box.1 * (box.1 + 1)) / 3).squareRoot()
        }

        /// Decoded pixels per cell side.
        let cell: Int
        /// The boxes used (a prefix of `boxes`, reaching the largest radius).
        let rungs: [Box]
        /// The cells a blurred cell reads either side (the largest b₁ + b₂).
        let reach: Int
        /// The decoded pixels a result reads either side: its bilinear cells, their blur, a cell.
        let radius: Int

        struct Box: Equatable, Sendable {
            let first: Int, second: Int
            let cellRadius: Float
        }

        init(maxRadius: Double) {
            let largest = Double(Self.cellRadius(Self.boxes[Self.boxes.count - 1]))
            cell = max(1, Int((maxRadius / largest).rounded(.up)))
            let needed = Float(maxRadius / Double(cell))
            var rungs: [Box] = []
            for box in Self.boxes {
                rungs.append(Box(first: box.0, second: box.1, cellRadius: Self.cellRadius(box)))
                if Self.cellRadius(box) >= needed { break }
            }
            self.rungs = rungs
            reach = rungs[rungs.count - 1].first + rungs[rungs.count - 1].second
            radius = cell * (reach + 2)
        }
    }

    /// A pixel's share of the layers: `sharp`, and up to two blurred layers (slots: the behind
    /// layers far to near, then the front layers near-most last).
    struct Membership {
        var sharp: Float
        var first: Int, firstWeight: Float
        var second: Int, secondWeight: Float
        /// The pixel's blur radius, decoded pixels (negative behind the focus plane).
        var radius: Float
    }

    static func membership(radius r: Float, layout: Layout) -> Membership {
        let rungs = layout.rungs, n = rungs.count
        let rho = abs(r) / Float(layout.cell)
        @inline(__always) func slot(_ k: Int) -> Int { r < 0 ? n - 1 - k : n + k }
        if rho < rungs[0].cellRadius {
            let t = rho / rungs[0].cellRadius
            return Membership(sharp: 1 - t, first: slot(0), firstWeight: t, second: slot(0), secondWeight: 0, radius: r)
        }
        var k = 0
        while k + 1 < n, rungs[k + 1].cellRadius <= rho { k += 1 }
        guard k + 1 < n else { return Membership(sharp: 0, first: slot(k), firstWeight: 1, second: slot(k), secondWeight: 0, radius: r) }
        let t = (rho - rungs[k].cellRadius) / (rungs[k + 1].cellRadius - rungs[k].cellRadius)
        return Membership(sharp: 0, first: slot(k), firstWeight: 1 - t, second: slot(k + 1), secondWeight: t, radius: r)
    }

    func apply(rows: Range<Int>, columns: Range<Int>, input: NeighbourhoodRows,
               output: (Int) -> UnsafeMutablePointer<Float>) {
        guard !rows.isEmpty, !columns.isEmpty else { return }
        table.withUnsafeBufferPointer { table in
            columnTaps.withUnsafeBufferPointer { taps in
                columnWeights.withUnsafeBufferPointer { weights in
                    run(rows: rows, columns: columns, input: input, output: output,
                        lookup: Lookup(table: table, taps: taps, weights: weights, matte: depth.matte, imageSize: imageSize))
                }
            }
        }
    }

    /// The per-pixel lookups, as buffers (the hot loops read them without retains or checks).
    private struct Lookup {
        let table: UnsafeBufferPointer<Membership>
        let taps: UnsafeBufferPointer<Int32>, weights: UnsafeBufferPointer<Float>
        let matte: PortraitMatte?
        let imageSize: PixelSize

        /// The pixel's layers from its depth (`row`: the depth map's columns at its row), and the
        /// matte, which keeps a person sharp.
        @inline(__always)
        func membership(x: Int, y: Int, row: UnsafeMutablePointer<Float>, last: Int) -> Membership {
            let (x0, f) = (Int(taps[x]), weights[x])
            let value = row[x0] + (row[min(x0 + 1, last)] - row[x0]) * f
            var m = table[Int(min(max(value, 0), 1) * LayeredDepthBlur.steps + 0.5)]
            if let matte {
                let person = matte.value(u: (Float(x) + 0.5) / Float(imageSize.width), v: (Float(y) + 0.5) / Float(imageSize.height))
                if person > m.sharp {
                    let k = (1 - person) / (1 - m.sharp)
                    (m.sharp, m.firstWeight, m.secondWeight) = (person, m.firstWeight * k, m.secondWeight * k)
                }
            }
            return m
        }
    }

    private func run(rows: Range<Int>, columns: Range<Int>, input: NeighbourhoodRows,
                     output: (Int) -> UnsafeMutablePointer<Float>, lookup: Lookup) {
        let c = layout.cell, n = layout.rungs.count, slots = 2 * n, reach = layout.reach
        let (imageW, imageH) = (imageSize.width, imageSize.height)
        let (gridW, gridH) = ((imageW + c - 1) / c, (imageH + c - 1) / c)
        let offset = input.columnOffset
        // The cells the results' bilinear reads touch, and the cells their blur reads.
        let needX = Self.cells(offset + columns.lowerBound, offset + columns.upperBound, cell: c, count: gridW)
        let needY = Self.cells(rows.lowerBound, rows.upperBound, cell: c, count: gridH)
        let downX = max(0, needX.lowerBound - reach)..<min(gridW, needX.upperBound + reach)
        let downY = max(0, needY.lowerBound - reach)..<min(gridH, needY.upperBound + reach)
        let (dw, dh, nw, nh) = (downX.count, downY.count, needX.count, needY.count)

        // 1. Each slot's premultiplied linear light and coverage, summed over each cell (fixed point).
        // A slot's cells are allocated when a pixel first falls in it: a band of rows holds a few
        // of the layers only.
        let cellInts = dw * dh * 4
        let cellsOf = UnsafeMutablePointer<UnsafeMutablePointer<Int32>?>.allocate(capacity: slots)
        cellsOf.initialize(repeating: nil, count: slots)
        defer {
            for slot in 0..<slots { cellsOf[slot]?.deallocate() }
            cellsOf.deallocate()
        }
        @inline(__always) func cells(_ slot: Int) -> UnsafeMutablePointer<Int32> {
            if let cells = cellsOf[slot] { return cells }
            let cells = UnsafeMutablePointer<Int32>.allocate(capacity: cellInts)
            cells.initialize(repeating: 0, count: cellInts)
            cellsOf[slot] = cells
            return cells
        }
        let (depthW, depthH) = (depth.size.width, depth.size.height)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: depthW)
        defer { row.deallocate() }
        /// The depth map's columns at image row y: its two rows about y blended once per row, so
        /// that a pixel's value costs one blend across (the same arithmetic wherever it runs).
        func moveRow(to y: Int) {
            let v = min(max((Float(y) + 0.5) / Float(imageH) * Float(depthH) - 0.5, 0), Float(depthH - 1))
            let y0 = Int(v), y1 = min(Int(v) + 1, depthH - 1), f = v - Float(Int(v))
            depth.values.withUnsafeBufferPointer { d in
                for i in 0..<depthW { row[i] = d[y0 * depthW + i] + (d[y1 * depthW + i] - d[y0 * depthW + i]) * f }
            }
        }
        let one = LumaFixedPoint.one
        for cy in downY {
            for y in (cy * c)..<min(imageH, cy * c + c) {
                let source = input.clampedRow(y)
                moveRow(to: y)
                for cx in downX {
                    let at = ((cy - downY.lowerBound) * dw + cx - downX.lowerBound) * 4
                    for x in (cx * c)..<min(imageW, cx * c + c) {
                        let m = lookup.membership(x: x, y: y, row: row, last: depthW - 1)
                        if m.sharp >= 1 { continue }
                        let p = source + min(max(x - offset, 0), input.width - 1) * 3
                        let (r, g, b) = (linear(p[0]), linear(p[1]), linear(p[2]))
                        @inline(__always) func add(_ slot: Int, _ weight: Float) {
                            let q = cells(slot) + at
                            let w = weight * one
                            // Non-negative: adding ½ and truncating rounds (roundf is a call).
                            q[0] &+= Int32(w * r + 0.5); q[1] &+= Int32(w * g + 0.5)
                            q[2] &+= Int32(w * b + 0.5); q[3] &+= Int32(w + 0.5)
                        }
                        add(m.first, m.firstWeight)
                        if m.secondWeight > 0 { add(m.second, m.secondWeight) }
                    }
                }
            }
        }
        // A slot whose coverage rounded to 0 everywhere here adds nothing: leaving it out is exact.
        var present = [Bool](repeating: false, count: slots)
        for slot in 0..<slots {
            guard let q = cellsOf[slot] else { continue }
            for i in 0..<(dw * dh) where q[i * 4 + 3] != 0 { present[slot] = true; break }
        }
        for cy in 0..<dh {
            let rowsIn = min(imageH, (downY.lowerBound + cy + 1) * c) - (downY.lowerBound + cy) * c
            for cx in 0..<dw {
                let count = Int32(rowsIn * (min(imageW, (downX.lowerBound + cx + 1) * c) - (downX.lowerBound + cx) * c))
                for slot in 0..<slots where present[slot] {
                    let q = cellsOf[slot]! + (cy * dw + cx) * 4
                    for k in 0..<4 { q[k] = (q[k] + count / 2) / count }
                }
            }
        }

        // 2. Each present slot blurred (two boxes across, two down), then the behind and front
        // layers composited far to near over the needed cells.
        let widest = dw + 2 * reach
        let across = UnsafeMutablePointer<Int32>.allocate(capacity: dh * widest * 4)
        let across2 = UnsafeMutablePointer<Int32>.allocate(capacity: dh * nw * 4)
        let downward = UnsafeMutablePointer<Int32>.allocate(capacity: (nh + 2 * reach) * nw * 4)
        let blurred = UnsafeMutablePointer<Int32>.allocate(capacity: nh * nw * 4)
        let behind = UnsafeMutablePointer<Float>.allocate(capacity: nh * nw * 4)
        let front = UnsafeMutablePointer<Float>.allocate(capacity: nh * nw * 4)
        behind.initialize(repeating: 0, count: nh * nw * 4)
        front.initialize(repeating: 0, count: nh * nw * 4)
        defer { across.deallocate(); across2.deallocate(); downward.deallocate(); blurred.deallocate(); behind.deallocate(); front.deallocate() }
        let scale = 1 / one
        for slot in 0..<slots where present[slot] {
            let box = layout.rungs[slot < n ? n - 1 - slot : slot - n]
            let source = cellsOf[slot]!
            // Across: pass 1 over needX ± b₂, pass 2 over needX, for every cell row.
            let mid = max(0, needX.lowerBound - box.second)..<min(gridW, needX.upperBound + box.second)
            for cy in 0..<dh {
                Self.box(source + cy * dw * 4, from: downX.lowerBound, step: 4, into: across + cy * mid.count * 4,
                         from: mid.lowerBound, step: 4, over: mid, half: box.first, count: gridW)
                Self.box(across + cy * mid.count * 4, from: mid.lowerBound, step: 4, into: across2 + cy * nw * 4,
                         from: needX.lowerBound, step: 4, over: needX, half: box.second, count: gridW)
            }
            // Down: pass 1 over needY ± b₂, pass 2 over needY, for every needed column.
            let midY = max(0, needY.lowerBound - box.second)..<min(gridH, needY.upperBound + box.second)
            for cx in 0..<nw {
                Self.box(across2 + cx * 4, from: downY.lowerBound, step: nw * 4, into: downward + cx * 4,
                         from: midY.lowerBound, step: nw * 4, over: midY, half: box.first, count: gridH)
                Self.box(downward + cx * 4, from: midY.lowerBound, step: nw * 4, into: blurred + cx * 4,
                         from: needY.lowerBound, step: nw * 4, over: needY, half: box.second, count: gridH)
            }
            let target = slot < n ? behind : front
            for i in 0..<(nh * nw) {
                let (q, t) = (blurred + i * 4, target + i * 4)
                let a = Float(q[3]) * scale, keep = 1 - a
                t[0] = Float(q[0]) * scale + keep * t[0]; t[1] = Float(q[1]) * scale + keep * t[1]
                t[2] = Float(q[2]) * scale + keep * t[2]; t[3] = a + keep * t[3]
            }
        }

        // 3. Per pixel: behind layers, the sharp layer, the front layers; divided by the coverage.
        let taps = columns.map { Self.bilinear(offset + $0, cell: c, count: gridW) }
        let grainColumns = UnsafeMutablePointer<Float>.allocate(capacity: columns.count + 1)
        defer { grainColumns.deallocate() }
        for y in rows {
            let (source, target) = (input.row(y), output(y))
            moveRow(to: y)
            DepthBlurGrain.columnSums(y: y, x: offset + columns.lowerBound, count: columns.count + 1, into: grainColumns)
            let (cy0, cy1, fy) = Self.bilinear(y, cell: c, count: gridH)
            let (r0, r1) = ((cy0 - needY.lowerBound) * nw, (cy1 - needY.lowerBound) * nw)
            for x in columns {
                let (p, o) = (source + x * 3, target + x * 3)
                let m = lookup.membership(x: offset + x, y: y, row: row, last: depthW - 1)
                let (cx0, cx1, fx) = taps[x - columns.lowerBound]
                let (i00, i01) = ((r0 + cx0 - needX.lowerBound) * 4, (r0 + cx1 - needX.lowerBound) * 4)
                let (i10, i11) = ((r1 + cx0 - needX.lowerBound) * 4, (r1 + cx1 - needX.lowerBound) * 4)
                @inline(__always) func read(_ plane: UnsafeMutablePointer<Float>, _ k: Int) -> Float {
                    let top = plane[i00 + k] + (plane[i01 + k] - plane[i00 + k]) * fx
                    let bottom = plane[i10 + k] + (plane[i11 + k] - plane[i10 + k]) * fx
                    return top + (bottom - top) * fy
                }
                let frontCover = read(front, 3)
                if m.sharp >= 1, frontCover <= 0 {
                    o[0] = p[0]; o[1] = p[1]; o[2] = p[2]
                    continue
                }
                let s = (linear(p[0]), linear(p[1]), linear(p[2]))
                let (sharp, blur) = (m.sharp, 1 - m.sharp)
                let keep = 1 - frontCover
                var cover = sharp + blur * read(behind, 3)
                var r = sharp * s.0 + blur * read(behind, 0)
                var g = sharp * s.1 + blur * read(behind, 1)
                var b = sharp * s.2 + blur * read(behind, 2)
                r = read(front, 0) + keep * r; g = read(front, 1) + keep * g; b = read(front, 2) + keep * b
                cover = frontCover + keep * cover
                if cover > 1e-5 { (r, g, b) = (r / cover, g / cover, b / cover) } else { (r, g, b) = s }
                let amount = blur * min(1, max(0, (abs(m.radius) - Float(law.pixelScale)) / Float(law.pixelScale)))
                let j = x - columns.lowerBound
                let grain = amount > 0 ? (grainColumns[j] + grainColumns[j + 1]) * 0.5 * amount : 0
                if space == .linear {
                    let level = DepthBlurGrain.sigma(luminance: 0.2126 * r + 0.7152 * g + 0.0722 * b) * grain
                    o[0] = r + level * DepthBlurGrain.slope(r); o[1] = g + level * DepthBlurGrain.slope(g)
                    o[2] = b + level * DepthBlurGrain.slope(b)
                } else {
                    let level = DepthBlurGrain.sigma(luminance: 0.2126 * r + 0.7152 * g + 0.0722 * b) * grain
                    o[0] = SRGBTransfer.encode(r) + level; o[1] = SRGBTransfer.encode(g) + level
                    o[2] = SRGBTransfer.encode(b) + level
                }
            }
        }
    }

    @inline(__always)
    private func linear(_ v: Float) -> Float {
        min(4, max(0, space == .linear ? v : SRGBTransfer.decode(v)))
    }

    /// The cells whose centres the bilinear reads of pixels lo..<hi touch (clamped to the grid).
    static func cells(_ lo: Int, _ hi: Int, cell c: Int, count: Int) -> Range<Int> {
        bilinear(lo, cell: c, count: count).0..<(bilinear(hi - 1, cell: c, count: count).1 + 1)
    }

    /// Pixel i's two cells and its weight toward the second: its centre (i + ½)/c − ½ in cells,
    /// computed in integers ((2i + 1 − c) / 2c) so that it is exact.
    @inline(__always)
    static func bilinear(_ i: Int, cell c: Int, count: Int) -> (Int, Int, Float) {
        let numerator = 2 * i + 1 - c, denominator = 2 * c
        let floor = numerator >= 0 ? numerator / denominator : -((-numerator + denominator - 1) / denominator)
        let fraction = Float(numerator - floor * denominator) / Float(denominator)
        if floor < 0 { return (0, 0, 0) }
        if floor >= count - 1 { return (count - 1, count - 1, 0) }
        return (floor, floor + 1, fraction)
    }

    /// One box pass along a line of cells: out[k], k in `range`, is the rounded mean of
    /// in[clamp(k + j)] for |j| ≤ half (4 channels each; `count` cells in the grid's line).
    static func box(_ source: UnsafePointer<Int32>, from sourceStart: Int, step sourceStep: Int,
                    into target: UnsafeMutablePointer<Int32>, from targetStart: Int, step targetStep: Int,
                    over range: Range<Int>, half: Int, count: Int) {
        guard !range.isEmpty else { return }
        @inline(__always) func at(_ k: Int) -> UnsafePointer<Int32> { source + (min(max(k, 0), count - 1) - sourceStart) * sourceStep }
        if half == 0 {
            for k in range {
                let (q, t) = (at(k), target + (k - targetStart) * targetStep)
                t[0] = q[0]; t[1] = q[1]; t[2] = q[2]; t[3] = q[3]
            }
            return
        }
        // The mean as sum·(1/width) + ½, truncated: an integer division per value costs more
        // than the rest of the pass; any fixed arithmetic keeps the result independent of the run.
        let inverse = 1 / Float(2 * half + 1)
        var sums: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        for j in (range.lowerBound - half)...(range.lowerBound + half) {
            let q = at(j)
            sums.0 &+= q[0]; sums.1 &+= q[1]; sums.2 &+= q[2]; sums.3 &+= q[3]
        }
        for k in range {
            if k > range.lowerBound {
                let (enter, leave) = (at(k + half), at(k - half - 1))
                sums.0 = sums.0 &+ enter[0] &- leave[0]; sums.1 = sums.1 &+ enter[1] &- leave[1]
                sums.2 = sums.2 &+ enter[2] &- leave[2]; sums.3 = sums.3 &+ enter[3] &- leave[3]
            }
            let t = target + (k - targetStart) * targetStep
            t[0] = Int32(Float(sums.0) * inverse + 0.5); t[1] = Int32(Float(sums.1) * inverse + 0.5)
            t[2] = Int32(Float(sums.2) * inverse + 0.5); t[3] = Int32(Float(sums.3) * inverse + 0.5)
        }
    }
}
