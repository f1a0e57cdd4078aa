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

    /// As `run(jpeg:sink:)` (FusedRenderer+Input.swift), from an image already decoded whole at
    /// the plan's decode size (a HEIC); `raster` must stay valid until this returns.
    @discardableResult
    func run(raster: RGB8Rows, sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [String] {
        guard raster.size == plan.decodedSize else {
            throw RenderError.decodedSizeMismatch(expected: plan.decodedSize, got: raster.size)
        }
        return try run(open: { RasterRowSource(rows: raster, region: plan.sourceRegion) }, sink: sink)
    }

    /// Renders, handing output row j (RGBA8, not yet oriented, `plan.outputSize.width` pixels) to
    /// `sink` in order j = 0, 1, … The sink runs on a thread of its own, one row at a time.
    /// Returns the decode's warnings (`DecodedRowSource.warnings`), reported with the finished
    /// render so that a refused file gets its one error line only.
    /// `open` makes the row source for the plan's source region; it is called at most once.
    func run(open: () throws -> any DecodedRowSource,
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
        let needs = (0..<sampler.rows).map { sampler.sourceRows(ofRow: $0) }
        // Output row y reads grid rows gridRows(y) (itself without a shrink).
        // Each worker copies this (the weights are shared, the row cache is its own).
        let shrinkTemplate = plan.needsResample ? StreamingAreaShrink(from: plan.samplingGrid.size, to: plan.outputSize) : nil
        func gridRows(_ outputRows: Range<Int>) -> ClosedRange<Int> {
            guard let shrinkTemplate else { return outputRows.lowerBound...(outputRows.upperBound - 1) }
            return shrinkTemplate.inputRows(of: outputRows.lowerBound).lowerBound
                ... shrinkTemplate.inputRows(of: outputRows.upperBound - 1).upperBound
        }
        // Rows come top to bottom; when the geometry also walks down the source, rows above the
        // current chunk's taps can be dropped, and the window is a band. Otherwise (a flip or a
        // rotation past 90°) it must hold the whole region.
        var monotone = true
        var previous: ClosedRange<Int>?
        for case let need? in needs {
            if let p = previous, need.lowerBound < p.lowerBound || need.upperBound < p.upperBound { monotone = false }
            previous = need
        }
        func sourceRows(_ outputRows: Range<Int>) -> ClosedRange<Int>? {
            let grid = gridRows(outputRows)
            let spans = needs[grid].compactMap { $0 }
            guard let lo = spans.map(\.lowerBound).min(), let hi = spans.map(\.upperBound).max() else { return nil }
            return lo...hi
        }
        var span = 1
        for start in stride(from: 0, to: plan.outputSize.height, by: pipeline.chunkRows) {
            if let rows = sourceRows(start..<min(plan.outputSize.height, start + pipeline.chunkRows)) {
                span = max(span, rows.count)
            }
        }
        let reader = try open()
        // The decoder must be able to run a whole chunk's advance ahead, or the pipeline would
        // wait on it every chunk (and ChunkedRowPipeline would take that for a slow decoder).
        let decodedCapacity = monotone ? 2 * span + Self.readAhead : region.height
        let left = reader.columnOffset
        let gridWidth = sampler.columns
        let (outputWidth, space) = (plan.outputSize.width, program.space)
        // A shrink averages encoded values; without one, sampled values are quantized directly.
        // Only the table the render uses is built (each is built once per process).
        let quantizer = plan.needsResample ? nil : ByteQuantizer.shared(for: space)
        let encode = plan.needsResample ? EncodingTable.shared(for: space) : nil

        /// The decoder fills `decoded` while the pipeline samples `window`, once `ready(v)` has
        /// made rows through v available.
        func sampleRows<Texels: TexelReader>(texels: Texels, decoded: SourceRowWindow<UInt8>,
                                             window: SourceRowWindow<Texels.Element>,
                                             ready: @escaping (Int) throws -> Void) throws {
            let scratch = (0..<ChunkedRowPipeline.workers).map { _ in
                SampledRowScratch(rowWidth: shrinkTemplate == nil ? gridWidth : outputWidth, shrink: shrinkTemplate)
            }
            try withDecoderThread(reader: reader, window: decoded) {
                try pipeline.run(prepare: { rows in
                    if let need = sourceRows(rows) { try ready(need.upperBound) }
                }, compute: { worker, rows, buffer in
                    let scratch = scratch[worker]
                    if let encode {
                        for y in rows {
                            scratch.shrink!.row(y, into: scratch.row) { k, gridRow in
                                sampler.sampleRow(k, window: window, columnOffset: left, texels: texels, into: gridRow)
                                for x in 0..<gridWidth {
                                    let p = gridRow + x * 4
                                    p[0] = encode(p[0]); p[1] = encode(p[1]); p[2] = encode(p[2])
                                }
                            }
                            Self.quantize(scratch.row, count: outputWidth, into: buffer + (y - rows.lowerBound) * outputWidth * 4,
                                          colour: WorkingSpace.byte(encoded:))
                        }
                    } else if let quantizer {
                        for j in rows {
                            sampler.sampleRow(j, window: window, columnOffset: left, texels: texels, into: scratch.row)
                            Self.quantize(scratch.row, count: gridWidth, into: buffer + (j - rows.lowerBound) * outputWidth * 4,
                                          colour: quantizer.byte)
                        }
                    }
                }, finished: { rows in
                    // No later chunk reads above the next chunk's first tap (taken over the whole
                    // chunk: its first rows may reach no source row at all).
                    let nextChunk = rows.upperBound..<min(plan.outputSize.height, rows.upperBound + pipeline.chunkRows)
                    guard monotone, !nextChunk.isEmpty, let next = sourceRows(nextChunk) else { return }
                    window.release(below: next.lowerBound)
                }, sink: sink)
            }
        }

        let (top, bottom) = (region.y, region.y + region.height)
        let decoded = SourceRowWindow<UInt8>(top: top, bottom: bottom, width: reader.width, capacity: decodedCapacity)
        if !program.storedFrame.isEmpty {
            // The stored-frame kernels run once per source pixel (once per distinct colour,
            // through the memo), on every core, as rows are needed: the decoder thread, which
            // is what a reduced render waits on, only decodes. Rows are converted when a chunk
            // asks for them, so the working window holds one chunk's rows (and, for the first,
            // the region's rows above its taps) and no read-ahead.
            let firstNeed = sourceRows(0..<min(plan.outputSize.height, pipeline.chunkRows))?.lowerBound ?? top
            let working = SourceRowWindow<Float>(top: top, bottom: bottom, width: reader.width,
                                                 capacity: monotone ? span + max(0, firstNeed - top) : region.height)
            let conversion = StoredFrameConversion(decoded: decoded, working: working, memo: program.storedFrameMemo()!)
            try sampleRows(texels: FloatTexels(), decoded: decoded, window: working, ready: conversion.convert(through:))
        } else {
            // Bytes: a quarter of the memory traffic of floats (see ByteTexels).
            let table = UnsafeMutablePointer<Float>.allocate(capacity: 256)
            defer { table.deallocate() }
            table.initialize(from: space.fromByte, count: 256)
            try sampleRows(texels: ByteTexels(table: table), decoded: decoded, window: decoded,
                           ready: { try decoded.waitUntilDecoded(through: $0) })
        }
        return reader.warnings
    }

    // MARK: the decoder thread

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
    private static func quantize(_ source: UnsafeMutablePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt8>,
                                 colour: (Float) -> UInt8) {
        for x in 0..<count {
            let (s, o) = (source + x * 4, out + x * 4)
            let alpha = WorkingSpace.byte(encoded: s[3])
            o[3] = alpha
            if alpha == 0 { o[0] = 0; o[1] = 0; o[2] = 0 } else { o[0] = colour(s[0]); o[1] = colour(s[1]); o[2] = colour(s[2]) }
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
