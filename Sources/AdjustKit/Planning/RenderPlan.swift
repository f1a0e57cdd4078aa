/// Everything about a render that sizes alone determine, computed before a pixel is touched
/// (docs/architecture.md): what `adjust inspect` prints and what the renderer executes.
package struct RenderPlan: Equatable, Sendable {
    /// The JPEG's pixel size before EXIF orientation.
    package var storedSize: PixelSize
    /// Applied to the output after the chain.
    package var orientation: Orientation
    /// The edit as parsed.
    package var chain: EditChain
    /// E_out: the surviving rectangle at full resolution, in the CI frame, whole pixels.
    package var outputExtent: PixelRect
    /// The DCT scale the JPEG is decoded at; finer than a requested scale when the edit has colour
    /// filters, and chosen from the limit for `--max-size`.
    package var decodeScale: DecodeScale
    /// The change of frame from the stored image to that decode (sx, sy, δ).
    package var rescale: RescaleFactors
    /// The chain in the decoded image's frame (geometry.md §2).
    package var rescaledChain: EditChain
    /// The geometry of `rescaledChain` as one transform and an optional crop rectangle.
    package var transform: AffineMap
    /// The crop of `rescaledChain`, in decoded pixels after `transform` (CI frame, y up); nil for none.
    package var cropRect: Rect?
    /// Where output pixels are sampled: the rescaled extent s·E_out, and how many pixels span it.
    package var samplingGrid: SamplingGrid
    /// The decoded pixels the sampling can touch (top-left raster of the decoded image).
    package var sourceRegion: PixelRect
    /// The decoded pixels the renderer asks the decoder for: the source region grown by the
    /// chain's neighbourhood radius (Sharpen, Definition, Noise Reduction read that far around
    /// each pixel: `NeighbourhoodFilter`), clipped to the decode, then to hold whole every red-eye
    /// repair that can reach it (each reads its whole area: `StoredRegionPass`); the source region
    /// itself for every other chain.
    package var decodeRegion: PixelRect
    /// The rows and columns each side of `sourceRegion` that `decodeRegion` was grown by (before
    /// clipping): the chain's neighbourhood radii added up, in decoded pixels; 0 for most chains.
    package var neighbourhoodRadius: Int
    /// The raster after the optional area resample (`--max-size`), before orientation.
    package var outputSize: PixelSize
    /// What is written.
    package var orientedSize: PixelSize
    /// Remarks made while planning (e.g. an out-of-range EXIF orientation), one line each.
    package var warnings: [String]

    /// The decode's pixel size, ⌈W·s⌉ × ⌈H·s⌉.
    package var decodedSize: PixelSize { rescale.decodedSize }
    /// True when the sampled raster is area-resampled down to `outputSize`.
    package var needsResample: Bool { samplingGrid.size != outputSize }
    /// The chain's colour steps, in order.
    package var colourSteps: [EditStep] { chain.steps.filter { !$0.isGeometry } }
}

/// A raster of `size` pixels spanning `extent` (CI frame, y up). Pixel (i, j), counted from the
/// top-left, has its centre at (x + (i + ½)·w/cols, y + h − (j + ½)·h/rows).
package struct SamplingGrid: Equatable, Sendable {
    /// The rectangle the raster spans, in decoded pixels (CI frame, y up).
    package var extent: Rect
    /// Columns × rows sampled.
    package var size: PixelSize
    /// Width of one sampled pixel, in decoded pixels.
    package var pixelWidth: Double { extent.width / Double(size.width) }
    /// Height of one sampled pixel, in decoded pixels.
    package var pixelHeight: Double { extent.height / Double(size.height) }
}

/// What size of output the caller wants.
public enum SizeRequest: Equatable, Sendable {
    /// Full resolution.
    case full
    /// Decode at exactly this DCT scale; the output is the edit's size × the scale.
    case scale(DecodeScale)
    /// Longest output side at most this many pixels; never upscales.
    case maxSize(Int)
}
