/// The colour chain on one decoded row, for the pixel copy (`FusedRenderer`) of a chain whose
/// stored-frame steps run per pixel (`ColourProgram.storedTail`: SmartTone's local light, grain):
/// the decoded bytes to working values (through the stored-frame memo, or the decode table
/// alone), the tail at the row's place, then the output's per-colour kernels. The caller
/// quantizes.
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

    /// The chain of `program` on rows of an image of `imageSize` (the decoded size) whose decoded
    /// columns start at `columnOffset`; nil when no stored-frame step runs per pixel (the pixel
    /// copy then takes one memo of the whole chain, byte to byte).
    init?(program: ColourProgram, imageSize: PixelSize, columnOffset: Int) {
        guard !program.storedTail.isEmpty, program.runsOnRowsAlone else { return nil }
        (self.program, self.imageSize, self.columnOffset) = (program, imageSize, columnOffset)
        memo = program.storedFrameMemo()
        table = .allocate(capacity: 256)
        table.initialize(from: program.space.fromByte, count: 256)
    }

    deinit { table.deallocate() }

    /// Decoded row `y`'s `width` pixels (from `columnOffset`) through the chain into `slot`, three
    /// working values a pixel.
    func run(_ row: UnsafeMutablePointer<UInt8>, width: Int, y: Int, into slot: UnsafeMutablePointer<Float>) {
        StoredFrameConversion.working(row, width: width, into: slot, cells: memo?.cells, table: table)
        program.applyStoredTail(row: slot, count: width, x0: columnOffset, y: y, imageSize: imageSize)
        for kernel in program.outputFrame { kernel.apply(row: slot, count: width) }
    }
}
