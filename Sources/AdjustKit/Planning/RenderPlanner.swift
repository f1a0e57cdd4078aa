/// Turns an edit, an image's size and orientation, and a size request into a `RenderPlan`.
package struct RenderPlanner: Sendable {
    /// Limits on what a plan may ask the renderer to allocate.
    package var maxOutputPixels: Int
    /// Longest side a planned raster may have, in pixels (JPEG's own limit is 65 500).
    package var maxOutputSide: Int

    /// Defaults: 100 MP and 65 500 px a side.
    package init(maxOutputPixels: Int = 100_000_000, maxOutputSide: Int = 65_500) {
        (self.maxOutputPixels, self.maxOutputSide) = (maxOutputPixels, maxOutputSide)
    }

    /// - Parameters:
    ///   - exifOrientation: the JPEG's EXIF orientation value, nil when it has none.
    ///   - scaledDecode: whether the decoder can decode at a DCT scale (a JPEG); false for a
    ///     HEIC, which is always decoded whole and area-resampled (`sizes(for:…)`).
    package func plan(storedSize: PixelSize, exifOrientation: Int?, chain: EditChain,
                     size request: SizeRequest, scaledDecode: Bool = true) throws(PlanError) -> RenderPlan {
        var warnings: [String] = []
        let fileOrientation = Self.orientation(exifOrientation, warnings: &warnings)
        // A modern edit's own orientation step (U4: instead of the file's, by default).
        let orientation = chain[PhotosOrientation.self]?.applied(toFile: fileOrientation) ?? fileOrientation

        // The surviving rectangle at full resolution (geometry.md §1).
        let resolved = chain.resolvingSizeDependentGeometry(storedSize: storedSize)
        let transform = resolved.affine ?? .identity
        guard transform.isFinite else { throw .nonFiniteGeometry("affine transform") }
        guard transform.inverted != nil else { throw .singularAffine(transform) }
        let imageBounds = transform.boundingBox(of: PixelRect(x: 0, y: 0, width: storedSize.width,
                                                              height: storedSize.height).rect)
        var surviving = imageBounds
        if let crop = resolved.crop?.rect {
            guard crop.isFinite else { throw .nonFiniteGeometry("crop rectangle") }
            guard crop.width > 0, crop.height > 0 else {
                throw .emptyOutput("crop \(Self.describe(crop)) has no area")
            }
            surviving = crop.intersection(imageBounds)
            guard !surviving.isEmpty else {
                throw .emptyOutput("crop \(Self.describe(crop)) does not overlap the image, which lies in \(Self.describe(imageBounds))")
            }
        }
        guard surviving.width <= Double(maxOutputSide), surviving.height <= Double(maxOutputSide) else {
            throw .outputTooLarge(PixelSize(width: Int(min(surviving.width, 1e15)), height: Int(min(surviving.height, 1e15))),
                                  maxPixels: maxOutputPixels, maxSide: maxOutputSide)
        }
        guard [surviving.minX, surviving.minY, surviving.maxX, surviving.maxY].allSatisfy({ abs($0) < 1e15 }) else {
            throw .nonFiniteGeometry("result position (beyond ±1e15 pixels)")
        }
        let extent = surviving.integralExtent
        guard extent.width > 0, extent.height > 0 else {
            throw .emptyOutput("the surviving area \(Self.describe(surviving)) is thinner than a pixel")
        }
        let extentSize = PixelSize(width: extent.width, height: extent.height)

        let hasColourSteps = chain.steps.contains { !$0.isGeometry }
        let (scale, gridSize, outputSize) = try Self.sizes(for: request, extentSize: extentSize,
                                                           oversampling: hasColourSteps, scaledDecode: scaledDecode)
        for size in [gridSize, outputSize] where size.width > maxOutputSide || size.height > maxOutputSide
            || size.pixelCount > maxOutputPixels {
            throw .outputTooLarge(size, maxPixels: maxOutputPixels, maxSide: maxOutputSide)
        }

        let rescale = RescaleFactors(storedSize: storedSize, scale: scale)
        let rescaledChain = chain.rescaled(by: rescale)
        let rescaledTransform = rescaledChain.affine ?? .identity
        let grid = SamplingGrid(extent: extent.rect.scaled(sx: rescale.sx, sy: rescale.sy), size: gridSize)
        let sourceRegion = Self.sourceRegion(of: grid.extent, through: rescaledTransform, decodedSize: rescale.decodedSize)
        let radius = rescaledChain.neighbourhoodRadius

        return RenderPlan(
            storedSize: storedSize, orientation: orientation, chain: chain, outputExtent: extent,
            decodeScale: scale, rescale: rescale, rescaledChain: rescaledChain,
            transform: rescaledTransform, cropRect: rescaledChain.crop?.rect, samplingGrid: grid,
            sourceRegion: sourceRegion,
            decodeRegion: Self.redEyeGrown(Self.grow(sourceRegion, by: radius, within: rescale.decodedSize),
                                           chain: rescaledChain, decodedSize: rescale.decodedSize),
            neighbourhoodRadius: radius,
            outputSize: outputSize, orientedSize: orientation.orientedSize(of: outputSize),
            warnings: warnings)
    }

    /// EXIF orientation 0 or out of range means 1, with a warning (geometry.md §1).
    static func orientation(_ value: Int?, warnings: inout [String]) -> Orientation {
        guard let value else { return .identity }
        if let orientation = Orientation(rawValue: value) { return orientation }
        warnings.append("EXIF orientation \(value) is not 1–8; treated as 1")
        return .identity
    }

    /// The decode scale, the sampled raster's size and the final (pre-orientation) output size.
    ///
    /// With `oversampling` (the chain has colour filters) a reduced `.scale(s)` decodes at 2s
    /// (at most full size) and area-resamples to s: the filters are not linear, so applying them
    /// to 8×8 block averages differs from averaging the filtered full image (by over 1/255 in the
    /// mean at 1/8); at 2s the difference is well under that. Geometry-only edits decode at
    /// exactly s (geometry.md §3).
    ///
    /// Without `scaledDecode` (a HEIC: no DCT scaling) every request decodes at full size; a
    /// reduced output samples the full-size grid and area-resamples it, so `.scale(s)` and
    /// `.maxSize` give the same output size as for a JPEG. A scale above 1 samples the output
    /// grid directly (bilinear).
    static func sizes(for request: SizeRequest, extentSize: PixelSize, oversampling: Bool = false,
                      scaledDecode: Bool = true) throws(PlanError)
        -> (DecodeScale, grid: PixelSize, output: PixelSize) {
        func scaled(_ factor: Double) -> PixelSize {
            PixelSize(width: max(1, Int((Double(extentSize.width) * factor).rounded())),
                      height: max(1, Int((Double(extentSize.height) * factor).rounded())))
        }
        if !scaledDecode {
            let (_, _, output) = try sizes(for: request, extentSize: extentSize, oversampling: oversampling)
            let upscales = output.width > extentSize.width || output.height > extentSize.height
            return (.full, upscales ? output : extentSize, output)
        }
        switch request {
        case .full:
            return (.full, extentSize, extentSize)
        case .scale(let scale):
            let size = scaled(scale.value)
            guard oversampling, scale.numerator < 8 else { return (scale, size, size) }
            let decode = DecodeScale(numerator: min(8, 2 * scale.numerator)) ?? .full
            return (decode, scaled(decode.value), size)
        case .maxSize(let limit):
            guard limit >= 1 else { throw .invalidMaxSize(limit) }
            let longest = max(extentSize.width, extentSize.height)
            guard limit < longest else { return (.full, extentSize, extentSize) }
            let output = scaled(Double(limit) / Double(longest))
            // libvips's shrink-on-load rule (geometry.md §3): the smallest DCT scale whose
            // decode is still at least twice the output on both axes; the area resample finishes.
            // (n/8)·w ≥ 2·w_out  ⇔  n·w ≥ 16·w_out, in integers.
            let numerator = (1...8).first { (n: Int) -> Bool in
                extentSize.width * n >= 16 * output.width && extentSize.height * n >= 16 * output.height
            } ?? 8
            let scale = DecodeScale(numerator: numerator) ?? .full
            return (scale, scaled(scale.value), output)
        }
    }

    /// T⁻¹ of the sampled extent, widened by the bilinear support (1 px), clipped to the decode.
    static func sourceRegion(of extent: Rect, through transform: AffineMap,
                             decodedSize: PixelSize) -> PixelRect {
        guard let inverse = transform.inverted else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        let bounds = inverse.boundingBox(of: extent)
        let W = Double(decodedSize.width), H = Double(decodedSize.height)
        // Clamp in floating point first: an absurd transform must not overflow the Int conversion.
        func clamped(_ value: Double, _ limit: Double) -> Int { Int(min(max(value, 0), limit)) }
        let u0 = clamped((bounds.minX - 1).rounded(.down), W)
        let u1 = clamped((bounds.maxX + 1).rounded(.up), W)
        let v0 = clamped((H - bounds.maxY - 1).rounded(.down), H)
        let v1 = clamped((H - bounds.minY + 1).rounded(.up), H)
        return PixelRect(x: u0, y: v0, width: max(0, u1 - u0), height: max(0, v1 - v0))
    }

    /// `region` with `radius` more pixels on every side, clipped to an image of `size`; an empty
    /// region stays as it is.
    /// `region` grown to hold whole every red-eye repair that can change a pixel in it (each reads
    /// its whole area: `StoredRegionPass`), so that the plan names every pixel that will be
    /// decoded and `inspect` prints it.
    static func redEyeGrown(_ region: PixelRect, chain: EditChain, decodedSize: PixelSize) -> PixelRect {
        guard let corrections = chain[RedEyeCorrections.self] else { return region }
        let pieces = RedEyeRepair(corrections: corrections).work(imageSize: decodedSize).pieces
        return StoredRegionPass.region(holding: pieces, reaching: region)
    }

    static func grow(_ region: PixelRect, by radius: Int, within size: PixelSize) -> PixelRect {
        guard radius > 0, region.width > 0, region.height > 0 else { return region }
        let (x0, y0) = (max(0, region.x - radius), max(0, region.y - radius))
        let (x1, y1) = (min(size.width, region.x + region.width + radius), min(size.height, region.y + region.height + radius))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    static func describe(_ rect: Rect) -> String {
        "(x \(NumberStyle.coreImage.format(rect.x)), y \(NumberStyle.coreImage.format(rect.y)), "
            + "w \(NumberStyle.coreImage.format(rect.width)), h \(NumberStyle.coreImage.format(rect.height)))"
    }
}
