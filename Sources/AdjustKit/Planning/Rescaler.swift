/// The change of frame from the stored image to a reduced (DCT-scaled) decode of it
/// (geometry.md §2): x′ = sx·x, y′ = sy·y + δ, because top-left raster coordinates scale exactly
/// while the CI frame's origin is the bottom edge. δ = H′ − sy·H, with H′ = ⌈sy·H⌉.
public struct RescaleFactors: Equatable, Sendable {
    /// Horizontal scale, decoded pixels per stored pixel.
    public var sx: Double
    /// Vertical scale, decoded pixels per stored pixel.
    public var sy: Double
    /// δ = H′ − sy·H, in decoded pixels: the bottom-edge offset from rounding the decoded height up.
    public var delta: Double
    /// The JPEG's size as stored, before EXIF orientation.
    public var storedSize: PixelSize
    /// The reduced decode's size, H′ its height.
    public var decodedSize: PixelSize

    /// Takes the factors as given; the caller keeps δ consistent with the two sizes.
    public init(sx: Double, sy: Double, delta: Double, storedSize: PixelSize, decodedSize: PixelSize) {
        (self.sx, self.sy, self.delta) = (sx, sy, delta)
        (self.storedSize, self.decodedSize) = (storedSize, decodedSize)
    }

    /// The factors of a DCT decode at `scale`: decoded size ⌈W·s⌉ × ⌈H·s⌉, the same s on both axes.
    public init(storedSize: PixelSize, scale: DecodeScale) {
        let decoded = scale.decodedSize(of: storedSize)
        self.init(sx: scale.value, sy: scale.value,
                  delta: Double(decoded.height) - scale.value * Double(storedSize.height),
                  storedSize: storedSize, decodedSize: decoded)
    }
}

extension EditChain {
    /// The same edit, expressed for the reduced decode described by `factors`, with the output
    /// scaled by (sx, sy) about the chain's own frame (geometry.md §2). Every pixel-valued
    /// parameter, every occurrence:
    /// * affine: A′ = S·A·S⁻¹, t′ = S·t − A′·(0, δ), S = diag(sx, sy); when the chain has no
    ///   affine and δ ≠ 0, the δ shift still applies, so a translation (0, −δ) is added;
    /// * crop: R′ = S·R, no rounding;
    /// * highlight/shadow radius × √(sx·sy);
    /// * red-eye: the frame becomes the decoded size, pixel fields × sx or sy;
    /// * the Camera Raw crop is first resolved against the stored size (its only use of it);
    /// * nothing else: the colour filters are unit-free.
    public func rescaled(by factors: RescaleFactors) -> EditChain {
        var chain = resolvingCameraRawCrop(storedSize: factors.storedSize)
        let (sx, sy, delta) = (factors.sx, factors.sy, factors.delta)

        if let affine = chain.affine {
            let a = affine.a, b = affine.b * sy / sx, c = affine.c * sx / sy, d = affine.d
            chain.affine = AffineTransform(a: a, b: b, c: c, d: d,
                                           tx: sx * affine.tx - c * delta, ty: sy * affine.ty - d * delta)
        } else if delta != 0 {
            chain.affine = .translation(0, -delta)
        }
        chain.crop = chain.crop.map { Crop(rect: $0.rect.scaled(sx: sx, sy: sy)) }
        chain.highlightShadow?.radius *= (sx * sy).squareRoot()
        if var redEye = chain.redEye {
            redEye.width = Double(factors.decodedSize.width)
            redEye.height = Double(factors.decodedSize.height)
            redEye.corrections = redEye.corrections.map { $0.rescaled(sx: sx, sy: sy) }
            chain.redEye = redEye
        }
        return chain
    }
}

extension RedEyeCorrection {
    func rescaled(sx: Double, sy: Double) -> RedEyeCorrection {
        var copy = self
        for (field, text) in fields {
            guard let axes = Self.pixelAxes(of: field, naming: naming) else { continue }
            let components = text.split(separator: " ")
            guard components.count == axes.count else { continue }   // validated when parsed
            copy.fields[field] = zip(components, axes).map { component, axis in
                guard let axis, let value = Double(component) else { return String(component) }
                return NumberStyle.exact.format(value * (axis == .x ? sx : sy))
            }.joined(separator: " ")
        }
        return copy
    }
}
