import Foundation

/// Runs a `RenderPlan` as one streaming pass: only the plan's source region is decoded
/// (libjpeg's skip/crop-scanline at the planned DCT scale; for a HEIC, its tiles, or a copy of
/// the region's rows of the image libheif decoded whole: `DecodedRowSource`) into a
/// `SourceRowWindow`, a chunk's rows ahead, as a task beside the chunk's parts (`PulledDecode`),
/// while chunks of output rows are made from those rows on every core (`ChunkedRowPipeline`) —
/// sampling, every colour step, the `--max-size` shrink and the quantization fused per row — and
/// handed in order to a sink (a raster, or the JPEG encoder directly), a chunk behind. No
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
    /// `sink` in order j = 0, 1, … The sink runs on any of the render's threads, one row at a time.
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
        // The pixel copy colours each decoded row as it copies it: not for kernels that read
        // areas, neighbourhoods or output places.
        if !plan.needsResample, program.runsOnRowsAlone, let offset = sampler.pixelCopyOffset {
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
        let (left, right) = (reader.columnOffset, reader.columnOffset + reader.width)
        // A chain with per-pixel stored-frame steps takes each row through them (`PixelCopyChain`);
        // any other, each colour through one memo for every worker (each colour computed once).
        let chain = PixelCopyChain(program: program, imageSize: plan.decodedSize, columnOffset: left)
        let memo = chain == nil ? program.wholeChainMemo() : nil
        // A copied row is cheap: one part per core (four made a 22 MP crop 5–9 % slower). A row
        // through the chain is not: four parts per core, as the sampled path's.
        var pipeline = pipeline
        if chain == nil { pipeline.partCount = ChunkedRowPipeline.workers }
        let window = SourceRowWindow<UInt8>(top: region.y, bottom: region.y + region.height, width: reader.width,
                                            capacity: pipeline.chunkRows + Self.readAhead, margins: reader.margins)
        pipeline.warming.append(window.storageBytes)
        // Each part's working row for the chain (kept from chunk to chunk).
        let slots = chain == nil ? [] : (0..<pipeline.partCount).map { _ in
            UnsafeMutablePointer<Float>.allocate(capacity: reader.width * 3)
        }
        defer { slots.forEach { $0.deallocate() } }
        let columns = sampler.columns
        // Alpha of a row whose vertical coverage is whole (all rows but a fractional crop's edges).
        let fullRowAlphas = sampler.coverageX.map { WorkingSpace.byte(encoded: Float($0)) }
        let decode = PulledDecode(reader: reader, window: window)
        try pipeline.run(prepare: { rows in
            try window.waitUntilDecoded(through: rows.upperBound - 1 + offset.dy)
        }, compute: { part, rows, buffer in
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
                let first = inside.lowerBound + offset.dx - left
                let o = out + inside.lowerBound * 4
                alphas.withUnsafeBufferPointer { alphas in
                    let alphas = UnsafeBufferPointer(rebasing: alphas[inside])
                    if let chain {
                        chain.run(window.row(y), width: reader.width, y: y, slot: slots[part], first: first, alphas: alphas,
                                  into: o)
                    } else if hasMemo {
                        Self.copy(window.row(y) + first * 3, alphas: alphas, into: o) { memo.unsafelyUnwrapped.value($0, $1, $2) }
                    } else {
                        Self.copy(window.row(y) + first * 3, alphas: alphas, into: o) { ($0, $1, $2) }
                    }
                }
            }
        }, finished: { rows in
            window.release(below: rows.upperBound + offset.dy)
        }, ahead: { next in
            try decode.decode(through: next.upperBound - 1 + offset.dy)
        }, sink: sink)
        return reader.warnings
    }

    /// `alphas.count` decoded pixels from `p` to RGBA8 at `o`, each colour through `colour`,
    /// transparent black where the alpha is 0.
    @inline(__always)
    private static func copy(_ p: UnsafeMutablePointer<UInt8>, alphas: UnsafeBufferPointer<UInt8>,
                             into o: UnsafeMutablePointer<UInt8>, colour: (UInt8, UInt8, UInt8) -> (UInt8, UInt8, UInt8)) {
        var (p, o) = (p, o)
        for alpha in alphas {
            if alpha == 0 { o[0] = 0; o[1] = 0; o[2] = 0 } else { (o[0], o[1], o[2]) = colour(p[0], p[1], p[2]) }
            o[3] = alpha
            o += 4; p += 3
        }
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
                                                                      : region.height,
                                             margins: reader.margins)
        var pipeline = pipeline
        pipeline.warming.append(decoded.storageBytes)
        let decode = PulledDecode(reader: reader, window: decoded)
        let exactEncoding = program.shrinksThroughExactCurve
        let stream = SampledStream(plan: plan, space: program.space, exactEncoding: exactEncoding,
                                   sampler: sampler, needs: needs, pipeline: pipeline, columnOffset: reader.columnOffset,
                                   sink: sink)
        let memo = program.storedFrameMemo()
        if memo != nil || !regionPass.isEmpty || program.runsPerStoredPixel {
            // The stored-frame kernels run once per source pixel (once per distinct colour,
            // through the memo), on every core, as rows are needed: the decoding task, which
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
            // A window another kernel reads holds what the working window holds; the last, which
            // only the sampler reads, holds the sampler's rows and one batch of the kernel's (a
            // 24 MP portrait's blur: 345 rows instead of 657, 21 MB less).
            var (window, ready) = (working, conversion.convert(through:))
            for (k, step) in program.neighbourhood.enumerated() {
                let last = k == program.neighbourhood.count - 1
                let capacity = last && needs.monotone
                    ? needs.span + max(0, firstNeed - region.y) + NeighbourhoodConversion.batch(radius: step.kernel.radius)
                    : working.capacity
                let stage = NeighbourhoodConversion(input: window, previous: ready, step: step, capacity: capacity,
                                                    columnOffset: reader.columnOffset, imageSize: plan.decodedSize)
                (window, ready) = (stage.output, stage.convert(through:))
            }
            try stream.run(texels: FloatTexels(), window: window, ready: ready, ahead: { try decode.decode(through: $0) })
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
            try stream.run(texels: ByteTexels(table: table), samplesEncoded: samplesEncoded, window: decoded,
                           ready: { try decoded.waitUntilDecoded(through: $0) }, ahead: { try decode.decode(through: $0) })
        }
        return reader.warnings
    }

    /// Quantizes `count` sampled RGBA float pixels (alpha = coverage) to RGBA8: colour through
    /// `colour` (encoded or working values, per the caller), transparent black where alpha rounds
    /// to 0, as `Renderer.quantized`.
    @inline(__always)
    static func quantize(_ source: UnsafeMutablePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt8>,
                                 colour: (Float) -> UInt8) {
        for x in 0..<count {
            let (s, o) = (source + x * 4, out + x * 4)
            let alpha = WorkingSpace.byte(encoded: s[3])
            o[3] = alpha
            if alpha == 0 { o[0] = 0; o[1] = 0; o[2] = 0 } else { o[0] = colour(s[0]); o[1] = colour(s[1]); o[2] = colour(s[2]) }
        }
    }
}
