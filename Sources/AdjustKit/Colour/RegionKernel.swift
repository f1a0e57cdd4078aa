/// Work on the stored image (working-space RGB) that reads and writes neighbourhoods (red-eye
/// repair), in pieces confined to areas of the image: the whole-image reference runs every piece
/// on the whole image; the streaming renderer runs those that can reach its output on a window
/// of rows holding their areas (`StoredRegionPass`).
protocol RegionKernel: ColourKernel {
    /// The work on a stored image of `imageSize` (a reduced decode's, for a reduced render).
    func work(imageSize: PixelSize) -> RegionWork
}

extension RegionKernel {
    /// First on the stored image, before every other stored-frame step: the pieces run once the
    /// conversion holds all of an area's rows.
    func join(_ program: inout ColourProgram, onOutput: Bool) { program.addStoredRegion(self) }
}

/// A region kernel's work on one stored image, in order.
struct RegionWork {
    /// One piece: it reads and writes only pixels inside `area` (raster rectangle, top-left, in
    /// the image), so pieces whose areas do not overlap are independent.
    struct Piece {
        let area: PixelRect
        /// Runs the piece on `pixels`, which hold at least `area`.
        let apply: (StoredPixels, WorkingSpace) -> Void
    }

    var pieces: [Piece]
    /// Remarks about the parts that cannot be applied, one line each.
    var warnings: [String]
}
