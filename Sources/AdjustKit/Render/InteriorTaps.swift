import CSamplerIntrinsics

/// The bilinear samples of a row's interior run (`GridRowSampling.sampleEach`), pixel by pixel
/// along the row: the columns whose four taps all lie inside the image and the window, under any
/// affine map. Each pixel's position, weights and sum are `OutputRowSampler`'s own arithmetic,
/// bit for bit; what the walk saves is the work a neighbour already did:
///
/// - the two source rows' addresses, which change only when the walk steps to another row;
/// - the left taps' colours, which are the previous pixel's right taps whenever the walk moved
///   one texel right on the same rows (nearly every pixel of a straighten);
/// - the range checks of ⌊fx⌋ and ⌊fy⌋: inside, both are ≥ 0 and small, where ⌊x⌋ is the
///   truncation (`adjust_truncate`).
///
/// The positions and weights are laid out a block of columns at a time (`adjust_row_taps`, the
/// same operations in the same order, two columns an instruction), and the taps then read from
/// the block: computed pixel by pixel, with each pixel's loads waiting on its own conversions,
/// they were half the time of a standalone copy of a straighten's loop (docs/benchmark.md, run G).
///
/// A rotation walks the source diagonally, which the hardware prefetchers do not follow, so
/// `prefetch` asks for the cache lines a few dozen pixels ahead.
struct InteriorTaps<Texels: TexelReader> {
    private let positions: RowPositions
    private let left: Int
    private let window: SourceRowWindow<Texels.Element>
    private let texels: Texels
    private let centreX: UnsafeBufferPointer<Double>
    /// The last pixel of the run: prefetches look no further.
    private let last: Int

    /// The source row of the top taps now, and both rows' first elements.
    private var rowY = Int.min
    private var row0: UnsafeMutablePointer<Texels.Element>, row1: UnsafeMutablePointer<Texels.Element>
    /// The previous pixel's left tap column and its right taps' colours (`lanes`).
    private var lastX = Int.min
    private var right0 = SIMD4<Float>(), right1 = SIMD4<Float>()
    /// The columns [blockStart, blockEnd) of the run whose taps are laid out in `block`.
    private let block: TapBlock
    private var blockStart = 0, blockEnd = 0

    /// Pixels this far ahead are prefetched, every `prefetchStride`th pixel (measured on the
    /// straighten bench case: a third of the loop's time went on the lower row's misses without).
    private static var prefetchAhead: Int { 48 }
    private static var prefetchStride: Int { 8 }

    /// `positions` is the row's (`GridRowSampling`'s); `columns` is the interior run; `block`
    /// is room for the taps of a block of its columns, the caller's.
    init(positions: RowPositions, left: Int, window: SourceRowWindow<Texels.Element>, texels: Texels,
         centreX: UnsafeBufferPointer<Double>, columns: Range<Int>, block: TapBlock) {
        (self.positions, self.left, self.window, self.texels, self.centreX) = (positions, left, window, texels, centreX)
        last = columns.upperBound - 1
        self.block = block
        (row0, row1) = (window.row(window.top), window.row(window.top))
    }

    /// Column i's top-left tap (for a prefetch): `GridRowSampling.topLeftTap`'s arithmetic.
    @inline(__always)
    private func tap(_ i: Int) -> (x0: Int, y0: Int) {
        let (fx, fy) = positions.source(centreX[i])
        return (adjust_truncate(fx), adjust_truncate(fy))
    }

    /// Lays out the taps of the block of columns from i (`adjust_row_taps`).
    @inline(never)
    private mutating func layOutBlock(from i: Int) {
        let count = min(TapBlock.columns, last + 1 - i)
        adjust_row_taps(centreX.baseAddress! + i, count, positions.a, positions.cqy, positions.b, positions.dqy,
                        positions.sourceHeight, block.x0, block.y0, block.weights)
        (blockStart, blockEnd) = (i, i + count)
    }

    /// Column i's sample (i in the run): the four taps' weighted sum in `OutputRowSampler.blend`'s
    /// order.
    @inline(__always)
    mutating func sample(_ i: Int) -> (Float, Float, Float) {
        if i >= blockEnd || i < blockStart { layOutBlock(from: i) }
        let k = i &- blockStart
        let (x0, y0, w) = (Int(block.x0[k]), Int(block.y0[k]), block.weights + k &* 4)
        if y0 != rowY {
            (row0, row1, rowY) = (window.row(y0), window.row(y0 &+ 1), y0)
            lastX = .min
        }
        let (p0, p1) = (row0 + (x0 &- left) &* 3, row1 + (x0 &- left) &* 3)
        let (c00, c01) = x0 == lastX &+ 1 ? (right0, right1) : (Self.lanes(texels.working(p0)), Self.lanes(texels.working(p1)))
        let (c10, c11) = (Self.lanes(texels.working(p0 + 3)), Self.lanes(texels.working(p1 + 3)))
        (lastX, right0, right1) = (x0, c10, c11)
        // `OutputRowSampler.weightedSum`, each lane in its order.
        let sum = w[0] * c00 + w[1] * c10 + w[2] * c01 + w[3] * c11
        return (sum[0], sum[1], sum[2])
    }

    /// A texel's colour in the lanes of one vector. The right taps kept for the next pixel are
    /// two vectors, not six floats: as floats they were spilled one by one and read back two at
    /// a time, a load the processor cannot forward from the stores (a straighten's render 0.94
    /// of the wall time, the same bytes; docs/benchmark.md).
    @inline(__always)
    private static func lanes(_ c: (Float, Float, Float)) -> SIMD4<Float> { SIMD4(c.0, c.1, c.2, 0) }

    /// The opaque pixels [i, i + count) of the run (count ≤ `TapBlock.columns`) as RGBA8 at
    /// `out`, in one block (`TexelReader.writeOpaqueBlock`): the taps laid out from i, then the
    /// cache lines of the taps `prefetchAhead` pixels on asked for, every `prefetchStride`th
    /// column, before the block is written. Only where `Texels.writesOpaqueBlocks`.
    @inline(__always)
    mutating func writeOpaqueBlock(from i: Int, count: Int, into out: UnsafeMutablePointer<UInt8>,
                                   quantizer: ByteQuantizer.Bound) {
        layOutBlock(from: i)
        var j = i
        while j < i &+ count { prefetchTaps(ahead: j); j &+= Self.prefetchStride }
        texels.writeOpaqueBlock(block, count: count, window: window, left: left, quantizer: quantizer, into: out)
        // The block kept no taps for the next pixel.
        lastX = .min
    }

    /// Asks for the cache lines of the taps `prefetchAhead` pixels on, every `prefetchStride`th
    /// column.
    @inline(__always)
    func prefetch(_ i: Int) {
        guard i % Self.prefetchStride == 0 else { return }
        prefetchTaps(ahead: i)
    }

    /// Asks for the cache lines of the taps `prefetchAhead` pixels after pixel i.
    @inline(__always)
    private func prefetchTaps(ahead i: Int) {
        let ahead = tap(min(i + Self.prefetchAhead, last))
        adjust_prefetch(window.row(ahead.y0) + (ahead.x0 &- left) &* 3)
        adjust_prefetch(window.row(ahead.y0 &+ 1) + (ahead.x0 &- left) &* 3)
    }
}

/// Room for one block of a run's taps (`InteriorTaps`): each column's top-left tap and its four
/// weights, on the stack of the run's caller (`withTapBlock`).
struct TapBlock {
    /// Columns a block holds: its 2.5 KB stay in the first-level cache beside the rows.
    static var columns: Int { 64 }
    let x0: UnsafeMutablePointer<Int32>, y0: UnsafeMutablePointer<Int32>
    /// w00, w10, w01, w11 of each column, in turn.
    let weights: UnsafeMutablePointer<Float>
    /// Room for the block's samples, four floats a column (`GridRowSampling.sampleInterior`).
    let colours: UnsafeMutablePointer<Float>

    /// Runs `body` with a block's room, on the stack.
    @inline(__always)
    static func withTapBlock<R>(_ body: (TapBlock) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: 40 * columns, alignment: 16) { room in
            let taps = room.baseAddress!.bindMemory(to: Int32.self, capacity: 2 * columns)
            let floats = (room.baseAddress! + 8 * columns).bindMemory(to: Float.self, capacity: 8 * columns)
            return body(TapBlock(x0: taps, y0: taps + columns, weights: floats, colours: floats + 4 * columns))
        }
    }
}
