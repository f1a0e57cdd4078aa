/// The unknowns of the modern format that only Apple's own renders can settle
/// (docs/spec/aae-format.md §5, §9), each in this one place with its alternatives. The defaults
/// are the spec's reading; `adjust fidelity` renders each alternative against Apple's render to
/// say which one matches.
package struct AAEAssumptions: Equatable, Sendable {
    /// U1: the sign of the straighten rotation.
    package enum StraightenSign: String, CaseIterable, Sendable {
        /// φ = −straightenAngle, counter-clockwise positive in the y-up frame (the UI angle).
        case uiAngle = "minus-stored"
        /// φ = +straightenAngle.
        case stored = "plus-stored"
    }

    /// U2: which edge the `Crop` adjustment's `yOrigin` is measured from.
    package enum CropOrigin: String, CaseIterable, Sendable {
        /// From the bottom, as Core Image measures (kept rows start at H − yOrigin − height).
        case bottom
        /// From the top, as a raster is indexed.
        case top
    }

    /// U3: how `pitch` and `yaw` (a perspective correction) are rendered. Apple's construction is
    /// not public, and the renderer's geometry is affine.
    package enum Perspective: String, CaseIterable, Sendable {
        /// Not applied: the straighten and crop are rendered, the keystone correction is not,
        /// and the step is flagged approximate.
        case ignored
    }

    /// U4: what the `Orientation` adjustment's value means.
    package enum OrientationMeaning: String, CaseIterable, Sendable {
        /// It is the orientation to use instead of the file's own.
        case replacesFile = "replaces"
        /// It is applied after the file's own orientation.
        case composesWithFile = "composes"
    }

    package var straightenSign: StraightenSign
    package var cropOrigin: CropOrigin
    package var perspective: Perspective
    package var orientation: OrientationMeaning

    /// The spec's reading of each unknown.
    package init(straightenSign: StraightenSign = .uiAngle, cropOrigin: CropOrigin = .bottom,
                perspective: Perspective = .ignored, orientation: OrientationMeaning = .replacesFile) {
        (self.straightenSign, self.cropOrigin, self.perspective, self.orientation) =
            (straightenSign, cropOrigin, perspective, orientation)
    }

    /// The spec's reading of each unknown.
    package static let `default` = AAEAssumptions()
}
