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
/// read back bilinearly; the layers are filled block by block (`Layout.block`), and each layer is
/// blurred and composited only over the cells it reaches; only the sharp share, the compositing
/// and the grain run per pixel. The cells' sums and the boxes' running sums are integers
/// (value·2¹⁴), exact in any order, every other step is the same arithmetic wherever it runs, and
/// the cells and blocks are aligned to the image, so
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
    /// The same values' sharp share and grain ramp (`Membership.grainRamp`): all that a pixel's
    /// result reads of its membership (the layers are filled block by block), in a table small
    /// enough to stay in the first-level cache.
    private let shares: [SIMD2<Float>]
    fileprivate static let steps: Float = 4096
    /// Each image column's depth-map column and weight toward the next (the map is bilinearly
    /// scaled to the image, at pixel centres).
    private let columnTaps: [Int32], columnWeights: [Float]
    /// The same at the centre of each column of blocks (`Layout.block`).
    private let blockTaps: [Int32], blockWeights: [Float]

    init(depth: DepthMap, focus: Float, law: DepthBlurLaw, imageSize: PixelSize, space: WorkingSpace) {
        (self.depth, self.focus, self.law, self.imageSize, self.space) = (depth, focus, law, imageSize, space)
        layout = Layout(maxRadius: law.maxRadius)
        let layout = layout
        table = (0...Int(Self.steps)).map { i in
            Self.membership(radius: law.radius(depth.disparity(ofValue: Float(i) / Self.steps) - focus), layout: layout)
        }
        let pixelScale = Float(law.pixelScale)
        shares = table.map { SIMD2($0.sharp, $0.grainRamp(pixelScale: pixelScale)) }
        let (w, block) = (depth.size.width, Float(layout.block))
        (columnTaps, columnWeights) = Self.taps((0..<imageSize.width).map { Float($0) + 0.5 }, imageSide: imageSize.width, mapSide: w)
        let blocks = (imageSize.width + layout.block - 1) / layout.block
        (blockTaps, blockWeights) = Self.taps((0..<blocks).map { (Float($0) + 0.5) * block }, imageSide: imageSize.width, mapSide: w)
    }

    /// The depth map's column left of each image position `centres` (in pixels from the image's
    /// left edge), and the weight toward the next one.
    private static func taps(_ centres: [Float], imageSide: Int, mapSide: Int) -> ([Int32], [Float]) {
        var (taps, weights) = ([Int32](), [Float]())
        for centre in centres {
            let u = min(max(centre / Float(imageSide) * Float(mapSide) - 0.5, 0), Float(mapSide - 1))
            taps.append(Int32(u))
            weights.append(u - Float(Int(u)))
        }
        return (taps, weights)
    }

    /// The layers' kernels, the cell size and the kernel's reach for a largest blur radius.
    struct Layout: Equatable, Sendable {
        /// The box half-widths (two passes per axis) of the layers, smallest blur first: each stands
        /// for a disc of radius `cellRadius` cells (σ = r/2, counting the ¼ cell² that the cell
        /// average and the bilinear read-back add).
        static let boxes: [(Int, Int)] = [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 4), (5, 5), (7, 7), (10, 10), (12, 12)]
        /// The block sides tried, largest first (`block`).
        /// (3 at full size on a 24 MP portrait, whose cells are 6 pixels: PortraitDepthTests' figures
        /// are those of pixel-by-pixel filling within 0.02 dB and 0.1 grey level.)
        static let blocks = [3, 2]
        static func cellRadius(_ box: (Int, Int)) -> Float {
            2 * (0.25 + Float(box.0 * (box.0 + 1) + box.1 * (box.1 + 1)) / 3).squareRoot()
        }

        /// Decoded pixels per cell side.
        let cell: Int
        /// Decoded pixels per block side (a divisor of `cell`): the layers are filled block by
        /// block — a block's linear light summed, and shared between the layers by the depth at its
        /// centre — rather than pixel by pixel (depth-effect.md §6: the depth image has one value
        /// per 7.4 pixels of a 24 MP portrait, so its membership hardly varies inside a block).
        let block: Int
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
            let cell = max(1, Int((maxRadius / largest).rounded(.up)))
            self.cell = cell
            block = Self.blocks.first { cell % $0 == 0 && cell >= 2 * $0 } ?? 1
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

        /// How much of the grain the blurred share gets: none up to a radius of one stored pixel,
        /// all from two.
        func grainRamp(pixelScale: Float) -> Float { min(1, max(0, (abs(radius) - pixelScale) / pixelScale)) }
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
        shares.withUnsafeBufferPointer { shares in table.withUnsafeBufferPointer { table in
            columnTaps.withUnsafeBufferPointer { taps in
                columnWeights.withUnsafeBufferPointer { weights in
                    blockTaps.withUnsafeBufferPointer { blockTaps in
                        blockWeights.withUnsafeBufferPointer { blockWeights in
                            (depth.matte?.values ?? []).withUnsafeBufferPointer { matteValues in
                                run(rows: rows, columns: columns, input: input, output: output,
                                    lookup: Lookup(table: table, shares: shares, taps: taps, weights: weights, blockTaps: blockTaps,
                                                   blockWeights: blockWeights, matte: depth.matte, matteValues: matteValues,
                                                   imageSize: imageSize))
                            }
                        }
                    }
                }
            }
        } }
    }

    /// The per-pixel lookups, as buffers (the hot loops read them without retains or checks).
    private struct Lookup {
        let table: UnsafeBufferPointer<Membership>
        let shares: UnsafeBufferPointer<SIMD2<Float>>
        let taps: UnsafeBufferPointer<Int32>, weights: UnsafeBufferPointer<Float>
        let blockTaps: UnsafeBufferPointer<Int32>, blockWeights: UnsafeBufferPointer<Float>
        let matte: PortraitMatte?, matteValues: UnsafeBufferPointer<Float>
        let imageSize: PixelSize

        /// The matte's taps at the centres of image columns `columns` (nil without a matte), found
        /// once for a run's rows.
        func matteColumns(_ columns: Range<Int>) -> [GreyPlaneSampling.Tap]? {
            matte.map { matte in columns.map { matte.taps((Float($0) + 0.5) / Float(imageSize.width), column: true) } }
        }

        /// The matte's taps at the centre of image row y.
        func matteRow(_ y: Int) -> GreyPlaneSampling.Tap? {
            matte?.taps((Float(y) + 0.5) / Float(imageSize.height), column: false)
        }

        /// Pixel x's sharp share and grain amount (`row`: the depth map's columns at its row's
        /// centre y + ½), with the matte's share at the pixel (its taps, nil without a matte) as
        /// `membership`.
        @inline(__always)
        func share(x: Int, row: UnsafeMutablePointer<Float>, last: Int,
                   person: (column: GreyPlaneSampling.Tap, row: GreyPlaneSampling.Tap)?) -> (sharp: Float, grain: Float) {
            let (x0, f) = (Int(taps[x]), weights[x])
            let value = row[x0] + (row[min(x0 + 1, last)] - row[x0]) * f
            let entry = shares[Int(min(max(value, 0), 1) * LayeredDepthBlur.steps + 0.5)]
            var sharp = entry.x
            if let matte, let person { sharp = max(sharp, matte.value(at: person.column, person.row, in: matteValues)) }
            return (sharp, (1 - sharp) * entry.y)
        }

        /// `share` of pixels x… x + count − 1 into sharp[0…] and grain[0…] (`matte`: the matte's
        /// taps at those columns and at the row; nil without a matte). Four pixels at a time:
        /// the blend across, the clamp and the table's index are `share`'s operations in its
        /// order, lane by lane, so the values are its own. (One pixel at a time, this loop was
        /// about 5 % of a 24 MP portrait's CPU samples; four at a time it is about 3 %.)
        @inline(__always)
        func shares(from x: Int, count: Int, row: UnsafeMutablePointer<Float>, last: Int,
                    matte person: (columns: UnsafeBufferPointer<GreyPlaneSampling.Tap>, row: GreyPlaneSampling.Tap)?,
                    sharp: UnsafeMutablePointer<Float>, grain: UnsafeMutablePointer<Float>) {
            var j = 0
            while j + 4 <= count {
                let at = x + j
                let f = UnsafeRawPointer(weights.baseAddress! + at).loadUnaligned(as: SIMD4<Float>.self)
                let x0 = UnsafeRawPointer(taps.baseAddress! + at).loadUnaligned(as: SIMD4<Int32>.self)
                let left = SIMD4(row[Int(x0[0])], row[Int(x0[1])], row[Int(x0[2])], row[Int(x0[3])])
                let right = SIMD4(row[min(Int(x0[0]) + 1, last)], row[min(Int(x0[1]) + 1, last)],
                                  row[min(Int(x0[2]) + 1, last)], row[min(Int(x0[3]) + 1, last)])
                let value = left + (right - left) * f
                // min(max(v, 0), 1) of a finite v, then the index's scale and rounding.
                let index = value.replacing(with: 0, where: value .< 0).replacing(with: 1, where: value .> 1)
                    * LayeredDepthBlur.steps + 0.5
                let (e0, e1, e2, e3) = (shares[Int(index[0])], shares[Int(index[1])], shares[Int(index[2])], shares[Int(index[3])])
                var share = SIMD4(e0.x, e1.x, e2.x, e3.x)
                if let matte, let person {
                    for k in 0..<4 {
                        share[k] = max(share[k], matte.value(at: person.columns[j + k], person.row, in: matteValues))
                    }
                }
                UnsafeMutableRawPointer(sharp + j).storeBytes(of: share, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(grain + j).storeBytes(of: (1 - share) * SIMD4(e0.y, e1.y, e2.y, e3.y), as: SIMD4<Float>.self)
                j += 4
            }
            while j < count {
                (sharp[j], grain[j]) = share(x: x + j, row: row, last: last, person: person.map { ($0.columns[j], $0.row) })
                j += 1
            }
        }

        /// The matte's taps at the centres of the blocks from `first` on, `count` of them (nil
        /// without a matte), found once for a run: `membership(block:)`'s u.
        func matteBlockColumns(from first: Int, count: Int, side: Int) -> [GreyPlaneSampling.Tap]? {
            matte.map { matte in
                (first..<(first + count)).map { bx in matte.taps((Float(bx) + 0.5) * Float(side) / Float(imageSize.width), column: true) }
            }
        }

        /// Block bx's layers, at its centre (`row`: the depth map's columns at the blocks' centre
        /// y; `person`: the matte's taps at the block's centre, nil without a matte).
        @inline(__always)
        func membership(block bx: Int, row: UnsafeMutablePointer<Float>, last: Int,
                        person: (column: GreyPlaneSampling.Tap, row: GreyPlaneSampling.Tap)?) -> Membership {
            let (x0, f) = (Int(blockTaps[bx]), blockWeights[bx])
            let value = row[x0] + (row[min(x0 + 1, last)] - row[x0]) * f
            var m = table[Int(min(max(value, 0), 1) * LayeredDepthBlur.steps + 0.5)]
            // The matte keeps a person sharp. Its taps, found once a run and once a block row,
            // are those `PortraitMatte.value(u:v:)` finds at the block's centre, so this is its
            // value, without two divisions and four conversions a block.
            if let matte, let person {
                let person = matte.value(at: person.column, person.row, in: matteValues)
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
        // Each slot's cells added to (a bounding box, the run's cell coordinates), kept as they
        // are added: scanning every slot's cells for it afterwards was 12 % of this function's
        // `perf` samples on a 24 MP portrait.
        let added = UnsafeMutablePointer<(x0: Int, x1: Int, y0: Int, y1: Int)>.allocate(capacity: slots)
        added.initialize(repeating: (.max, .min, .max, .min), count: slots)
        defer { added.deallocate() }
        let (depthW, depthH) = (depth.size.width, depth.size.height)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: depthW)
        defer { row.deallocate() }
        /// The depth map's columns at image height `centre` (pixels from the top; a row's centre is
        /// y + ½): its two rows about it blended once per row, so that a pixel's value costs one
        /// blend across (the same arithmetic wherever it runs).
        func moveRow(to centre: Float) {
            let v = min(max(centre / Float(imageH) * Float(depthH) - 0.5, 0), Float(depthH - 1))
            let y0 = Int(v), y1 = min(Int(v) + 1, depthH - 1), f = v - Float(Int(v))
            depth.values.withUnsafeBufferPointer { d in
                for i in 0..<depthW { row[i] = d[y0 * depthW + i] + (d[y1 * depthW + i] - d[y0 * depthW + i]) * f }
            }
        }
        let one = LumaFixedPoint.one
        // The blocks' linear light, summed down a block's rows for the pixels of the cells downX.
        let (f, x0, x1) = (layout.block, downX.lowerBound * c, min(imageW, downX.upperBound * c))
        let sums = UnsafeMutablePointer<Float>.allocate(capacity: (x1 - x0) * 3)
        defer { sums.deallocate() }
        // The input's columns: image columns outside them read its edge (`NeighbourhoodRows`).
        let (inside0, inside1) = (min(max(x0, offset), x1), max(min(x1, offset + input.width), min(max(x0, offset), x1)))
        let firstBlock = x0 / f, blockCount = (x1 + f - 1) / f - x0 / f
        let matteBlocks = lookup.matteBlockColumns(from: firstBlock, count: blockCount, side: f) ?? []
        for cy in downY {
            for by in stride(from: cy * c, to: min(imageH, cy * c + c), by: f) {
                let rowsIn = min(imageH, by + f) - by
                for y in by..<(by + rowsIn) {
                    let source = input.clampedRow(y)
                    @inline(__always) func take(_ x: Int, from column: Int) {
                        let (p, q) = (source + column * 3, sums + (x - x0) * 3)
                        let (r, g, b) = (DepthCompositeRow.linear(p[0], space), DepthCompositeRow.linear(p[1], space),
                                         DepthCompositeRow.linear(p[2], space))
                        if y == by { q[0] = r; q[1] = g; q[2] = b } else { q[0] += r; q[1] += g; q[2] += b }
                    }
                    for x in x0..<inside0 { take(x, from: 0) }
                    if space == .linear {
                        // The same per value, as one flat loop over the run's values (which the
                        // compiler vectorizes): a third of this step's time was the loop above.
                        let (p, q, count) = (source + (inside0 - offset) * 3, sums + (inside0 - x0) * 3, (inside1 - inside0) * 3)
                        if y == by {
                            for k in 0..<count { q[k] = DepthCompositeRow.linear(p[k], .linear) }
                        } else {
                            for k in 0..<count { q[k] += DepthCompositeRow.linear(p[k], .linear) }
                        }
                    } else {
                        for x in inside0..<inside1 { take(x, from: x - offset) }
                    }
                    for x in inside1..<x1 { take(x, from: input.width - 1) }
                }
                moveRow(to: Float(by) + Float(f) * 0.5)
                let centre = Float(by) + Float(f) * 0.5
                let matteRow = lookup.matte?.taps(centre / Float(imageH), column: false)
                for bx in firstBlock..<(firstBlock + blockCount) {
                    let m = lookup.membership(block: bx, row: row, last: depthW - 1,
                                              person: matteRow.map { (matteBlocks[bx - firstBlock], $0) })
                    if m.sharp >= 1 { continue }
                    var (r, g, b): (Float, Float, Float) = (0, 0, 0)
                    let columnsIn = min(x1, bx * f + f) - bx * f
                    for x in (bx * f)..<(bx * f + columnsIn) {
                        let q = sums + (x - x0) * 3
                        r += q[0]; g += q[1]; b += q[2]
                    }
                    let count = Float(rowsIn * columnsIn)
                    let (ax, ay) = (bx * f / c - downX.lowerBound, cy - downY.lowerBound)
                    let at = (ay * dw + ax) * 4
                    @inline(__always) func add(_ slot: Int, _ weight: Float) {
                        let q = cells(slot) + at
                        let box = added[slot]
                        added[slot] = (min(box.x0, ax), max(box.x1, ax), min(box.y0, ay), max(box.y1, ay))
                        let w = weight * one
                        // Non-negative: adding ½ and truncating rounds (roundf is a call).
                        q[0] &+= Int32(w * r + 0.5); q[1] &+= Int32(w * g + 0.5)
                        q[2] &+= Int32(w * b + 0.5); q[3] &+= Int32(w * count + 0.5)
                    }
                    add(m.first, m.firstWeight)
                    if m.secondWeight > 0 { add(m.second, m.secondWeight) }
                }
            }
        }
        // Each slot's cells added to (a bounding box, grid coordinates; nil: none). A layer
        // covers a band of depth, so a small part of the image: its box passes and its
        // compositing run over that box grown by its blur only. The cells outside are 0, and a
        // box of zeros is zero and a zero layer composites to what was there, exactly (so a
        // cell inside the box whose additions rounded to 0 changes nothing either).
        var extent = [(x: ClosedRange<Int>, y: ClosedRange<Int>)?](repeating: nil, count: slots)
        for slot in 0..<slots {
            guard let q = cellsOf[slot] else { continue }
            let (x0, x1, y0, y1) = added[slot]
            guard x0 <= x1 else { continue }
            extent[slot] = ((downX.lowerBound + x0)...(downX.lowerBound + x1), (downY.lowerBound + y0)...(downY.lowerBound + y1))
            // The cells' sums made means: a float reciprocal instead of an integer division per
            // value (the sums stay under 2²⁴, exact in a Float; any fixed arithmetic keeps the
            // run's independence).
            for cy in y0...y1 {
                let rowsIn = min(imageH, (downY.lowerBound + cy + 1) * c) - (downY.lowerBound + cy) * c
                for cx in x0...x1 {
                    let p = q + (cy * dw + cx) * 4
                    if p[0] | p[1] | p[2] | p[3] == 0 { continue }
                    let inverse = 1 / Float(rowsIn * (min(imageW, (downX.lowerBound + cx + 1) * c) - (downX.lowerBound + cx) * c))
                    for k in 0..<4 { p[k] = Int32(Float(p[k]) * inverse + 0.5) }
                }
            }
        }

        // 2. Each slot blurred (two boxes across, two down) over the cells its result reaches,
        // then the behind and front layers composited far to near over the needed cells.
        let widest = dw + 2 * reach
        let across = UnsafeMutablePointer<Int32>.allocate(capacity: widest * 4)
        let across2 = UnsafeMutablePointer<Int32>.allocate(capacity: dh * nw * 4)
        let downward = UnsafeMutablePointer<Int32>.allocate(capacity: (nh + 2 * reach) * nw * 4)
        let blurred = UnsafeMutablePointer<Int32>.allocate(capacity: nh * nw * 4)
        let behind = UnsafeMutablePointer<Float>.allocate(capacity: nh * nw * 4)
        let front = UnsafeMutablePointer<Float>.allocate(capacity: nh * nw * 4)
        behind.initialize(repeating: 0, count: nh * nw * 4)
        front.initialize(repeating: 0, count: nh * nw * 4)
        defer { across.deallocate(); across2.deallocate(); downward.deallocate(); blurred.deallocate(); behind.deallocate(); front.deallocate() }
        let scale = 1 / one
        var (hasBehind, hasFront) = (false, false)
        for slot in 0..<slots {
            guard let extent = extent[slot] else { continue }
            let box = layout.rungs[slot < n ? n - 1 - slot : slot - n]
            let (b1, b2) = (box.first, box.second)
            let source = cellsOf[slot]!
            // The needed cells this layer reaches, and the cells their passes read.
            let (x0, x1) = (max(needX.lowerBound, extent.x.lowerBound - b1 - b2), min(needX.upperBound, extent.x.upperBound + b1 + b2 + 1))
            let (y0, y1) = (max(needY.lowerBound, extent.y.lowerBound - b1 - b2), min(needY.upperBound, extent.y.upperBound + b1 + b2 + 1))
            guard x0 < x1, y0 < y1 else { continue }
            let (outX, outY) = (x0..<x1, y0..<y1)
            if slot < n { hasBehind = true } else { hasFront = true }
            let mid = max(0, outX.lowerBound - b2)..<min(gridW, outX.upperBound + b2)
            let midY = max(0, outY.lowerBound - b2)..<min(gridH, outY.upperBound + b2)
            let readY = max(0, midY.lowerBound - b1)..<min(gridH, midY.upperBound + b1)
            // Across, for the rows the passes down read (rows without cells: zeros).
            for gy in readY {
                let (cy, row) = (gy - downY.lowerBound, across2 + (gy - downY.lowerBound) * nw * 4)
                guard extent.y.contains(gy) else {
                    (row + (outX.lowerBound - needX.lowerBound) * 4).update(repeating: 0, count: outX.count * 4)
                    continue
                }
                Self.box(source + cy * dw * 4, from: downX.lowerBound, step: 4, into: across,
                         from: mid.lowerBound, step: 4, over: mid, half: b1, count: gridW)
                Self.box(across, from: mid.lowerBound, step: 4, into: row,
                         from: needX.lowerBound, step: 4, over: outX, half: b2, count: gridW)
            }
            // Down, for the columns reached.
            for gx in outX {
                let cx = gx - needX.lowerBound
                Self.box(across2 + cx * 4, from: downY.lowerBound, step: nw * 4, into: downward + cx * 4,
                         from: midY.lowerBound, step: nw * 4, over: midY, half: b1, count: gridH)
                Self.box(downward + cx * 4, from: midY.lowerBound, step: nw * 4, into: blurred + cx * 4,
                         from: needY.lowerBound, step: nw * 4, over: outY, half: b2, count: gridH)
            }
            let target = slot < n ? behind : front
            for gy in outY {
                for gx in outX {
                    let i = ((gy - needY.lowerBound) * nw + gx - needX.lowerBound) * 4
                    let (q, t) = (blurred + i, target + i)
                    let a = Float(q[3]) * scale, keep = 1 - a
                    t[0] = Float(q[0]) * scale + keep * t[0]; t[1] = Float(q[1]) * scale + keep * t[1]
                    t[2] = Float(q[2]) * scale + keep * t[2]; t[3] = a + keep * t[3]
                }
            }
        }

        // 3. Per pixel: behind layers, the sharp layer, the front layers; divided by the coverage.
        // Each column's two cells (as offsets into a row of the planes) and weight toward the second.
        let taps = columns.map { x in
            let (c0, c1, f) = Self.bilinear(offset + x, cell: c, count: gridW)
            return (Int32((c0 - needX.lowerBound) * 4), Int32((c1 - needX.lowerBound) * 4), f)
        }
        let matteColumns = lookup.matteColumns((offset + columns.lowerBound)..<(offset + columns.upperBound)) ?? []
        let grainColumns = UnsafeMutablePointer<Float>.allocate(capacity: columns.count + 1)
        let noise = UnsafeMutablePointer<Float>.allocate(capacity: 2 * (columns.count + 1))
        var (noiseAbove, noiseBelow) = (noise, noise + columns.count + 1)
        DepthBlurGrain.noiseRow(y: rows.lowerBound, x: offset + columns.lowerBound, count: columns.count + 1, into: noiseAbove)
        // Each column's sharp share and grain amount, for a row.
        let shares = UnsafeMutablePointer<Float>.allocate(capacity: 2 * columns.count)
        let (sharp, grain) = (shares, shares + columns.count)
        let (behindRow, frontRow) = (UnsafeMutablePointer<Float>.allocate(capacity: nw * 4), UnsafeMutablePointer<Float>.allocate(capacity: nw * 4))
        defer { grainColumns.deallocate(); noise.deallocate(); shares.deallocate(); behindRow.deallocate(); frontRow.deallocate() }
        taps.withUnsafeBufferPointer { taps in
        for y in rows {
            moveRow(to: Float(y) + 0.5)
            DepthBlurGrain.noiseRow(y: y + 1, x: offset + columns.lowerBound, count: columns.count + 1, into: noiseBelow)
            DepthBlurGrain.columnSums(upper: noiseAbove, lower: noiseBelow, count: columns.count + 1, into: grainColumns)
            swap(&noiseAbove, &noiseBelow)
            matteColumns.withUnsafeBufferPointer { matteColumns in
                lookup.shares(from: offset + columns.lowerBound, count: columns.count, row: row, last: depthW - 1,
                              matte: lookup.matteRow(y).map { (matteColumns, $0) }, sharp: sharp, grain: grain)
            }
            let (cy0, cy1, fy) = Self.bilinear(y, cell: c, count: gridH)
            let (r0, r1) = ((cy0 - needY.lowerBound) * nw * 4, (cy1 - needY.lowerBound) * nw * 4)
            // The planes' two cell rows blended down once per row: a pixel then blends across only.
            // A plane no layer reached is all zeros and is not read.
            @inline(__always) func blend(_ plane: UnsafeMutablePointer<Float>, into blended: UnsafeMutablePointer<Float>) {
                for k in 0..<(nw * 4) { blended[k] = plane[r0 + k] + (plane[r1 + k] - plane[r0 + k]) * fy }
            }
            if hasBehind { blend(behind, into: behindRow) }
            if hasFront { blend(front, into: frontRow) }
            DepthCompositeRow(source: input.row(y), target: output(y), sharp: sharp, grainAmount: grain,
                              grainColumns: grainColumns, behind: hasBehind ? behindRow : nil, front: hasFront ? frontRow : nil,
                              taps: taps, space: space).run(columns: columns)
        }
        }
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
