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
/// encoding curve is a table (error below 2·10⁻⁷ before quantizing; a value the average puts on a
/// rounding tie may move by a code). Red-eye repair runs on the rows of its areas as the
/// conversion of source rows reaches them (`StoredRegionPass`); the region decoded then also
/// holds those areas whole. A vignette (a position-dependent kernel) runs as each grid pixel is
/// sampled, after the per-colour output kernels. Chains with either, which the reference pipeline
/// rendered before this pass could, shrink through the exact curve, so they come out as they
/// did, bit for bit.
struct FusedRenderer {
    let plan: RenderPlan
    let program: ColourProgram
    let decoder: JPEGDecoder

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
        return try run(open: { RasterRowSource(rows: raster, region: $0) }, sink: sink)
    }

    /// Renders, handing output row j (RGBA8, not yet oriented, `plan.outputSize.width` pixels) to
    /// `sink` in order j = 0, 1, … The sink runs on a thread of its own, one row at a time.
    /// Returns the decode's warnings (`DecodedRowSource.warnings`), reported with the finished
    /// render so that a refused file gets its one error line only.
    /// `open(region)` makes the row source for `region` of the decoded image (the plan's source
    /// region, or more: `StoredRegionPass.decodeRegion`); it is called at most once.
    func run(open: (PixelRect) throws -> any DecodedRowSource,
                     sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [String] {
        let sampler = OutputRowSampler(plan: plan, outputKernels: program.outputFrame,
                                       positionalKernels: program.outputPositional)
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
        let regionPass = StoredRegionPass(kernels: program.storedRegion, plan: plan)
        // The pixel copy takes each colour through one memo: not for kernels that need more.
        if !plan.needsResample, regionPass.isEmpty, !program.readsPlaceOrNeighbourhood, let offset = sampler.pixelCopyOffset {
            return try runPixelCopy(open: { try open(region) }, sampler: sampler, offset: offset, pipeline: pipeline,
                                    sink: sink)
        } else {
            return try runSampled(open: open, regionPass: regionPass, sampler: sampler, pipeline: pipeline, sink: sink)
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

    private func runSampled(open: (PixelRect) throws -> any DecodedRowSource, regionPass: StoredRegionPass,
                            sampler: OutputRowSampler, pipeline: ChunkedRowPipeline,
                            sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [String] {
        let region = regionPass.decodeRegion
        let needs = SourceRowNeeds(plan: plan, sampler: sampler, chunkRows: pipeline.chunkRows)
        let reader = try open(region)
        // The decoder must be able to run a whole chunk's advance ahead, or the pipeline would
        // wait on it every chunk (and ChunkedRowPipeline would take that for a slow decoder).
        // A group of red-eye areas is converted whole, at its first row: its rows come on top,
        // and so do the rows the decoded region grew by above the plan's.
        // Neighbourhood kernels read ahead of the rows asked for (their radii, and a batch each).
        let regionRows = regionPass.tallestGroup + (plan.sourceRegion.y - region.y)
            + NeighbourhoodConversion.extraRows(for: program)
        let decoded = SourceRowWindow<UInt8>(top: region.y, bottom: region.y + region.height, width: reader.width,
                                             capacity: needs.monotone ? 2 * needs.span + Self.readAhead + regionRows
                                                                      : region.height)
        let exactEncoding = !program.storedRegion.isEmpty || program.readsPlaceOrNeighbourhood
        let stream = SampledStream(plan: plan, space: program.space, exactEncoding: exactEncoding,
                                   sampler: sampler, needs: needs, pipeline: pipeline, columnOffset: reader.columnOffset,
                                   sink: sink)
        let memo = program.storedFrameMemo()
        if memo != nil || !regionPass.isEmpty || program.runsPerStoredPixel {
            // The stored-frame kernels run once per source pixel (once per distinct colour,
            // through the memo), on every core, as rows are needed: the decoder thread, which
            // is what a reduced render waits on, only decodes. Rows are converted when a chunk
            // asks for them, so the working window holds one chunk's rows (and, for the first,
            // the region's rows above its taps) and no read-ahead.
            let firstNeed = needs.sourceRows(0..<min(plan.outputSize.height, pipeline.chunkRows))?.lowerBound ?? region.y
            let working = SourceRowWindow<Float>(top: decoded.top, bottom: decoded.bottom, width: reader.width,
                                                 capacity: needs.monotone ? needs.span + max(0, firstNeed - region.y) + regionRows
                                                                          : region.height)
            let conversion = StoredFrameConversion(decoded: decoded, working: working, memo: memo,
                                                   kernels: program.storedFrame, program: program, space: program.space,
                                                   regionPass: regionPass, imageSize: plan.decodedSize,
                                                   columnOffset: reader.columnOffset)
            // Each neighbourhood kernel (rare) reads the window before it into one of its own.
            var (window, ready) = (working, conversion.convert(through:))
            for step in program.neighbourhood {
                let stage = NeighbourhoodConversion(input: window, previous: ready, step: step, capacity: working.capacity,
                                                    columnOffset: reader.columnOffset, imageSize: plan.decodedSize)
                (window, ready) = (stage.output, stage.convert(through:))
            }
            try withDecoderThread(reader: reader, window: decoded) {
                try stream.run(texels: FloatTexels(), window: window, ready: ready)
            }
        } else {
            // Bytes: a quarter of the memory traffic of floats (see ByteTexels).
            let table = UnsafeMutablePointer<Float>.allocate(capacity: 256)
            defer { table.deallocate() }
            table.initialize(from: program.space.fromByte, count: 256)
            // On texel centres with no kernel after the sampling (a preview without a colour
            // step or a rotation), every grid sample is one texel's working value, weight 1: its
            // encoding for the shrink is a function of the byte. The table then holds the
            // encoded values and the shrink skips encoding each sample, the same bits for a
            // third of a HEIC preview's own work.
            let samplesEncoded = plan.needsResample && sampler.pixelCopyOffset != nil && sampler.outputKernels.isEmpty
                && sampler.positionalKernels.isEmpty
            if samplesEncoded {
                let encode = EncodingTable.shared(for: program.space)
                for code in 0..<256 {
                    table[code] = exactEncoding ? program.space.encoded(table[code]) : encode(table[code])
                }
            }
            try withDecoderThread(reader: reader, window: decoded) {
                try stream.run(texels: ByteTexels(table: table), samplesEncoded: samplesEncoded, window: decoded,
                               ready: { try decoded.waitUntilDecoded(through: $0) })
            }
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
    /// Shrink through the exact encoding curve, not `EncodingTable`.
    let exactEncoding: Bool
    let sampler: OutputRowSampler
    let needs: SourceRowNeeds
    let pipeline: ChunkedRowPipeline
    /// The image column of the windows' first column.
    let columnOffset: Int
    let sink: (Int, UnsafeMutablePointer<UInt8>) throws -> Void

    /// Runs the pipeline on `window`, once `ready(v)` has made rows through v available there.
    /// `samplesEncoded`: `texels` reads already encoded values, which the shrink averages as
    /// they are (only where every sample is one texel's value).
    func run<Texels: TexelReader>(texels: Texels, samplesEncoded: Bool = false, window: SourceRowWindow<Texels.Element>,
                                  ready: @escaping (Int) throws -> Void) throws {
        let maker = SampledRowMaker(plan: plan, space: space, exactEncoding: exactEncoding, samplesEncoded: samplesEncoded,
                                    sampler: sampler, window: window, texels: texels, columnOffset: columnOffset)
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
    /// Encode for the shrink through `space.encoded` itself (a `powf` a value) rather than the
    /// table: for the chains the reference pipeline used to render (red-eye, vignette), whose
    /// output must not move. Their values often come straight from 8-bit texels, and the average of those
    /// lands on a rounding tie (an average of n and n + 1), where the table's last bit decides.
    let exactEncoding: Bool
    let space: WorkingSpace

    /// The texels read encoded values already (`SampledStream.run`): the shrink takes the
    /// samples as they are.
    let samplesEncoded: Bool

    init(plan: RenderPlan, space: WorkingSpace, exactEncoding: Bool, samplesEncoded: Bool, sampler: OutputRowSampler,
         window: SourceRowWindow<Texels.Element>, texels: Texels, columnOffset: Int) {
        (self.sampler, self.window, self.texels, self.columnOffset) = (sampler, window, texels, columnOffset)
        (self.space, self.exactEncoding, self.samplesEncoded) = (space, exactEncoding, samplesEncoded)
        outputWidth = plan.outputSize.width
        quantizer = plan.needsResample ? nil : ByteQuantizer.shared(for: space)
        encode = plan.needsResample ? EncodingTable.shared(for: space) : nil
    }

    /// Output rows `rows` into `buffer` (RGBA8, `outputWidth` pixels a row).
    func makeRows(_ rows: Range<Int>, into buffer: UnsafeMutablePointer<UInt8>, scratch: SampledRowScratch) {
        if let encode {
            shrunkRows(rows, into: buffer, scratch: scratch, encode: encode)
        } else if let quantizer {
            quantizer.withBound { quantizer in
                for j in rows {
                    let bytes = buffer + (j - rows.lowerBound) * outputWidth * 4
                    let direct = sampler.sampleRow(j, window: window, columnOffset: columnOffset, texels: texels, into: scratch.row,
                                                   opaqueBytes: OpaqueByteRow(pixels: bytes, quantizer: quantizer, texels: Texels.self))
                    for part in [0..<direct.lowerBound, direct.upperBound..<sampler.columns] {
                        FusedRenderer.quantize(scratch.row + part.lowerBound * 4, count: part.count,
                                               into: bytes + part.lowerBound * 4, colour: { quantizer.code($0) })
                    }
                }
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
                guard !samplesEncoded else { return }
                if exactEncoding {
                    for x in 0..<gridWidth {
                        let p = gridRow + x * 4
                        p[0] = space.encoded(p[0]); p[1] = space.encoded(p[1]); p[2] = space.encoded(p[2])
                    }
                } else {
                    for x in 0..<gridWidth {
                        let p = gridRow + x * 4
                        p[0] = encode(p[0]); p[1] = encode(p[1]); p[2] = encode(p[2])
                    }
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

/// Decoded rows → working-space rows through the stored-frame colour memo (the decode table alone
/// when the chain has no stored-frame kernels), as far down as the sampler needs, the new rows
/// split over the cores, releasing each decoded row once converted.
///
/// A group of red-eye areas (`StoredRegionPass.Group`) is converted whole when the conversion
/// first reaches its rows, as the reference pipeline does it: decoded values through the table,
/// the group's repairs in order, then the stored-frame kernels.
private final class StoredFrameConversion {
    let decoded: SourceRowWindow<UInt8>, working: SourceRowWindow<Float>
    let memo: ColourMemo<SIMD3<Float>>?
    /// The stored-frame kernels the memo runs, for the pixels a repair changed.
    let kernels: [any PixelKernel]
    /// Runs the stored-frame steps from the first positional kernel on (`ColourProgram.storedTail`),
    /// per pixel, after the memo; nil when there are none.
    private let program: ColourProgram?
    private let imageSize: PixelSize, columnOffset: Int
    let space: WorkingSpace
    /// Decoded byte → working value (`space.fromByte`).
    private let table: UnsafeMutablePointer<Float>
    private let groups: [StoredRegionPass.Group]
    /// The working rows as the repairs see them (image coordinates).
    private let pixels: StoredPixels
    private var next: Int, nextGroup = 0

    init(decoded: SourceRowWindow<UInt8>, working: SourceRowWindow<Float>, memo: ColourMemo<SIMD3<Float>>?,
         kernels: [any PixelKernel], program: ColourProgram, space: WorkingSpace, regionPass: StoredRegionPass,
         imageSize: PixelSize, columnOffset: Int) {
        (self.decoded, self.working, self.memo, self.kernels, self.space) = (decoded, working, memo, kernels, space)
        self.program = program.storedTail.isEmpty ? nil : program
        (self.imageSize, self.columnOffset) = (imageSize, columnOffset)
        table = .allocate(capacity: 256)
        table.initialize(from: space.fromByte, count: 256)
        groups = regionPass.groups
        pixels = StoredPixels(size: imageSize, columnOffset: columnOffset) { working.row($0) }
        next = decoded.top
    }

    deinit { table.deallocate() }

    /// Converts rows through v (clamped to the region), and on through the last row of every
    /// red-eye group these rows reach.
    func convert(through v: Int) throws {
        try decoded.waitUntilDecoded(through: v)
        var last = min(v, decoded.bottom - 1)
        guard next <= last else { return }
        let firstGroup = nextGroup
        while nextGroup < groups.count, groups[nextGroup].rows.lowerBound <= last {
            last = max(last, min(groups[nextGroup].rows.upperBound, decoded.bottom) - 1)
            nextGroup += 1
        }
        let repaired = groups[firstGroup..<nextGroup]
        if !repaired.isEmpty { try decoded.waitUntilDecoded(through: last) }
        // Never waits: rows above the current chunk's were released before it was asked for.
        guard working.waitForRoom(through: last) else { throw CancellationError() }
        convertRows(next..<(last + 1), raw: repaired)
        for group in repaired { repair(group) }
        working.finishRows(through: last)
        next = last + 1
        decoded.release(below: next)
    }

    /// Converts `rows` on every core: through the memo, or through the table alone for rows of
    /// the groups about to be repaired (and every row when there is no memo).
    private func convertRows(_ rows: Range<Int>, raw: ArraySlice<StoredRegionPass.Group>) {
        let (width, cells, table, program) = (decoded.width, memo?.cells, table, program)
        let (imageSize, columnOffset) = (imageSize, columnOffset)
        ParallelRows.forEachPart(of: rows, parts: min(ChunkedRowPipeline.workers, rows.count)) { _, rows in
            for y in rows {
                let (row, slot) = (decoded.row(y), working.row(y))
                let isRaw = raw.contains(where: { $0.rows.contains(y) })
                if let cells, !isRaw {
                    for x in 0..<width {
                        let value = cells.value(row[x * 3], row[x * 3 + 1], row[x * 3 + 2])
                        slot[x * 3] = value.x; slot[x * 3 + 1] = value.y; slot[x * 3 + 2] = value.z
                    }
                } else {
                    for i in 0..<(width * 3) { slot[i] = table[Int(row[i])] }
                }
                // Rows about to be repaired get the tail after their repairs (`repair`).
                if let program, !isRaw {
                    program.applyStoredTail(row: slot, count: width, x0: columnOffset, y: y, imageSize: imageSize)
                }
            }
        }
    }

    /// Runs the group's repairs on its rows (decoded values through the table), then the
    /// stored-frame kernels: exactly, on the pixels a repair changed; through the memo on the
    /// others (the same kernels on the same values).
    private func repair(_ group: StoredRegionPass.Group) {
        for piece in group.pieces { piece.apply(pixels, space) }
        defer {
            if let program {
                for y in group.rows {
                    program.applyStoredTail(row: working.row(y), count: decoded.width, x0: columnOffset, y: y,
                                            imageSize: imageSize)
                }
            }
        }
        guard let cells = memo?.cells else { return }
        let width = decoded.width
        for y in group.rows {
            let (row, slot) = (decoded.row(y), working.row(y))
            for x in 0..<width {
                let (b, s) = (row + x * 3, slot + x * 3)
                if s[0].bitPattern == table[Int(b[0])].bitPattern, s[1].bitPattern == table[Int(b[1])].bitPattern,
                   s[2].bitPattern == table[Int(b[2])].bitPattern {
                    let value = cells.value(b[0], b[1], b[2])
                    s[0] = value.x; s[1] = value.y; s[2] = value.z
                } else {
                    for kernel in kernels { kernel.apply(&s[0], &s[1], &s[2]) }
                }
            }
        }
    }
}
