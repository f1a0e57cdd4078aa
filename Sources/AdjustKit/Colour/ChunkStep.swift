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

    var chunkSteps: [any ChunkStep]? { steps }

    /// Every step on each chunk of the row in turn.
    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        RGBPlanes.forEachChunk(row: row, count: count) { chunk, start in
            steps.apply(chunk, x: x0 + start, y: y, imageSize: imageSize)
        }
    }
}

extension Array where Element == any ChunkStep {
    /// Every step on `chunk`, in order, each called where it lies in the array: a `for step in`
    /// loop copied each step's existential, retaining what the step holds, on every chunk of 256
    /// pixels and both workers, whose cores then passed those counts back and forth (`swift_retain`
    /// and `swift_release` 2.2 % of a Tone + Color + B&W render's samples; docs/benchmark.md,
    /// seventeenth part).
    func apply(_ chunk: RGBPlanes, x: Int, y: Int, imageSize: PixelSize) {
        withUnsafeBufferPointer { steps in
            for i in steps.indices { steps[i].apply(chunk, x: x, y: y, imageSize: imageSize) }
        }
    }
}
