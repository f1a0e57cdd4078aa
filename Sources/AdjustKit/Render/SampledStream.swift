import Foundation

/// The sampled path's pipeline: chunks of output rows sampled from a window of source rows
/// (decoded bytes, or working-space floats after the stored-frame kernels), then shrunk or
/// quantized, handed to the sink.
struct SampledStream {
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
                                  ready: @escaping (Int) throws -> Void, ahead: @escaping (Int) throws -> Void) throws {
        let maker = SampledRowMaker(plan: plan, space: space, exactEncoding: exactEncoding, samplesEncoded: samplesEncoded,
                                    sampler: sampler, window: window, texels: texels, columnOffset: columnOffset)
        var pipeline = pipeline
        if needs.shrinkTemplate != nil { pipeline.partCount = ChunkedRowPipeline.workers }
        let scratch = (0..<pipeline.partCount).map { _ in
            SampledRowScratch(rowWidth: needs.shrinkTemplate == nil ? sampler.columns : plan.outputSize.width,
                              shrink: needs.shrinkTemplate)
        }
        try pipeline.run(prepare: { rows in
            if let need = needs.sourceRows(rows) { try ready(need.upperBound) }
        }, compute: { part, rows, buffer in
            maker.makeRows(rows, into: buffer, scratch: scratch[part])
        }, finished: { rows in
            if let next = needs.firstRowNeeded(after: rows) { window.release(below: next) }
        }, ahead: { next in
            if let need = needs.sourceRows(next) { try ahead(need.upperBound) }
        }, sink: sink)
    }
}

/// Output rows from a window of source rows: each grid row sampled, then either encoded and
/// area-shrunk (`--max-size`) or quantized directly.
struct SampledRowMaker<Texels: TexelReader> {
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

/// One part's buffers for the sampled path, kept from chunk to chunk (allocating them per
/// chunk cost page faults, and copying the shrink's rows per chunk lost its row cache).
final class SampledRowScratch {
    /// One row of RGBA floats before quantizing: a sampled grid row without a shrink, a shrunk
    /// output row with one (the shrink samples into rows of its own).
    let row: UnsafeMutablePointer<Float>
    /// This part's copy of the streaming shrink (its own rows, shared weights); nil without one.
    var shrink: StreamingAreaShrink?

    init(rowWidth: Int, shrink: StreamingAreaShrink?) {
        row = .allocate(capacity: rowWidth * 4)
        self.shrink = shrink
    }

    deinit { row.deallocate() }
}
