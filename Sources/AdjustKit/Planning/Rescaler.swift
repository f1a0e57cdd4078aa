/// The change of frame from the stored image to a reduced (DCT-scaled) decode of it
/// (geometry.md §2): x′ = sx·x, y′ = sy·y + δ, because top-left raster coordinates scale exactly
/// while the CI frame's origin is the bottom edge. δ = H′ − sy·H, with H′ = ⌈sy·H⌉.
package struct RescaleFactors: Equatable, Sendable {
    /// Horizontal scale, decoded pixels per stored pixel.
    package var sx: Double
    /// Vertical scale, decoded pixels per stored pixel.
    package var sy: Double
    /// δ = H′ − sy·H, in decoded pixels: the bottom-edge offset from rounding the decoded height up.
    package var delta: Double
    /// The JPEG's size as stored, before EXIF orientation.
    package var storedSize: PixelSize
    /// The reduced decode's size, H′ its height.
    package var decodedSize: PixelSize

    /// Takes the factors as given; the caller keeps δ consistent with the two sizes.
    package init(sx: Double, sy: Double, delta: Double, storedSize: PixelSize, decodedSize: PixelSize) {
        (self.sx, self.sy, self.delta) = (sx, sy, delta)
        (self.storedSize, self.decodedSize) = (storedSize, decodedSize)
    }

    /// The factors of a DCT decode at `scale`: decoded size ⌈W·s⌉ × ⌈H·s⌉, the same s on both axes.
    package init(storedSize: PixelSize, scale: DecodeScale) {
        let decoded = scale.decodedSize(of: storedSize)
        self.init(sx: scale.value, sy: scale.value,
                  delta: Double(decoded.height) - scale.value * Double(storedSize.height),
                  storedSize: storedSize, decodedSize: decoded)
    }
}

extension EditChain {
    /// The same edit, expressed for the reduced decode described by `factors`, with the output
    /// scaled by (sx, sy) about the chain's own frame (geometry.md §2). The Camera Raw crop is
    /// first resolved against the stored size (its only use of it); then every step applies its
    /// own rule (`EditFilter.rescaled(by:)`: each pixel-valued parameter, every occurrence). One
    /// rule belongs to the frame change itself: the decoded frame's origin moves by δ, so a chain
    /// without an affine gets the translation (0, −δ) when δ ≠ 0.
    package func rescaled(by factors: RescaleFactors) -> EditChain {
        var chain = resolvingSizeDependentGeometry(storedSize: factors.storedSize).mapFilters { $0.rescaled(by: factors) }
        if chain.affine == nil, factors.delta != 0 { chain.affine = .translation(0, -factors.delta) }
        return chain
    }
}
