extension RenderPlan {
    /// True when the plan alone guarantees that every output pixel is opaque (alpha 255), so that
    /// a PNG streamed as it is rendered can be written RGB before its first row exists.
    ///
    /// Alpha comes from geometry only (geometry.md §1; colour steps never touch it): a sample
    /// loses the weight of its bilinear taps that fall outside the image, and is multiplied by the
    /// crop's coverage of its output pixel; a `--max-size` shrink averages those. The taps of a
    /// sample all lie inside when its source point is within the texel centres of the image,
    /// [0, W − 1] × [0, H − 1] (a tap of weight 0 outside counts for nothing). The source point is
    /// affine in the grid position, so its distance outside that rectangle is largest at one of the
    /// grid's four corner pixels: a corner d pixels outside loses at most d of its weight on that
    /// axis. The guarantee is that the corners' worst loss and the least coverage leave every
    /// sample at least 0.999 (alpha rounds to 255 from 254.5/255 ≈ 0.99804: the margin covers the
    /// renderer's own rounding of positions and weights). A plan that is not guaranteed may still
    /// come out opaque: the renderer then finds out as it goes (`Renderer.renderPNG`).
    var isOpaqueForCertain: Bool {
        let grid = samplingGrid
        guard grid.size.width > 0, grid.size.height > 0, transform.inverted != nil else { return false }
        let sampler = OutputRowSampler(plan: self, outputKernels: [])
        let inverse = sampler.inverse
        let (width, height) = (Double(decodedSize.width), Double(decodedSize.height))
        var (outsideX, outsideY) = (0.0, 0.0)
        for qx in [sampler.centreX.first!, sampler.centreX.last!] {
            for qy in [sampler.centreY.first!, sampler.centreY.last!] {
                // As GridRowSampling.sampleEach: texel coordinates, top-left origin.
                let fx = inverse.a * qx + inverse.c * qy + inverse.tx - 0.5
                let fy = height - (inverse.b * qx + inverse.d * qy + inverse.ty) - 0.5
                guard fx.isFinite, fy.isFinite else { return false }
                outsideX = max(outsideX, -fx, fx - (width - 1))
                outsideY = max(outsideY, -fy, fy - (height - 1))
            }
        }
        let weight = max(0, 1 - outsideX) * max(0, 1 - outsideY)
        let coverage = sampler.coverageX.min()! * sampler.coverageY.min()!
        return weight * coverage >= 0.999
    }
}
