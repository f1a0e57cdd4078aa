/// Work on the stored image where a pixel's result reads the pixels within `radius` rows and
/// columns of it (Sharpen, Definition, Noise Reduction, DepthEffect): the kernel of a step that reads
/// each pixel's neighbourhood.
///
/// The whole-image reference runs it once on the whole stored image; the streaming renderer runs
/// it on a window of working rows, `radius` rows ahead of what the sampler needs
/// (`Render/NeighbourhoodPass.swift`), the decoded region grown by the chain's radii
/// (`RenderPlan.decodeRegion`). Rows and columns beyond the rows given are clamped to their edges,
/// so a pixel whose neighbourhood lies inside the rows given (or reaches the image's own edges)
/// comes out the same wherever it is computed, provided `apply` gives each pixel a result that
/// depends only on its neighbourhood's values — never on where a run starts: that is what keeps the
/// streaming renderer bit-identical to the reference pipeline.
protocol NeighbourhoodKernel: ColourKernel {
    /// The most rows and columns either side of a pixel its result reads, in decoded pixels (≥ 1).
    var radius: Int { get }
    /// Writes rows `rows` (image rows, inside `input.rows`), columns `columns` (indices into the
    /// rows, inside 0..<input.width) into `output(y)` (RGB rows laid out like the input's).
    func apply(rows: Range<Int>, columns: Range<Int>, input: NeighbourhoodRows,
               output: (Int) -> UnsafeMutablePointer<Float>)
}

/// The working rows a neighbourhood kernel reads: image rows `rows`, each `width` RGB pixels from
/// image column `columnOffset`.
struct NeighbourhoodRows {
    let rows: Range<Int>
    let width: Int
    let columnOffset: Int
    let row: (Int) -> UnsafeMutablePointer<Float>

    @inline(__always)
    func clampedRow(_ y: Int) -> UnsafeMutablePointer<Float> { row(min(max(y, rows.lowerBound), rows.upperBound - 1)) }
}

extension NeighbourhoodKernel {
    /// In chain order on the stored image, on the rows as the stored-frame steps before it leave
    /// them; the stored-frame steps after it, up to the next, run per pixel after it
    /// (`ColourProgram.addNeighbourhood(_:)`).
    func join(_ program: inout ColourProgram, onOutput: Bool) { program.addNeighbourhood(self) }

    /// Runs the kernel on the whole of `image` (the reference pipeline), split over the cores by
    /// columns (any split gives the same bits).
    func apply(to image: inout RGBFloatImage) {
        let size = image.size
        var output = RGBFloatImage(size: size, pixels: [Float](repeating: 0, count: size.pixelCount * 3))
        image.pixels.withUnsafeMutableBufferPointer { source in
            output.pixels.withUnsafeMutableBufferPointer { target in
                let (s, t) = (source.baseAddress!, target.baseAddress!)
                let input = NeighbourhoodRows(rows: 0..<size.height, width: size.width, columnOffset: 0) {
                    s + $0 * size.width * 3
                }
                let parts = min(ChunkedRowPipeline.workers * 2, max(1, size.width / 64))
                ParallelRows.forEachPart(of: 0..<size.width, parts: parts) { _, columns in
                    apply(rows: 0..<size.height, columns: columns, input: input) { t + $0 * size.width * 3 }
                }
            }
        }
        image = output
    }
}

// MARK: luminance neighbourhoods

/// A neighbourhood kernel that changes a pixel's lightness from its neighbourhood's statistics
/// (docs/spec/modern-adjustments.md §9): the lightness is L = √Y of the pixel's linear-light
/// luminance Y (Rec. 709 weights), a perceptual scale on which a box's mean and variance are
/// taken; the kernel gives a new L′, and the pixel's linear RGB is scaled by (L′/L)², which keeps
/// its chromaticity. The box sums are taken in 32-bit fixed point (L·2¹⁴) with integer sums,
/// which are exact whatever order they are added in — so a pixel's statistics are the same in a
/// window of rows as in the whole image.
protocol LumaNeighbourhoodKernel: NeighbourhoodKernel {
    var space: WorkingSpace { get }
    /// Whether `newLightness` reads the variance (the sums of squares cost a second pass).
    var needsVariance: Bool { get }
    /// The new lightness of a pixel of lightness `l` whose (2·radius + 1)² box has mean `mean`
    /// and variance `variance` (0 unless `needsVariance`).
    func newLightness(_ l: Float, mean: Float, variance: Float) -> Float
}

enum LumaFixedPoint {
    static let one: Float = 16384
    /// The largest lightness kept (√4: four times white).
    static let limit: Float = 2

    @inline(__always)
    static func lightness(_ r: Float, _ g: Float, _ b: Float, space: WorkingSpace) -> Float {
        let y = space == .linear ? 0.2126 * r + 0.7152 * g + 0.0722 * b
            : 0.2126 * SRGBTransfer.decode(r) + 0.7152 * SRGBTransfer.decode(g) + 0.0722 * SRGBTransfer.decode(b)
        return max(0, y).squareRoot()
    }

    @inline(__always)
    static func fixed(_ l: Float) -> Int32 { Int32((min(l, limit) * one).rounded()) }

    /// The pixel with lightness `l` given lightness `new`: linear RGB scaled by (new/l)², or, for a
    /// black pixel, a grey of that lightness.
    @inline(__always)
    static func relight(_ p: UnsafeMutablePointer<Float>, from l: Float, to new: Float, space: WorkingSpace) {
        let target = max(0, new)
        if space == .linear {
            if l > 1e-4 {
                let k = (target / l) * (target / l)
                p[0] *= k; p[1] *= k; p[2] *= k
            } else {
                let grey = target * target
                p[0] += grey; p[1] += grey; p[2] += grey
            }
        } else {
            var (r, g, b) = (SRGBTransfer.decode(p[0]), SRGBTransfer.decode(p[1]), SRGBTransfer.decode(p[2]))
            if l > 1e-4 {
                let k = (target / l) * (target / l)
                r *= k; g *= k; b *= k
            } else {
                let grey = target * target
                r += grey; g += grey; b += grey
            }
            p[0] = SRGBTransfer.encode(r); p[1] = SRGBTransfer.encode(g); p[2] = SRGBTransfer.encode(b)
        }
    }
}

extension LumaNeighbourhoodKernel {
    func apply(rows: Range<Int>, columns: Range<Int>, input: NeighbourhoodRows,
               output: (Int) -> UnsafeMutablePointer<Float>) {
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let r = radius, width = input.width
        // Columns whose lightness the horizontal sums read (clamped to the rows' own columns).
        let c0 = max(0, columns.lowerBound - r), c1 = min(width, columns.upperBound + r)
        let span = c1 - c0, outWidth = columns.count
        let hRows = rows.count + 2 * r
        // Per input row y (rows.lowerBound − r …): lightness (fixed), then horizontal box sums.
        let light = UnsafeMutablePointer<Int32>.allocate(capacity: span)
        let sums = UnsafeMutablePointer<Int32>.allocate(capacity: hRows * outWidth)
        let squares: UnsafeMutablePointer<Int64>? = needsVariance ? .allocate(capacity: hRows * outWidth) : nil
        let square = UnsafeMutablePointer<Int64>.allocate(capacity: needsVariance ? span : 1)
        defer { light.deallocate(); sums.deallocate(); squares?.deallocate(); square.deallocate() }
        for k in 0..<hRows {
            let source = input.clampedRow(rows.lowerBound - r + k)
            for i in 0..<span {
                let p = source + (c0 + i) * 3
                light[i] = LumaFixedPoint.fixed(LumaFixedPoint.lightness(p[0], p[1], p[2], space: space))
                if needsVariance { square[i] = Int64(light[i]) * Int64(light[i]) }
            }
            // Index of column c (clamped to 0..<width) in `light`.
            @inline(__always) func at(_ c: Int) -> Int { min(max(c, 0), width - 1) - c0 }
            let h = sums + k * outWidth
            var sum: Int32 = 0
            let first = columns.lowerBound
            for c in (first - r)...(first + r) { sum &+= light[at(c)] }
            h[0] = sum
            for j in 1..<max(1, outWidth) where outWidth > 1 {
                let c = first + j
                sum = sum &+ light[at(c + r)] &- light[at(c - r - 1)]
                h[j] = sum
            }
            if let squares {
                let q = squares + k * outWidth
                var total: Int64 = 0
                for c in (first - r)...(first + r) { total &+= square[at(c)] }
                q[0] = total
                for j in 1..<max(1, outWidth) where outWidth > 1 {
                    let c = first + j
                    total = total &+ square[at(c + r)] &- square[at(c - r - 1)]
                    q[j] = total
                }
            }
        }
        // Vertical sums, sliding down the rows: row y's box is input rows y − r … y + r, each
        // clamped into input.rows — the h rows k = y − rows.lowerBound … + 2r, except that a
        // clamped row repeats the edge row's sums, which the h rows already hold (they were read
        // through clampedRow).
        let area = Float((2 * r + 1) * (2 * r + 1))
        let column = UnsafeMutablePointer<Int32>.allocate(capacity: outWidth)
        let columnSquares = UnsafeMutablePointer<Int64>.allocate(capacity: needsVariance ? outWidth : 1)
        defer { column.deallocate(); columnSquares.deallocate() }
        for j in 0..<outWidth {
            var s: Int32 = 0
            for k in 0...(2 * r) { s &+= sums[k * outWidth + j] }
            column[j] = s
            if let squares {
                var q: Int64 = 0
                for k in 0...(2 * r) { q &+= squares[k * outWidth + j] }
                columnSquares[j] = q
            }
        }
        let scale = 1 / (area * LumaFixedPoint.one)
        let squareScale = 1 / (Double(area) * Double(LumaFixedPoint.one) * Double(LumaFixedPoint.one))
        for (index, y) in rows.enumerated() {
            if index > 0 {
                let (enter, leave) = (sums + (index + 2 * r) * outWidth, sums + (index - 1) * outWidth)
                for j in 0..<outWidth { column[j] = column[j] &+ enter[j] &- leave[j] }
                if let squares {
                    let (enter, leave) = (squares + (index + 2 * r) * outWidth, squares + (index - 1) * outWidth)
                    for j in 0..<outWidth { columnSquares[j] = columnSquares[j] &+ enter[j] &- leave[j] }
                }
            }
            let (source, target) = (input.row(y), output(y))
            for j in 0..<outWidth {
                let x = columns.lowerBound + j
                let (p, o) = (source + x * 3, target + x * 3)
                o[0] = p[0]; o[1] = p[1]; o[2] = p[2]
                let l = LumaFixedPoint.lightness(p[0], p[1], p[2], space: space)
                let mean = Float(column[j]) * scale
                var variance: Float = 0
                if needsVariance {
                    let m = Double(column[j]) / (Double(area) * Double(LumaFixedPoint.one))
                    variance = Float(max(0, Double(columnSquares[j]) * squareScale - m * m))
                }
                let new = newLightness(l, mean: mean, variance: variance)
                if new != l { LumaFixedPoint.relight(o, from: l, to: new, space: space) }
            }
        }
    }
}
