/// The stored-frame neighbourhood kernels (Sharpen, Definition, Noise Reduction) on the streaming
/// renderer: one `NeighbourhoodConversion` per kernel, each turning the rows of the window before
/// it (the working rows of `StoredFrameConversion`, or the previous kernel's) into a window of its
/// own, `radius` rows behind its input, then running the stored-frame steps that follow the kernel
/// in the chain on the new rows. The sampler reads the last window. A conversion asked for rows
/// through v asks its input for rows through v + radius first, so the whole chain of windows
/// stays a band of rows moving down the image; the decoded region was grown by the radii added
/// up (`RenderPlan.decodeRegion`), which is what makes every pixel of the plan's source region
/// come out as in the whole-image reference.
///
/// Only chains with a neighbourhood kernel build these: the per-pixel and positional paths do not
/// see this code.
final class NeighbourhoodConversion {
    private let input: SourceRowWindow<Float>
    /// This kernel's rows (what the next conversion, or the sampler, reads).
    let output: SourceRowWindow<Float>
    /// Makes input rows through v available (the conversion before this one).
    private let previous: (Int) throws -> Void
    private let step: ColourProgram.NeighbourhoodStep
    private let columnOffset: Int, imageSize: PixelSize
    private let batch: Int
    private var next: Int

    /// Rows converted at least per call: each call re-reads `radius` rows above and below its
    /// rows, so a few calls of many rows cost less than many of a chunk's rows.
    static func batch(radius: Int) -> Int { max(32, 2 * radius) }

    /// The rows a window before (or of) a conversion may have to hold beyond what the sampler
    /// holds, for `program`'s neighbourhood kernels.
    static func extraRows(for program: ColourProgram) -> Int {
        program.neighbourhood.reduce(0) { $0 + 2 * $1.kernel.radius + batch(radius: $1.kernel.radius) }
    }

    init(input: SourceRowWindow<Float>, previous: @escaping (Int) throws -> Void, step: ColourProgram.NeighbourhoodStep,
         capacity: Int, columnOffset: Int, imageSize: PixelSize) {
        (self.input, self.previous, self.step) = (input, previous, step)
        (self.columnOffset, self.imageSize) = (columnOffset, imageSize)
        output = SourceRowWindow<Float>(top: input.top, bottom: input.bottom, width: input.width, capacity: capacity)
        batch = Self.batch(radius: step.kernel.radius)
        next = input.top
    }

    /// Converts rows through v (clamped to the region), and a batch more where the window has room.
    func convert(through v: Int) throws {
        let last = min(v, output.bottom - 1)
        guard next <= last else { return }
        let end = max(last, min(output.bottom - 1, next + batch - 1, output.lastRowWithRoom()))
        let r = step.kernel.radius
        try previous(min(end + r, input.bottom - 1))
        guard output.waitForRoom(through: end) else { throw CancellationError() }
        let rows = next..<(end + 1)
        let (input, output, kernel, tail) = (input, output, step.kernel, step.tail)
        let (width, columnOffset, imageSize) = (input.width, columnOffset, imageSize)
        let source = NeighbourhoodRows(rows: input.top..<input.bottom, width: width, columnOffset: columnOffset) {
            input.row($0)
        }
        let parts = min(ChunkedRowPipeline.workers, max(1, width / 64))
        ParallelRows.forEachPart(of: 0..<width, parts: parts) { _, columns in
            kernel.apply(rows: rows, columns: columns, input: source) { output.row($0) }
        }
        if !tail.isEmpty {
            ParallelRows.forEachPart(of: rows, parts: min(ChunkedRowPipeline.workers, rows.count)) { _, part in
                for y in part {
                    ColourProgram.apply(tail, row: output.row(y), count: width, x0: columnOffset, y: y, imageSize: imageSize)
                }
            }
        }
        output.finishRows(through: end)
        next = end + 1
        input.release(below: next - r)
    }
}
