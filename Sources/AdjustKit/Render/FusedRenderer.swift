import Foundation

/// Runs a `RenderPlan` as one streaming pass: a decoder thread decodes only the plan's source
/// region (libjpeg's skip/crop-scanline at the planned DCT scale; for a HEIC, which libheif
/// decodes whole beforehand, a copy of the region's rows: `DecodedRowSource`) into a `SourceRowWindow`,
/// while chunks of output rows are made from those rows on every core (`ChunkedRowPipeline`) —
/// sampling, every colour step, the `--max-size` shrink and the quantization fused per row — and
/// handed in order to a sink on a thread of its own (a raster, or the JPEG encoder directly). No
/// full-size intermediate exists: memory is the rows the geometry needs at once plus whatever
/// the sink keeps.
///
/// The result equals `Renderer`'s whole-image reference pipeline bit for bit (the colour kernels
/// run exactly, once per distinct colour: `ColourMemo`), except that the `--max-size` shrink's
/// encoding curve is a table (error below 5·10⁻⁶ before quantizing). Red-eye repair needs the
/// whole stored image, so its chains stay on the reference pipeline.
struct FusedRenderer {
    let plan: RenderPlan
    let program: ColourProgram
    let decoder: JPEGDecoder

    /// False for chains the streaming pass cannot run yet (region and position-dependent kernels).
    static func supports(_ program: ColourProgram) -> Bool {
        program.storedRegion.isEmpty && program.outputPositional.isEmpty
    }

    /// Rows of slack the decoder may run ahead of the rows the geometry needs.
    private static let readAhead = 64
    /// Output rows made per chunk (split over the cores, then handed to the sink together).
    private static let chunkRows = 32

    /// Renders, handing output row j (RGBA8, not yet oriented, `plan.outputSize.width` pixels) to
    /// `sink` in order j = 0, 1, … The sink runs on a thread of its own, one row at a time.
    /// Returns the decode's warnings (`DecodedRowSource.warnings`), reported with the finished
    /// render so that a refused file gets its one error line only.
    @discardableResult
    func run(jpeg: [UInt8], sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [String] {
        // libjpeg reads the file in place: every use of the reader ends inside this closure.
        try jpeg.withUnsafeBufferPointer { jpeg in
            try run(open: { try openReader(jpeg) }, sink: sink)
        }
    }

    /// As `run(jpeg:sink:)`, from an image already decoded whole at the plan's decode size (a
    /// HEIC); `raster` must stay valid until this returns.
    @discardableResult
    func run(raster: RGB8Rows, sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [String] {
        guard raster.size == plan.decodedSize else {
            throw RenderError.decodedSizeMismatch(expected: plan.decodedSize, got: raster.size)
        }
        return try run(open: { RasterRowSource(rows: raster, region: plan.sourceRegion) }, sink: sink)
    }

    /// `open` makes the row source for the plan's source region; it is called at most once.
    private func run(open: () throws -> any DecodedRowSource,
                     sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [String] {
        let sampler = OutputRowSampler(plan: plan, outputKernels: program.outputFrame)
        let output = plan.outputSize
        let pipeline = ChunkedRowPipeline(rows: output.height, rowBytes: output.width * 4, chunkRows: Self.chunkRows)
        let region = plan.sourceRegion
        guard region.width > 0, region.height > 0 else {
            // Nothing of the image is reached: every pixel is transparent.
            try pipeline.run(prepare: { _ in }, compute: { _, rows, buffer in
                buffer.initialize(repeating: 0, count: rows.count * output.width * 4)
            }, finished: { _ in }, sink: sink)
            return []
        }
        if !plan.needsResample, let offset = sampler.pixelCopyOffset {
            return try runPixelCopy(open: open, sampler: sampler, offset: offset, pipeline: pipeline, sink: sink)
        } else {
            return try runSampled(open: open, sampler: sampler, pipeline: pipeline, sink: sink)
        }
    }

    // MARK: pixel copy (integer translation at the decode's pitch)

    private func runPixelCopy(open: () throws -> any DecodedRowSource, sampler: OutputRowSampler, offset: (dx: Int, dy: Int),
                              pipeline: ChunkedRowPipeline,
                              sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [String] {
        let region = plan.sourceRegion
        let reader = try open()
        let window = SourceRowWindow<UInt8>(top: region.y, bottom: region.y + region.height, width: reader.width,
                                            capacity: pipeline.chunkRows + Self.readAhead)
        // One memo for every worker: each colour is computed once.
        let memo = program.wholeChainMemo()
        let (left, right) = (reader.columnOffset, reader.columnOffset + reader.width)
        let columns = sampler.columns
        // Alpha of a row whose vertical coverage is whole (all rows but a fractional crop's edges).
        let fullRowAlphas = sampler.coverageX.map { WorkingSpace.byte(encoded: Float($0)) }
        try withDecoderThread(reader: reader, window: window) {
            try pipeline.run(prepare: { rows in
                try window.waitUntilDecoded(through: rows.upperBound - 1 + offset.dy)
            }, compute: { worker, rows, buffer in
                let memo = memo?.cells, hasMemo = memo != nil
                // Output columns whose source pixel is decoded; the rest are transparent.
                let inside = max(0, left - offset.dx)..<max(0, min(columns, right - offset.dx))
                for j in rows {
                    let out = buffer + (j - rows.lowerBound) * columns * 4
                    let y = j + offset.dy
                    let alphas = sampler.coverageY[j] == 1 ? fullRowAlphas : sampler.coverageX.map {
                        WorkingSpace.byte(encoded: Float($0 * sampler.coverageY[j]))
                    }
                    guard y >= window.top, y < window.bottom, !inside.isEmpty else {
                        out.initialize(repeating: 0, count: columns * 4)
                        continue
                    }
                    out.initialize(repeating: 0, count: inside.lowerBound * 4)
                    (out + inside.upperBound * 4).initialize(repeating: 0, count: (columns - inside.upperBound) * 4)
                    var p = window.row(y) + (inside.lowerBound + offset.dx - left) * 3
                    var o = out + inside.lowerBound * 4
                    alphas.withUnsafeBufferPointer { alphas in
                        for i in inside {
                            let alpha = alphas[i]
                            if alpha == 0 {
                                o[0] = 0; o[1] = 0; o[2] = 0
                            } else if hasMemo {
                                (o[0], o[1], o[2]) = memo.unsafelyUnwrapped.value(p[0], p[1], p[2])
                            } else {
                                o[0] = p[0]; o[1] = p[1]; o[2] = p[2]
                            }
                            o[3] = alpha
                            o += 4; p += 3
                        }
                    }
                }
            }, finished: { rows in
                window.release(below: rows.upperBound + offset.dy)
            }, sink: sink)
        }
        return reader.warnings
    }

    // MARK: bilinear sampling (any affine, any scale), with the optional area shrink

    private func runSampled(open: () throws -> any DecodedRowSource, sampler: OutputRowSampler, pipeline: ChunkedRowPipeline,
                            sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [String] {
        let region = plan.sourceRegion
        let needs = SourceRowNeeds(plan: plan, sampler: sampler, chunkRows: pipeline.chunkRows)
        let reader = try open()
        // The decoder must be able to run a whole chunk's advance ahead, or the pipeline would
        // wait on it every chunk (and ChunkedRowPipeline would take that for a slow decoder).
        let decoded = SourceRowWindow<UInt8>(top: region.y, bottom: region.y + region.height, width: reader.width,
                                             capacity: needs.monotone ? 2 * needs.span + Self.readAhead : region.height)
        let stream = SampledStream(plan: plan, space: program.space, sampler: sampler, needs: needs, pipeline: pipeline,
                                   columnOffset: reader.columnOffset, sink: sink)
        if let memo = program.storedFrameMemo() {
            // The stored-frame kernels run once per source pixel (once per distinct colour,
            // through the memo), on every core, as rows are needed: the decoder thread, which
            // is what a reduced render waits on, only decodes. Rows are converted when a chunk
            // asks for them, so the working window holds one chunk's rows (and, for the first,
            // the region's rows above its taps) and no read-ahead.
            let firstNeed = needs.sourceRows(0..<min(plan.outputSize.height, pipeline.chunkRows))?.lowerBound ?? region.y
            let working = SourceRowWindow<Float>(top: decoded.top, bottom: decoded.bottom, width: reader.width,
                                                 capacity: needs.monotone ? needs.span + max(0, firstNeed - region.y)
                                                                          : region.height)
            let conversion = StoredFrameConversion(decoded: decoded, working: working, memo: memo)
            try withDecoderThread(reader: reader, window: decoded) {
                try stream.run(texels: FloatTexels(), window: working, ready: conversion.convert(through:))
            }
        } else {
            // Bytes: a quarter of the memory traffic of floats (see ByteTexels).
            let table = UnsafeMutablePointer<Float>.allocate(capacity: 256)
            defer { table.deallocate() }
            table.initialize(from: program.space.fromByte, count: 256)
            try withDecoderThread(reader: reader, window: decoded) {
                try stream.run(texels: ByteTexels(table: table), window: decoded,
                               ready: { try decoded.waitUntilDecoded(through: $0) })
            }
        }
        return reader.warnings
    }

    // MARK: the decoder thread

    private func openReader(_ jpeg: UnsafeBufferPointer<UInt8>) throws -> JPEGRegionReader {
        let region = plan.sourceRegion
        let reader = try JPEGRegionReader(bytes: jpeg, scale: plan.decodeScale, columns: region.x..<(region.x + region.width),
                                          firstRow: region.y, tolerateWarnings: decoder.tolerateWarnings,
                                          allowManyScans: decoder.allowManyScans)
        guard reader.decodedSize == plan.decodedSize else {
            throw RenderError.decodedSizeMismatch(expected: plan.decodedSize, got: reader.decodedSize)
        }
        return reader
    }

    /// Decodes the window's rows on a second thread while `body` consumes them here; returns
    /// once both are done. A decode error reaches `body` through the window's waits and is
    /// rethrown; an error in `body` stops the decoder.
    private func withDecoderThread(reader: any DecodedRowSource, window: SourceRowWindow<UInt8>,
                                   body: () throws -> Void) throws {
        let finished = DispatchSemaphore(value: 0)
        let job = HandedOver(DecodeJob(reader: reader, window: window))
        let thread = Thread { job.value.run(); finished.signal() }
        thread.stackSize = 1 << 20
        thread.start()
        do {
            try body()
        } catch {
            window.cancel()
            finished.wait()
            throw error
        }
        finished.wait()
        if let failure = job.value.failure { throw failure }
    }

    /// Quantizes `count` sampled RGBA float pixels (alpha = coverage) to RGBA8: colour through
    /// `colour` (encoded or working values, per the caller), transparent black where alpha rounds
    /// to 0, as `Renderer.quantized`.
    @inline(__always)
    fileprivate static func quantize(_ source: UnsafeMutablePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt8>,
                                 colour: (Float) -> UInt8) {
        for x in 0..<count {
            let (s, o) = (source + x * 4, out + x * 4)
            let alpha = WorkingSpace.byte(encoded: s[3])
            o[3] = alpha
            if alpha == 0 { o[0] = 0; o[1] = 0; o[2] = 0 } else { o[0] = colour(s[0]); o[1] = colour(s[1]); o[2] = colour(s[2]) }
        }
    }
}

/// The source rows the sampled path reads: per grid row, per chunk of output rows, and whether
/// they only move down the source as the output does (so that the window can be a band).
private struct SourceRowNeeds {
    /// The decoded rows each grid row's taps read (nil: none).
    let gridRowNeeds: [ClosedRange<Int>?]
    /// Each worker copies this (the weights are shared, the row cache is its own); nil without
    /// a shrink.
    let shrinkTemplate: StreamingAreaShrink?
    /// Rows come top to bottom; when the geometry also walks down the source, rows above the
    /// current chunk's taps can be dropped, and the window is a band. Otherwise (a flip or a
    /// rotation past 90°) it must hold the whole region.
    let monotone: Bool
    /// The most source rows one chunk of output rows reads (at least 1).
    let span: Int
    let outputRows: Int, chunkRows: Int

    init(plan: RenderPlan, sampler: OutputRowSampler, chunkRows: Int) {
        gridRowNeeds = (0..<sampler.rows).map { sampler.sourceRows(ofRow: $0) }
        shrinkTemplate = plan.needsResample ? StreamingAreaShrink(from: plan.samplingGrid.size, to: plan.outputSize) : nil
        (outputRows, self.chunkRows) = (plan.outputSize.height, chunkRows)
        var monotone = true
        var previous: ClosedRange<Int>?
        for case let need? in gridRowNeeds {
            if let p = previous, need.lowerBound < p.lowerBound || need.upperBound < p.upperBound { monotone = false }
            previous = need
        }
        self.monotone = monotone
        var span = 1
        for start in stride(from: 0, to: outputRows, by: chunkRows) {
            if let rows = Self.sourceRows(start..<min(outputRows, start + chunkRows), gridRowNeeds, shrinkTemplate) {
                span = max(span, rows.count)
            }
        }
        self.span = span
    }

    /// The decoded rows output rows `outputRows` read; nil when none.
    func sourceRows(_ outputRows: Range<Int>) -> ClosedRange<Int>? {
        Self.sourceRows(outputRows, gridRowNeeds, shrinkTemplate)
    }

    /// The first decoded row any chunk after `rows` reads: no later chunk reads above the next
    /// chunk's first tap (taken over the whole chunk: its first rows may reach no source row at
    /// all). nil when the window is not a band or nothing follows.
    func firstRowNeeded(after rows: Range<Int>) -> Int? {
        let nextChunk = rows.upperBound..<min(outputRows, rows.upperBound + chunkRows)
        guard monotone, !nextChunk.isEmpty else { return nil }
        return sourceRows(nextChunk)?.lowerBound
    }

    /// Output row y reads grid rows gridRows(y) (itself without a shrink).
    private static func sourceRows(_ outputRows: Range<Int>, _ needs: [ClosedRange<Int>?],
                                   _ shrink: StreamingAreaShrink?) -> ClosedRange<Int>? {
        let grid = shrink.map { $0.inputRows(of: outputRows.lowerBound).lowerBound
                                  ... $0.inputRows(of: outputRows.upperBound - 1).upperBound }
            ?? outputRows.lowerBound...(outputRows.upperBound - 1)
        let spans = needs[grid].compactMap { $0 }
        guard let lo = spans.map(\.lowerBound).min(), let hi = spans.map(\.upperBound).max() else { return nil }
        return lo...hi
    }
}

/// The sampled path's pipeline: chunks of output rows sampled from a window of source rows
/// (decoded bytes, or working-space floats after the stored-frame kernels), then shrunk or
/// quantized, handed to the sink.
private struct SampledStream {
    let plan: RenderPlan
    let space: WorkingSpace
    let sampler: OutputRowSampler
    let needs: SourceRowNeeds
    let pipeline: ChunkedRowPipeline
    /// The image column of the windows' first column.
    let columnOffset: Int
    let sink: (Int, UnsafeMutablePointer<UInt8>) throws -> Void

    /// Runs the pipeline on `window`, once `ready(v)` has made rows through v available there.
    func run<Texels: TexelReader>(texels: Texels, window: SourceRowWindow<Texels.Element>,
                                  ready: @escaping (Int) throws -> Void) throws {
        let maker = SampledRowMaker(plan: plan, space: space, sampler: sampler, window: window, texels: texels,
                                    columnOffset: columnOffset)
        let scratch = (0..<ChunkedRowPipeline.workers).map { _ in
            SampledRowScratch(rowWidth: needs.shrinkTemplate == nil ? sampler.columns : plan.outputSize.width,
                              shrink: needs.shrinkTemplate)
        }
        try pipeline.run(prepare: { rows in
            if let need = needs.sourceRows(rows) { try ready(need.upperBound) }
        }, compute: { worker, rows, buffer in
            maker.makeRows(rows, into: buffer, scratch: scratch[worker])
        }, finished: { rows in
            if let next = needs.firstRowNeeded(after: rows) { window.release(below: next) }
        }, sink: sink)
    }
}

/// Output rows from a window of source rows: each grid row sampled, then either encoded and
/// area-shrunk (`--max-size`) or quantized directly.
private struct SampledRowMaker<Texels: TexelReader> {
    let sampler: OutputRowSampler
    let window: SourceRowWindow<Texels.Element>
    let texels: Texels
    let columnOffset: Int
    let outputWidth: Int
    /// A shrink averages encoded values; without one, sampled values are quantized directly.
    /// Only the table the render uses is built (each is built once per process).
    let quantizer: ByteQuantizer?
    let encode: EncodingTable?

    init(plan: RenderPlan, space: WorkingSpace, sampler: OutputRowSampler, window: SourceRowWindow<Texels.Element>,
         texels: Texels, columnOffset: Int) {
        (self.sampler, self.window, self.texels, self.columnOffset) = (sampler, window, texels, columnOffset)
        outputWidth = plan.outputSize.width
        quantizer = plan.needsResample ? nil : ByteQuantizer.shared(for: space)
        encode = plan.needsResample ? EncodingTable.shared(for: space) : nil
    }

    /// Output rows `rows` into `buffer` (RGBA8, `outputWidth` pixels a row).
    func makeRows(_ rows: Range<Int>, into buffer: UnsafeMutablePointer<UInt8>, scratch: SampledRowScratch) {
        if let encode {
            shrunkRows(rows, into: buffer, scratch: scratch, encode: encode)
        } else if let quantizer {
            for j in rows {
                sampler.sampleRow(j, window: window, columnOffset: columnOffset, texels: texels, into: scratch.row)
                FusedRenderer.quantize(scratch.row, count: sampler.columns,
                                       into: buffer + (j - rows.lowerBound) * outputWidth * 4, colour: quantizer.byte)
            }
        }
    }

    /// Through the streaming shrink: grid rows sampled and encoded as it asks for them.
    private func shrunkRows(_ rows: Range<Int>, into buffer: UnsafeMutablePointer<UInt8>, scratch: SampledRowScratch,
                            encode: EncodingTable) {
        let gridWidth = sampler.columns
        for y in rows {
            scratch.shrink!.row(y, into: scratch.row) { k, gridRow in
                sampler.sampleRow(k, window: window, columnOffset: columnOffset, texels: texels, into: gridRow)
                for x in 0..<gridWidth {
                    let p = gridRow + x * 4
                    p[0] = encode(p[0]); p[1] = encode(p[1]); p[2] = encode(p[2])
                }
            }
            FusedRenderer.quantize(scratch.row, count: outputWidth, into: buffer + (y - rows.lowerBound) * outputWidth * 4,
                                   colour: WorkingSpace.byte(encoded:))
        }
    }
}

/// One worker's buffers for the sampled path, kept from chunk to chunk (allocating them per
/// chunk cost page faults, and copying the shrink's rows per chunk lost its row cache).
private final class SampledRowScratch {
    /// One row of RGBA floats before quantizing: a sampled grid row without a shrink, a shrunk
    /// output row with one (the shrink samples into rows of its own).
    let row: UnsafeMutablePointer<Float>
    /// This worker's copy of the streaming shrink (its own rows, shared weights); nil without one.
    var shrink: StreamingAreaShrink?

    init(rowWidth: Int, shrink: StreamingAreaShrink?) {
        row = .allocate(capacity: rowWidth * 4)
        self.shrink = shrink
    }

    deinit { row.deallocate() }
}

/// The decoder thread's work: every row of the window, in order, straight into its slot.
private final class DecodeJob {
    /// Rows decoded per call at most: libjpeg makes 8 or 16 at a time anyway (an iMCU row), and
    /// the pipeline should not wait long for the first of them.
    private static let rowsPerRead = 8
    let reader: any DecodedRowSource
    let window: SourceRowWindow<UInt8>
    private(set) var failure: Error?

    init(reader: any DecodedRowSource, window: SourceRowWindow<UInt8>) {
        (self.reader, self.window) = (reader, window)
    }

    func run() {
        do {
            var v = window.top
            while v < window.bottom {
                guard window.waitForRoom(through: v) else { return }
                // A few rows a call: one lock and at most one wake-up for them all.
                let count = window.contiguousRoom(from: v, limit: Self.rowsPerRead)
                try reader.readRows(into: window.row(v), stride: reader.width * 3, count: count)
                window.finishRows(through: v + count - 1)
                v += count
            }
        } catch {
            failure = error
            window.fail(error)
        }
    }
}

/// Decoded rows → working-space rows through the stored-frame colour memo, as far down as the
/// sampler needs, the new rows split over the cores, releasing each decoded row once converted.
private final class StoredFrameConversion {
    let decoded: SourceRowWindow<UInt8>, working: SourceRowWindow<Float>
    let memo: ColourMemo<SIMD3<Float>>
    private var next: Int

    init(decoded: SourceRowWindow<UInt8>, working: SourceRowWindow<Float>, memo: ColourMemo<SIMD3<Float>>) {
        (self.decoded, self.working, self.memo, next) = (decoded, working, memo, decoded.top)
    }

    /// Converts rows through v (clamped to the region).
    func convert(through v: Int) throws {
        try decoded.waitUntilDecoded(through: v)
        let last = min(v, decoded.bottom - 1)
        guard next <= last else { return }
        // Never waits: rows above the current chunk's were released before it was asked for.
        guard working.waitForRoom(through: last) else { throw CancellationError() }
        let (rows, width) = (next..<(last + 1), decoded.width)
        let cells = memo.cells
        ParallelRows.forEachPart(of: rows, parts: min(ChunkedRowPipeline.workers, rows.count)) { _, rows in
            for y in rows {
                let (row, slot) = (decoded.row(y), working.row(y))
                for x in 0..<width {
                    let value = cells.value(row[x * 3], row[x * 3 + 1], row[x * 3 + 2])
                    slot[x * 3] = value.x; slot[x * 3 + 1] = value.y; slot[x * 3 + 2] = value.z
                }
            }
        }
        working.finishRows(through: last)
        next = last + 1
        decoded.release(below: next)
    }
}
