/// `CICrop`: keeps `rect` (pixels, in the frame after the affine transform, y up) of its input.
/// Integers in practice; fractions are kept and produce coverage-weighted edge pixels.
package struct Crop: Equatable, Sendable {
    /// The kept rectangle, in pixels of the frame after the affine transform (CI frame, y up).
    package var rect: Rect
    /// Keeps `rect` (pixels, CI frame: origin bottom-left, y up).
    package init(rect: Rect) { self.rect = rect }
    /// Keeps the `width` × `height` rectangle whose bottom-left corner is (`x`, `y`), in pixels, y up.
    package init(x: Double, y: Double, width: Double, height: Double) {
        rect = Rect(x: x, y: y, width: width, height: height)
    }
}

extension Crop: SingleAdjustmentXMPFilter, GeometryFilter {
    package static let filterName = "CICrop"
    static let xmpPropertyNames = ["CropX", "CropY", "CropW", "CropH"]

    package var parameterValues: [(String, ParameterValue)] {
        [("Rectangle", .numbers([rect.x, rect.y, rect.width, rect.height]))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .exact }

    /// geometry.md §2: R′ = S·R, no rounding.
    package func rescaled(by factors: RescaleFactors) -> Crop { Crop(rect: rect.scaled(sx: factors.sx, sy: factors.sy)) }

    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> Crop? {
        guard xmp.hasAll(xmpPropertyNames, of: filterName) else { return nil }
        let v = try xmp.numbers(xmpPropertyNames)
        return Crop(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    func write(to xmp: inout AdjustmentXMPWriter) {
        xmp.numbers(Self.xmpPropertyNames, [rect.x, rect.y, rect.width, rect.height])
    }
}

extension EditChain {
    /// `CICrop`, in the frame after `affine`.
    package var crop: Crop? {
        get { self[Crop.self] }
        set { self[Crop.self] = newValue }
    }
}
