/// A modern Photos `Crop` adjustment (docs/spec/aae-format.md §5): straighten about the centre
/// of the stored image, then keep a rectangle in Core Image's frame, then move it to the origin.
/// Pixel-exact wherever the spec is; the unknowns U1 (the sign of the angle), U2 (the edge
/// `yOrigin` is measured from) and U3 (perspective) are read from `AAEAssumptions`.
package struct PhotosCrop: Equatable, Sendable {
    /// `xOrigin`, `yOrigin`, `width`, `height`: the kept rectangle, pixels of the stored frame.
    package var x: Double, y: Double, width: Double, height: Double
    /// `straightenAngle`, radians, as stored (the UI angle with its sign flipped).
    package var straightenAngle: Double
    /// `pitch` and `yaw`, degrees: a perspective correction.
    package var pitch: Double, yaw: Double
    /// How the unknowns are read.
    package var assumptions: AAEAssumptions

    package init(x: Double, y: Double, width: Double, height: Double, straightenAngle: Double = 0,
                pitch: Double = 0, yaw: Double = 0, assumptions: AAEAssumptions = .default) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
        (self.straightenAngle, self.pitch, self.yaw, self.assumptions) = (straightenAngle, pitch, yaw, assumptions)
    }

    /// True when the edit asks for a perspective correction, which is not rendered (U3).
    package var hasPerspective: Bool { pitch != 0 || yaw != 0 }
}

extension PhotosCrop: AAEAdjustmentFilter, StoredSizeGeometry, GeometryFilter {
    package static let filterName = "Crop"
    package static let aaeIdentifier = "Crop"

    /// Exact for straighten and crop; approximate with a non-zero `pitch` or `yaw`, a perspective
    /// correction that is not rendered (U3). Settings of the wrong type count as absent here: the
    /// reader reports them.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel {
        let pitch = adjustment.settings["pitch"]?.numberValue ?? 0
        let yaw = adjustment.settings["yaw"]?.numberValue ?? 0
        return pitch != 0 || yaw != 0 ? .approximate : .exact
    }

    /// Hostile magnitudes in the rectangle refuse the whole file; a value of the wrong type only
    /// costs the crop (the reader leaves it out and says why).
    static func refuseHostileValues(in adjustment: AAEAdjustment, limits: AAELimits) throws(AAEError) {
        for key in ["xOrigin", "yOrigin", "width", "height"] where adjustment.settings[key]?.lenientNumber != nil {
            _ = try adjustment.optionalPixels(key, limit: limits.maxPixelValue)
        }
    }

    package var parameterValues: [(String, ParameterValue)] {
        [("Rectangle", .numbers([x, y, width, height])), ("StraightenAngle", .number(straightenAngle)),
         ("Pitch", .number(pitch)), ("Yaw", .number(yaw)),
         ("Assumptions", .text("U1 \(assumptions.straightenSign.rawValue), U2 yOrigin from \(assumptions.cropOrigin.rawValue)"))]
    }

    /// Exact (U1, U2 aside); approximate with a perspective correction, which is not applied.
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { hasPerspective ? .approximate : .exact }

    /// Unchanged: it is resolved against the stored size into an affine + crop before any rescale.
    package func rescaled(by factors: RescaleFactors) -> PhotosCrop { self }

    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> PhotosCrop? {
        func pixels(_ key: String) throws(AAEError) -> Double {
            guard let value = try adjustment.optionalPixels(key) else {
                throw .missingSetting(adjustment: adjustment.identifier, key: key)
            }
            return value
        }
        let crop = PhotosCrop(x: try pixels("xOrigin"), y: try pixels("yOrigin"),
                              width: try pixels("width"), height: try pixels("height"),
                              straightenAngle: try angle(adjustment, "straightenAngle", limit: Double.pi),
                              pitch: try angle(adjustment, "pitch", limit: 90), yaw: try angle(adjustment, "yaw", limit: 90),
                              assumptions: assumptions)
        guard crop.width > 0, crop.height > 0 else {
            throw .pixelValueOutOfRange(adjustment: adjustment.identifier, key: crop.width > 0 ? "height" : "width",
                                        value: min(crop.width, crop.height), limit: 0)
        }
        return crop
    }

    /// An angle setting, 0 when absent; beyond ±`limit` it is refused.
    private static func angle(_ adjustment: AAEAdjustment, _ key: String, limit: Double) throws(AAEError) -> Double {
        guard let value = try adjustment.optionalNumber(key) else { return 0 }
        guard abs(value) <= limit else {
            throw .pixelValueOutOfRange(adjustment: adjustment.identifier, key: key, value: value, limit: limit)
        }
        return value
    }

    /// §5: rotate about (W/2, H/2) by φ (U1: φ = −straightenAngle by default, counter-clockwise
    /// positive, y up), keep the rectangle (U2: `yOrigin` from the bottom by default; from the top,
    /// the kept rows' bottom edge is at H − yOrigin − height), move it to the origin.
    package func geometry(storedSize: PixelSize) -> (affine: AffineMap, crop: Crop) {
        let W = Double(storedSize.width), H = Double(storedSize.height)
        let phi = assumptions.straightenSign == .uiAngle ? -straightenAngle : straightenAngle
        let bottom = assumptions.cropOrigin == .bottom ? y : H - y - height
        var affine = AffineMap.translation(-x, -bottom)
        if phi != 0 {
            let aboutCentre = AffineMap.translation(W / 2, H / 2)
                .concatenating(after: AffineMap.rotation(radians: phi).concatenating(after: .translation(-W / 2, -H / 2)))
            affine = affine.concatenating(after: aboutCentre)
        }
        return (affine, Crop(x: 0, y: 0, width: width, height: height))
    }
}

extension EditChain {
    /// A modern Photos `Crop` adjustment, resolved into `affine` + `crop` once the stored size is known.
    package var photosCrop: PhotosCrop? {
        get { self[PhotosCrop.self] }
        set { self[PhotosCrop.self] = newValue }
    }
}
