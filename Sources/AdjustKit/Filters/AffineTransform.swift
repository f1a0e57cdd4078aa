/// `CIAffineTransform` (`aas:AffineA` … `aas:AffineY`): the map from the stored image into the
/// output frame (CI frame, y up); the values are `AffineMap`.
extension AffineMap: SingleAdjustmentXMPFilter, GeometryFilter {
    package static let filterName = "CIAffineTransform"
    static let xmpPropertyNames = ["AffineA", "AffineB", "AffineC", "AffineD", "AffineX", "AffineY"]

    package var parameterValues: [(String, ParameterValue)] { [("Transform", .numbers([a, b, c, d, tx, ty]))] }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .exact }

    /// geometry.md §2: A′ = S·A·S⁻¹, t′ = S·t − A′·(0, δ), S = diag(sx, sy).
    package func rescaled(by factors: RescaleFactors) -> AffineMap {
        let (sx, sy, delta) = (factors.sx, factors.sy, factors.delta)
        let b = self.b * sy / sx, c = self.c * sx / sy
        return AffineMap(a: a, b: b, c: c, d: d, tx: sx * tx - c * delta, ty: sy * ty - d * delta)
    }

    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> AffineMap? {
        guard xmp.hasAll(xmpPropertyNames, of: filterName) else { return nil }
        let v = try xmp.numbers(xmpPropertyNames)
        return AffineMap(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
    }

    func write(to xmp: inout AdjustmentXMPWriter) {
        xmp.numbers(Self.xmpPropertyNames, [a, b, c, d, tx, ty])
    }
}

extension EditChain {
    /// `CIAffineTransform`, from the stored image into the output frame (CI frame, y up).
    package var affine: AffineMap? {
        get { self[AffineMap.self] }
        set { self[AffineMap.self] = newValue }
    }
}
