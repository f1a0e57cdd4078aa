import Foundation
import Synchronization

/// Consecutive per-colour chunk steps (`ChunkStep`s that read a colour alone: SmartTone's global
/// stages, SmartColor, SmartBlackAndWhite) after a stored-frame step that runs per pixel, read
/// from a table of the run on a 33³ grid, by tetrahedral interpolation.
///
/// Why: before such a step the colour memo serves each distinct colour once; after SmartTone's
/// local light every pixel is a colour of its own, and the Smart models' per-colour arithmetic was
/// 44 % of a Tone + Color + B&W render's samples (docs/benchmark.md, fifteenth part). A table read
/// is four loads and a dozen operations a pixel, whatever the run holds.
///
/// An approximation, held within 1 code of the steps themselves (docs/spec/modern-adjustments.md):
/// - In the linear space the grid's axes and the stored values are square roots, in the sRGB
///   space the values themselves (`Axes`).
/// - Each cell is read from the table and computed at seven points (its centre and its six
///   tetrahedra's centroids); a cell whose reading is more than `tolerance` of a code from the
///   run's own result at any of them gets its first corner NaN, so that every read touching it
///   is NaN and its pixels are computed instead.
/// - Colours outside [0, 1] (and NaN) are computed; so is the whole run on an image of fewer than
///   `pixelsPerEntry` pixels a table entry (the table would cost more than it saves), and a run of
///   fewer than `fewestSteps` kernels (SmartBlackAndWhite alone through a table left pixels 2
///   codes off, and SmartTone's global stages alone gained nothing that showed).
/// The computed pixels are the steps' own bits.
struct TabulatedColourRun: ChunkStep {
    /// The run's kernels, in chain order (each reads a colour alone).
    let steps: [any ChunkStep]
    let space: WorkingSpace
    /// `steps`, as the computed pixels run them.
    private let pass: ChunkPass
    private let table: ColourRunTable

    /// Nodes an axis: 32 cells.
    static var gridPoints: Int { 33 }
    /// Entries in the table.
    static var entries: Int { gridPoints * gridPoints * gridPoints }
    /// The most a cell's checked points may read off the run's result, in 8-bit codes of the encoded value.
    static var tolerance: Float { 0.35 }
    /// Pixels an entry below which the run is computed on every pixel.
    static var pixelsPerEntry: Int { 8 }
    /// Kernels below which the run is computed on every pixel.
    static var fewestSteps: Int { 2 }

    init(_ steps: [any ChunkStep], space: WorkingSpace) {
        (self.steps, self.space) = (steps, space)
        pass = ChunkPass(steps)
        table = ColourRunTable()
    }

    /// Two lists of chunk steps as one pass: a run ending the first and one starting the second
    /// become one run.
    static func joined(_ previous: [any ChunkStep], _ next: [any ChunkStep]) -> [any ChunkStep] {
        guard let last = previous.last as? TabulatedColourRun, let first = next.first as? TabulatedColourRun,
              last.space == first.space else { return previous + next }
        return previous.dropLast() + [TabulatedColourRun(last.steps + first.steps, space: last.space)] + next.dropFirst()
    }

    /// Whether a render of an image of `imageSize` reads the table.
    func readsTable(imageSize: PixelSize) -> Bool {
        steps.count >= Self.fewestSteps && imageSize.width * imageSize.height >= Self.pixelsPerEntry * Self.entries
    }

    /// Alone in its pass: the chunk form on each chunk of the row.
    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        RGBPlanes.forEachChunk(row: row, count: count) { chunk, start in apply(chunk, x: x0 + start, y: y, imageSize: imageSize) }
    }

    func apply(_ chunk: RGBPlanes, x: Int, y: Int, imageSize: PixelSize) {
        guard readsTable(imageSize: imageSize) else { return compute(chunk) }
        let entries = table.entries { Pieces(self) }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: chunk.groups) { missed in
            let misses: Int
            // One loop for each kind of table and axis, each with its reads inlined and no test
            // of either a group (measured: a loop testing both was 36 % of a Tone + Color + B&W
            // render's samples).
            switch (entries.grey, space) {
            case (true, .linear): misses = Self.read(GreyEntries(entries), SquareRootAxes.self, chunk, missed.baseAddress!)
            case (true, .srgb): misses = Self.read(GreyEntries(entries), EncodedAxes.self, chunk, missed.baseAddress!)
            case (false, .linear): misses = Self.read(ColourEntries(entries), SquareRootAxes.self, chunk, missed.baseAddress!)
            case (false, .srgb): misses = Self.read(ColourEntries(entries), EncodedAxes.self, chunk, missed.baseAddress!)
            }
            if misses > 0 { compute(groups: missed.baseAddress!, count: misses, of: chunk) }
        }
    }

    /// Reads each group of `chunk` whose colours lie in [0, 1] and whose cell is not marked from
    /// `table`, and lists the others' indices in `missed`; returns how many it listed.
    @inline(never)
    private static func read<T: TableEntries, A: Axes>(_ table: T, _ axes: A.Type, _ chunk: RGBPlanes,
                                                       _ missed: UnsafeMutablePointer<Int>) -> Int {
        var misses = 0
        for i in 0..<chunk.groups {
            let (r, g, b) = (chunk.r[i], chunk.g[i], chunk.b[i])
            let inRange = (r .>= 0) .& (r .<= 1) .& (g .>= 0) .& (g .<= 1) .& (b .>= 0) .& (b .<= 1)
            guard all(inRange) else { missed[misses] = i; misses += 1; continue }
            let read = table.read(Tetrahedra(A.position(r), A.position(g), A.position(b)))
            let (vr, vg, vb) = (A.value(read.0), A.value(read.1), A.value(read.2))
            let sum = vr + vg + vb
            guard all(sum .== sum) else { missed[misses] = i; misses += 1; continue }   // a marked cell
            (chunk.r[i], chunk.g[i], chunk.b[i]) = (vr, vg, vb)
        }
        return misses
    }

    // MARK: reading

    /// A group's place in the grid: each lane's cell (the index of its first corner), the strides to
    /// the second and third corners of the tetrahedron holding it, and the four corners' weights.
    fileprivate struct Tetrahedra {
        let base: LaneBits, second: LaneBits, third: LaneBits
        let w0: Lanes, w1: Lanes, w2: Lanes, w3: Lanes
        /// From the first corner to the last, (1, 1, 1) cells on.
        static var across: Int32 { Int32(gridPoints * gridPoints + gridPoints + 1) }

        /// From the grid coordinates (0 … 32) of four colours.
        @_transparent
        init(_ pr: Lanes, _ pg: Lanes, _ pb: Lanes) {
            let last = LaneBits(repeating: Int32(gridPoints - 2))
            var (ir, ig, ib) = (LaneMath.truncate(pr), LaneMath.truncate(pg), LaneMath.truncate(pb))
            ir = ir.replacing(with: last, where: ir .> last)
            ig = ig.replacing(with: last, where: ig .> last)
            ib = ib.replacing(with: last, where: ib .> last)
            let (fr, fg, fb) = (pr - LaneMath.float(ir), pg - LaneMath.float(ig), pb - LaneMath.float(ib))
            let (sr, sg) = (Int32(gridPoints * gridPoints), Int32(gridPoints))
            base = ir &* sr &+ ig &* sg &+ ib
            // The tetrahedron's path from the first corner: along the axis of the largest fraction,
            // then the middle one, then the smallest (ties: the largest the earliest axis, the
            // smallest the latest, so the two differ).
            let rLargest = (fr .>= fg) .& (fr .>= fb), gLargest = .!rLargest .& (fg .>= fb)
            let bSmallest = (fb .<= fr) .& (fb .<= fg), gSmallest = .!bSmallest .& (fg .<= fr)
            second = LaneBits(repeating: 1).replacing(with: sg, where: gLargest).replacing(with: sr, where: rLargest)
            let smallest = LaneBits(repeating: sr).replacing(with: sg, where: gSmallest).replacing(with: 1, where: bSmallest)
            third = LaneBits(repeating: Self.across) &- smallest
            let high = Lanes.maximum(fr, Lanes.maximum(fg, fb)), low = Lanes.minimum(fr, Lanes.minimum(fg, fb))
            let middle = fr + fg + fb - high - low
            (w0, w1, w2, w3) = (1 - high, high - middle, middle - low, low)
        }
    }

    // MARK: computing

    /// The steps themselves on a chunk.
    private func compute(_ chunk: RGBPlanes) {
        pass.apply(chunk, x: 0, y: 0, imageSize: PixelSize(width: 1, height: 1))
    }

    /// The steps themselves on `count` of `chunk`'s groups, gathered into a chunk of their own.
    private func compute(groups: UnsafePointer<Int>, count: Int, of chunk: RGBPlanes) {
        withUnsafeTemporaryAllocation(of: Lanes.self, capacity: 3 * count) { scratch in
            let base = scratch.baseAddress!
            let gathered = RGBPlanes(r: base, g: base + count, b: base + 2 * count, groups: count,
                                     count: count * Lanes.scalarCount)
            for k in 0..<count {
                let i = groups[k]
                (gathered.r[k], gathered.g[k], gathered.b[k]) = (chunk.r[i], chunk.g[i], chunk.b[i])
            }
            compute(gathered)
            for k in 0..<count {
                let i = groups[k]
                (chunk.r[i], chunk.g[i], chunk.b[i]) = (gathered.r[k], gathered.g[k], gathered.b[k])
            }
        }
    }

    /// The steps on `count` interleaved RGB colours, in place, a chunk at a time.
    fileprivate func compute(_ row: UnsafeMutablePointer<Float>, count: Int) {
        RGBPlanes.forEachChunk(row: row, count: count) { chunk, _ in compute(chunk) }
    }

    // MARK: building

    /// The run on every node, each cell checked, as a table's pieces (`ColourRunTable` runs them
    /// on whichever threads need the table).
    ///
    /// Each cell is checked at its centre and at its six tetrahedra's centroids, where the table
    /// reads the mean of two corners (the first and last: every tetrahedron's weights at the
    /// centre are ½, 0, 0, ½) and of a tetrahedron's four. The centroid of the one whose path runs
    /// along axes a, b, c lies at fractions ¾, ½, ¼ on them. (The centre alone let 6 codes
    /// through on random colours in a SmartColor chain; docs/benchmark.md, fifteenth part.) A
    /// cell marked by its checks gets its first corner NaN once every plane is checked, since the
    /// checks read the corners as computed (`ColourRunTable`).
    fileprivate struct Pieces: TablePieces {
        let run: TabulatedColourRun
        /// The axes' working values on a grid of quarter cells.
        private let quarters: [Float]
        /// The quarters of a cell at which each check reads it.
        private static var checks: [SIMD3<Int>] {
            [SIMD3(2, 2, 2), SIMD3(3, 2, 1), SIMD3(3, 1, 2), SIMD3(2, 3, 1), SIMD3(1, 3, 2), SIMD3(2, 1, 3), SIMD3(1, 2, 3)]
        }
        /// From the first corner, the second and third corners of each check's tetrahedron (the
        /// centre's two corners are the first and last).
        private let corners: [SIMD2<Int>]
        /// Each check's weights on its four corners: ½, 0, 0, ½ at the centre, each centroid's ¼.
        private let weights: [Lanes]

        init(_ run: TabulatedColourRun) {
            self.run = run
            let n = TabulatedColourRun.gridPoints, cells = n - 1
            quarters = (0...(4 * cells)).map { q in
                let s = Float(q) / Float(4 * cells)
                return run.space == .linear ? SquareRootAxes.node(s) : EncodedAxes.node(s)
            }
            let strides = SIMD3(n * n, n, 1)
            corners = Self.checks.map { q in
                let order = [0, 1, 2].sorted { q[$0] > q[$1] }
                return SIMD2(strides[order[0]], strides[order[0]] + strides[order[1]])
            }
            weights = Self.checks.indices.map { $0 == 0 ? Lanes(0.5, 0, 0, 0.5) : Lanes(repeating: 0.25) }
        }

        var nodesPerAxis: Int { TabulatedColourRun.gridPoints }

        // Each piece calls its generic form with the space's axes named, so that the compiler
        // makes a copy for each with the axes' arithmetic inlined: `ColourRunTable` holds the
        // pieces as `any TablePieces`, and a generic `Pieces<A>` ran unspecialised, each check's
        // `codes(between:_:)` a call through the axes' witness table (`perf`: 6 ms of CPU a
        // render in that call alone).

        func nodes(plane i: Int) -> (values: [Lanes], grey: Bool) {
            run.space == .linear ? nodes(plane: i, SquareRootAxes.self) : nodes(plane: i, EncodedAxes.self)
        }

        func marked(cellPlane i: Int, nodes values: UnsafePointer<Lanes>) -> [Int] {
            run.space == .linear ? marked(cellPlane: i, nodes: values, SquareRootAxes.self)
                : marked(cellPlane: i, nodes: values, EncodedAxes.self)
        }

        private func nodes<A: Axes>(plane i: Int, _ axes: A.Type) -> (values: [Lanes], grey: Bool) {
            let n = nodesPerAxis
            var nodes = [Float](repeating: 0, count: n * n * 3)
            var grey = true
            let values = nodes.withUnsafeMutableBufferPointer { p in
                var o = 0
                for j in 0..<n { for k in 0..<n {
                    (p[o], p[o + 1], p[o + 2]) = (quarters[4 * i], quarters[4 * j], quarters[4 * k])
                    o += 3
                } }
                run.compute(p.baseAddress!, count: n * n)
                return (0..<(n * n)).map { e in
                    let v = Lanes(p[3 * e], p[3 * e + 1], p[3 * e + 2], 0)
                    if v[0] != v[1] || v[1] != v[2] { grey = false }
                    return A.stored(v)
                }
            }
            return (values, grey)
        }

        /// A plane of cells' 7 168 points at once (86 KB).
        private func marked<A: Axes>(cellPlane i: Int, nodes values: UnsafePointer<Lanes>, _ axes: A.Type) -> [Int] {
            let n = nodesPerAxis, cells = n - 1, checks = Self.checks
            let across = Int(Tetrahedra.across)
            var points = [Float](repeating: 0, count: cells * cells * checks.count * 3)
            var marked: [Int] = []
            points.withUnsafeMutableBufferPointer { p in
                var o = 0
                for j in 0..<cells { for k in 0..<cells {
                    for q in checks {
                        (p[o], p[o + 1], p[o + 2]) = (quarters[4 * i + q.x], quarters[4 * j + q.y], quarters[4 * k + q.z])
                        o += 3
                    }
                } }
                run.compute(p.baseAddress!, count: cells * cells * checks.count)
                var exact = UnsafePointer(p.baseAddress!)
                for j in 0..<cells { for k in 0..<cells {
                    let first = values + (i * n + j) * n + k
                    let (v0, v3) = (first[0], first[across])
                    var worst = Lanes()
                    for c in checks.indices {
                        let (second, third) = (first[corners[c][0]], first[corners[c][1]])
                        let w = weights[c]
                        var read: Lanes = w[0] * v0
                        read += w[1] * second
                        read += w[2] * third
                        read += w[3] * v3
                        let computed = A.stored(Lanes(exact[0], exact[1], exact[2], 0))
                        exact += 3
                        worst = Lanes.maximum(worst, A.codes(between: read, computed))
                    }
                    if max(worst[0], worst[1], worst[2]) > TabulatedColourRun.tolerance { marked.append(first - values) }
                } }
            }
            return marked
        }
    }
}

/// How a working space lies on the grid's axes and is stored in its entries: everything the run
/// does differently in the two spaces.
private protocol Axes {
    /// A place on an axis (0 … 1, the grid's nodes at its 32nds) → the working value there.
    static func node(_ s: Float) -> Float
    /// Working values (0 … 1) → grid coordinates (0 … 32).
    static func position(_ v: Lanes) -> Lanes
    /// A working value → as stored.
    static func stored(_ v: Lanes) -> Lanes
    /// A stored value → the working value.
    static func value(_ q: Lanes) -> Lanes
    /// At most how many 8-bit codes of the output two stored colours lie apart, each channel.
    static func codes(between a: Lanes, _ b: Lanes) -> Lanes
}

extension Axes {
    /// 255·|a − b|, a NaN on either side as far apart as can be.
    @inline(__always)
    fileprivate static func storedApart(_ a: Lanes, _ b: Lanes) -> Lanes {
        let d = a - b
        return (Lanes.maximum(d, -d) * 255).replacing(with: .infinity, where: d .!= d)
    }
}

/// The linear space's: square roots (the node at i holds (i/32)², a value q is q·|q|), so that
/// the grid is about as fine in the shadows as the sRGB codes are.
private enum SquareRootAxes: Axes {
    static func node(_ s: Float) -> Float { s * s }
    @_transparent
    static func position(_ v: Lanes) -> Lanes { v.squareRoot() * Float(TabulatedColourRun.gridPoints - 1) }
    /// The signed square root.
    @inline(__always)
    static func stored(_ v: Lanes) -> Lanes {
        let root = Lanes.maximum(v, -v).squareRoot()
        return root.replacing(with: -root, where: v .< 0)
    }
    @_transparent
    static func value(_ q: Lanes) -> Lanes { q * q.replacing(with: -q, where: q .< 0) }

    /// The encoded value's slope in q, g(q) = d enc(q²)/dq, is 25.84·q below the curve's kink
    /// (q ≤ 0.05595) and 0.87917·q^(−1/6) above it, so the codes differ by at most
    /// 255·|a − b|·g(ξ) for some ξ between a and b: here with g's largest value on the 64ths of
    /// [0, 1] that a and b lie in (`slopes`), a bound no more than 2^(1/6) ≈ 1.12 over the true
    /// slope, without the `pow` an encoding costs (two encodings a checked point were 21 ms of a
    /// render's table, 7 points a cell).
    @inline(__always)
    static func codes(between a: Lanes, _ b: Lanes) -> Lanes {
        var slope = Lanes()
        slopes.withUnsafeBufferPointer { slopes in
            let bins = Float(slopes.count), last = slopes.count - 1
            func bin(_ q: Float) -> Int { abs(q) < 1 ? Int(abs(q) * bins) : last }   // NaN too: the last
            for c in 0..<3 {
                let (i, j) = (bin(a[c]), bin(b[c]))
                var largest = slopes[i]
                for bin in min(i, j)...max(i, j) { largest = max(largest, slopes[bin]) }
                slope[c] = largest
            }
        }
        return storedApart(a, b) * slope
    }

    /// g's largest value on each 64th of [0, 1] (see `codes(between:_:)`): g rises to the kink and
    /// falls after it, so it is largest at an end of the bin, or at the kink in the bin that holds
    /// it. Values past 1 clamp to 1 in the output and lie in the last bin.
    private static let slopes: [Float] = (0..<64).map { bin in
        func g(_ q: Double) -> Double { q <= 0.055_953 ? 25.84 * q : 1.055 * 5 / 6 * pow(q, -1.0 / 6) }
        let (low, high) = (Double(bin) / 64, Double(bin + 1) / 64)
        var largest = max(g(low), g(high))
        if low <= 0.055_953 && 0.055_953 <= high { largest = max(largest, g(0.055_953)) }
        return Float(largest * 1.0001)
    }
}

/// The sRGB space's: the values themselves, which are the encoded ones.
private enum EncodedAxes: Axes {
    static func node(_ s: Float) -> Float { s }
    @_transparent
    static func position(_ v: Lanes) -> Lanes { v * Float(TabulatedColourRun.gridPoints - 1) }
    @_transparent
    static func stored(_ v: Lanes) -> Lanes { v }
    @_transparent
    static func value(_ q: Lanes) -> Lanes { q }
    @inline(__always)
    static func codes(between a: Lanes, _ b: Lanes) -> Lanes { storedApart(a, b) }
}

/// A table's entries, read at four colours' tetrahedra: their stored values, as channels.
private protocol TableEntries {
    func read(_ at: TabulatedColourRun.Tetrahedra) -> (Lanes, Lanes, Lanes)
}

/// One `Float` a node: every node's result is grey.
private struct GreyEntries: TableEntries {
    let t: UnsafePointer<Float>

    init(_ entries: ColourRunTable.Entries) { t = UnsafePointer(entries.values.assumingMemoryBound(to: Float.self)) }

    @_transparent
    func read(_ at: TabulatedColourRun.Tetrahedra) -> (Lanes, Lanes, Lanes) {
        var (c0, c1, c2, c3) = (Lanes(), Lanes(), Lanes(), Lanes())
        let across = Int(TabulatedColourRun.Tetrahedra.across)
        for lane in 0..<Lanes.scalarCount {
            let p = t + Int(at.base[lane])
            (c0[lane], c1[lane], c2[lane], c3[lane]) = (p[0], p[Int(at.second[lane])], p[Int(at.third[lane])], p[across])
        }
        let grey = at.w0 * c0 + at.w1 * c1 + at.w2 * c2 + at.w3 * c3
        return (grey, grey, grey)
    }
}

/// (r, g, b, 0) a node.
private struct ColourEntries: TableEntries {
    let t: UnsafePointer<Lanes>

    init(_ entries: ColourRunTable.Entries) { t = UnsafePointer(entries.values.assumingMemoryBound(to: Lanes.self)) }

    @_transparent
    func read(_ at: TabulatedColourRun.Tetrahedra) -> (Lanes, Lanes, Lanes) {
        let across = Int(TabulatedColourRun.Tetrahedra.across)
        @_transparent
        func pixel(_ lane: Int) -> Lanes {
            let p = t + Int(at.base[lane])
            return at.w0[lane] * p[0] + at.w1[lane] * p[Int(at.second[lane])] + at.w2[lane] * p[Int(at.third[lane])]
                + at.w3[lane] * p[across]
        }
        // Four pixels' (r, g, b, 0) as three channels' four pixels.
        let (p0, p1, p2, p3) = (pixel(0), pixel(1), pixel(2), pixel(3))
        return (Lanes(p0[0], p1[0], p2[0], p3[0]), Lanes(p0[1], p1[1], p2[1], p3[1]), Lanes(p0[2], p1[2], p2[2], p3[2]))
    }
}
