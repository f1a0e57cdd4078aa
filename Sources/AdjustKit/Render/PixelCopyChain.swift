/// The colour chain on one decoded row, for the pixel copy (`FusedRenderer`) of a chain whose
/// stored-frame steps run per pixel (`ColourProgram.storedTail`: SmartTone's local light, grain):
/// the decoded bytes to working values (through the stored-frame memo, or the decode table
/// alone), the tail at the row's place, then the output's per-colour kernels, and the row
/// quantized to the output's RGBA8.
///
/// This is the sampled path's arithmetic on the same row: its stored-frame conversion into a
/// window of working floats, then a sampler on texel centres that reads each texel whole (weight
/// 1) and quantizes it. So the bytes are the same, without that window: reading it back was a
/// ninth of a Tone + Color + B&W JPEG's CPU and a sixteenth of a SmartTone HEIC's
/// (docs/benchmark.md, tenth part).
final class PixelCopyChain {
    private let program: ColourProgram
    private let memo: ColourMemo<SIMD3<Float>>?
    /// Decoded byte → working value (`space.fromByte`).
    private let table: UnsafeMutablePointer<Float>
    private let imageSize: PixelSize, columnOffset: Int
    /// Where the chain ends in a pass of chunk steps (`StoredRowStep.chunkSteps`) with no
    /// output-frame kernel after it: the stored-frame steps before that pass, and the pass's
    /// steps, split once here rather than on every row.
    private let quantizedPass: (before: [any StoredRowStep], pass: ChunkPass)?

    /// The chain of `program` on rows of an image of `imageSize` (the decoded size) whose decoded
    /// columns start at `columnOffset`; nil when no stored-frame step runs per pixel (the pixel
    /// copy then takes one memo of the whole chain, byte to byte).
    init?(program: ColourProgram, imageSize: PixelSize, columnOffset: Int) {
        guard !program.storedTail.isEmpty, program.runsOnRowsAlone else { return nil }
        (self.program, self.imageSize, self.columnOffset) = (program, imageSize, columnOffset)
        memo = program.storedFrameMemo()
        table = .allocate(capacity: 256)
        table.initialize(from: program.space.fromByte, count: 256)
        if program.outputFrame.isEmpty, let pass = program.storedTail.last?.chunkSteps {
            quantizedPass = (Array(program.storedTail.dropLast()), ChunkPass(pass))
        } else {
            quantizedPass = nil
        }
    }

    deinit { table.deallocate() }

    /// Decoded row `y`'s `width` pixels (from `columnOffset`) through the chain, its pixels `first`
    /// … `first + alphas.count − 1` quantized to RGBA8 at `out` with `alphas` (black where the
    /// alpha is 0); `slot` holds the row's working values, three a pixel, on the way.
    ///
    /// Where the chain ends in a pass of chunk steps (`StoredRowStep.chunkSteps`: the Smart
    /// models'), each chunk of that pass is quantized from its planes as it leaves the last step,
    /// where the pass wrote the planes back into the row and a loop of its own read them again:
    /// the same steps on the same chunks, so the same bytes (docs/benchmark.md, seventeenth part).
    func run(_ row: UnsafeMutablePointer<UInt8>, width: Int, y: Int, slot: UnsafeMutablePointer<Float>,
             first: Int, alphas: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
        StoredFrameConversion.working(row, width: width, into: slot, cells: memo?.cells, table: table)
        ByteQuantizer.shared(for: program.space).withBound { quantizer in
            guard let (before, pass) = quantizedPass else {
                program.applyStoredTail(row: slot, count: width, x0: columnOffset, y: y, imageSize: imageSize)
                for kernel in program.outputFrame { kernel.apply(row: slot, count: width) }
                return Self.quantize(slot + first * 3, alphas: alphas, quantizer, into: out)
            }
            ColourProgram.apply(before, row: slot, count: width, x0: columnOffset, y: y, imageSize: imageSize)
            RGBPlanes.forEachChunk(row: slot, count: width, { chunk, start in
                pass.apply(chunk, x: columnOffset + start, y: y, imageSize: imageSize)
            }, then: { chunk, start in
                Self.quantize(chunk, from: start, first: first, alphas: alphas, quantizer, into: out)
            })
        }
    }

    /// `alphas.count` working-space pixels from `p` (three values each) quantized to RGBA8 at `o`,
    /// four at a time (`ByteQuantizer.Bound.store`), the last one to three one by one.
    private static func quantize(_ p: UnsafeMutablePointer<Float>, alphas: UnsafeBufferPointer<UInt8>,
                                 _ quantizer: ByteQuantizer.Bound, into o: UnsafeMutablePointer<UInt8>) {
        let width = Lanes.scalarCount, alpha = alphas.baseAddress!
        var i = 0
        while i + width <= alphas.count {
            let (r, g, b) = RGBPlanes.split(p + 3 * i)
            quantizer.store(r, g, b, alphas: UnsafeRawPointer(alpha + i).loadUnaligned(as: SIMD4<UInt8>.self),
                            into: UnsafeMutableRawPointer(o + 4 * i))
            i += width
        }
        while i < alphas.count {
            let q = p + 3 * i
            quantizer.store(q[0], q[1], q[2], alpha: alpha[i], into: o + 4 * i)
            i += 1
        }
    }

    /// The pixels of `chunk` (pixels `start` … of the row) that are among the row's `first` …
    /// `first + alphas.count − 1`, quantized to RGBA8 at `o` (the first of those at `o`).
    private static func quantize(_ chunk: RGBPlanes, from start: Int, first: Int, alphas: UnsafeBufferPointer<UInt8>,
                                 _ quantizer: ByteQuantizer.Bound, into o: UnsafeMutablePointer<UInt8>) {
        let width = Lanes.scalarCount, alpha = alphas.baseAddress!
        for group in 0..<chunk.groups {
            // The group's first pixel's place in the output.
            let k = start + group * width - first
            if k >= 0, k + width <= alphas.count, group * width + width <= chunk.count {
                quantizer.store(chunk.r[group], chunk.g[group], chunk.b[group],
                                alphas: UnsafeRawPointer(alpha + k).loadUnaligned(as: SIMD4<UInt8>.self),
                                into: UnsafeMutableRawPointer(o + 4 * k))
                continue
            }
            for lane in 0..<min(width, chunk.count - group * width) where k + lane >= 0 && k + lane < alphas.count {
                quantizer.store(chunk.r[group][lane], chunk.g[group][lane], chunk.b[group][lane], alpha: alpha[k + lane],
                                into: o + 4 * (k + lane))
            }
        }
    }
}
