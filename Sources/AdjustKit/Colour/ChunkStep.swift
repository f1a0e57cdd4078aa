/// A stored-frame step that works on a row a chunk of planes at a time (`RGBPlanes`), as the
/// Smart models do (`LaneKernel`; SmartTone's local light). Consecutive chunk steps run in one
/// pass over the row (`ChunkSteps`, which `ColourProgram`'s adder makes of them): the row is
/// split into planes once, and each chunk stays in the first-level cache through every step,
/// where each step in a pass of its own split and merged the whole row again (a Tone + Color +
/// B&W render's three passes: docs/benchmark.md, tenth part). The arithmetic of each step is its
/// own either way, so the bytes are the same.
protocol ChunkStep: StoredRowStep {
    /// The step on `chunk`: pixels `x` … `x + chunk.count − 1` of decoded row `y` of an image of
    /// `imageSize`, the chunk's last group padded with copies of its last pixel.
    func apply(_ chunk: RGBPlanes, x: Int, y: Int, imageSize: PixelSize)
}

extension ChunkStep {
    var chunkSteps: [any ChunkStep]? { [self] }
}

/// Consecutive chunk steps, in chain order, in one pass over each row.
struct ChunkSteps: StoredRowStep {
    let steps: [any ChunkStep]
    private let pass: ChunkPass

    init(steps: [any ChunkStep]) { (self.steps, pass) = (steps, ChunkPass(steps)) }

    var chunkSteps: [any ChunkStep]? { steps }

    /// Every step on each chunk of the row in turn.
    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        RGBPlanes.forEachChunk(row: row, count: count) { chunk, start in
            pass.apply(chunk, x: x0 + start, y: y, imageSize: imageSize)
        }
    }
}

/// Chunk steps, in chain order, to run on each chunk of a row, each called without being copied.
///
/// Why not the array of steps itself: calling a step where it lies in an array (or through a
/// pointer into one) made the compiler copy its existential first, which retained what the step
/// holds and released it after, on every chunk of 256 pixels, on both cores at once
/// (`objdump`: the outlined existential copy and destroy around each call). A step held in a
/// `let` of a class instance is immutable, so it is called in place; the instances are reached
/// through `Unmanaged` references, which load without a retain, and kept alive by `boxes`. A
/// Tone + Color + B&W render 0.944 of the time (paired), CPU 0.938 (docs/benchmark.md,
/// twenty-first part).
struct ChunkPass: Sendable {
    private final class Box: Sendable {
        let step: any ChunkStep
        init(_ step: any ChunkStep) { self.step = step }
    }

    private let boxes: [Box]
    private let steps: [Unmanaged<Box>]

    init(_ steps: [any ChunkStep]) {
        boxes = steps.map(Box.init)
        self.steps = boxes.map { Unmanaged.passUnretained($0) }
    }

    /// Every step on `chunk`, in order.
    func apply(_ chunk: RGBPlanes, x: Int, y: Int, imageSize: PixelSize) {
        steps.withUnsafeBufferPointer { steps in
            for i in steps.indices {
                steps[i]._withUnsafeGuaranteedRef { $0.step.apply(chunk, x: x, y: y, imageSize: imageSize) }
            }
        }
    }
}
