/// A stored-frame step run on every pixel, a run of a decoded row at a time: each step after the
/// first one that reads more than a pixel's colour (`ColourProgram.storedTail`, a neighbourhood
/// step's `tail`). A kind of kernel that runs there conforms, so the program and the renderers
/// that run these steps need no change for it.
protocol StoredRowStep: Sendable {
    /// The step on `count` RGB pixels of decoded row `y` from image column `x0`, in an image of
    /// `imageSize`. A run may start at any column (a region decode's column offset, a worker's
    /// share), so a pixel's result must not depend on the run: that keeps the streaming renderer
    /// bit-identical to the reference pipeline.
    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize)

    /// The step as chunk steps (`ChunkStep`), which can share a pass over the row with the chunk
    /// steps next to it; nil for a step that runs the row its own way.
    var chunkSteps: [any ChunkStep]? { get }
}

extension StoredRowStep {
    var chunkSteps: [any ChunkStep]? { nil }
}
