/// A modern Photos `DepthEffect` adjustment, a portrait's background blur (docs/spec/aae-format.md
/// §3, docs/spec/modern-adjustments.md §12, the upstream notes docs/spec/depth-effect.md). Support
/// **approximate**: Apple's rendering of depth of field is not public; this one is fitted to
/// Photos' render of one portrait.
///
/// Settings: `aperture` (f-number 0.8…22, absent 4.5), `focusRect` (`x`, `y`, `w`, `h`, normalized
/// **stored**-image coordinates with the origin at the **bottom-left**, as Photos writes them:
/// depth-effect.md §2; absent: the centre fifth); `depthInfo` and `glassesMatteAllowed` are not
/// used. Built from the HEIC's disparity auxiliary image (`DepthMap`, read through libheif when the
/// chain has this step) and, where a person's portrait carries one, its portrait-effects matte:
/// the focus disparity is the median inside `focusRect`; each pixel's blur radius follows its
/// disparity distance from it (`DepthBlurLaw`), and the image is blurred in linear light by
/// layers composited far to near (`LayeredDepthBlur`), with fine grain where it blurred. A photo
/// without a depth image (a JPEG, a HEIC without one) is rendered without the blur, with a warning.
package struct DepthEffect: Equatable, Sendable {
    package var aperture: Double
    /// x, y, width, height in normalized stored-image coordinates, origin at the bottom-left.
    package var focusRect: [Double]
    /// Decoded pixels per stored pixel (set by the rescaler; nil before).
    package var pixelScale: Double?
    /// The stored image's longer side in pixels (set by the rescaler).
    package var storedLongSide: Int?
    /// The decoded image's size, for placing the depth map (set by the rescaler).
    package var decodedSize: PixelSize?

    package init(aperture: Double = 4.5, focusRect: [Double] = [0.4, 0.4, 0.2, 0.2], pixelScale: Double? = nil,
                storedLongSide: Int? = nil, decodedSize: PixelSize? = nil) {
        (self.aperture, self.focusRect) = (aperture, focusRect)
        (self.pixelScale, self.storedLongSide, self.decodedSize) = (pixelScale, storedLongSide, decodedSize)
    }

    /// The radius law at this aperture, in decoded pixels (nil before the rescaler has run).
    var law: DepthBlurLaw? {
        guard let pixelScale, let storedLongSide else { return nil }
        return DepthBlurLaw(longSide: Double(storedLongSide), aperture: aperture, pixelScale: pixelScale)
    }

    /// `focusRect` with its origin moved to the top-left (the depth map's rows run from the top).
    var focusRectFromTop: (x: Double, y: Double, width: Double, height: Double) {
        (focusRect[0], 1 - focusRect[1] - focusRect[3], focusRect[2], focusRect[3])
    }
}

extension DepthEffect: NeighbourhoodFilter, AAEAdjustmentFilter {
    package static let filterName = "DepthEffect"
    static let aaeIdentifier = "DepthEffect"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Aperture", .number(aperture)), ("FocusRect", .numbers(focusRect))]
            + (law.map { [("MaxRadius", .number($0.maxRadius))] } ?? [])
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// The law's pixel scale and the stored size, for a reduced decode.
    package func rescaled(by factors: RescaleFactors) -> DepthEffect {
        DepthEffect(aperture: aperture, focusRect: focusRect, pixelScale: factors.sx,
                    storedLongSide: max(factors.storedSize.width, factors.storedSize.height), decodedSize: factors.decodedSize)
    }
    var neighbourhoodRadius: Int { law.map { LayeredDepthBlur.Layout(maxRadius: $0.maxRadius).radius } ?? 0 }

    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> DepthEffect? {
        let aperture = try adjustment.rangedNumber("aperture", default: 4.5, range: 0.8...22, accepted: 0...64)
        var rect = [0.4, 0.4, 0.2, 0.2]
        if adjustment.settings["focusRect"] != nil {
            let r = AAEAdjustment(identifier: adjustment.identifier, settings: try adjustment.object("focusRect"))
            rect = [try r.fraction("x", default: 0.4), try r.fraction("y", default: 0.4),
                    try r.fraction("w", default: 0.2), try r.fraction("h", default: 0.2)]
        }
        return DepthEffect(aperture: aperture, focusRect: rect)
    }

    /// Without the photo's depth image: left out, with a note.
    func colourStage(options: ColourOptions) -> ColourStage { colourStage(options: options, inputs: PhotoInputs()) }

    func colourStage(options: ColourOptions, inputs: PhotoInputs) -> ColourStage {
        guard let depth = inputs.depthMap, let decodedSize, let law, neighbourhoodRadius > 0 else {
            return ColourStage(kernel: nil, approximation: nil,
                               skipped: "DepthEffect left out: the photo has no depth image, so the background is not blurred")
        }
        let rect = focusRectFromTop
        let focus = depth.disparity(ofValue: depth.median(inX: rect.x, y: rect.y, width: rect.width, height: rect.height))
        let kernel = LayeredDepthBlur(depth: depth, focus: focus, law: law, imageSize: decodedSize, space: options.workingSpace)
        return ColourStage(kernel: kernel,
                           approximation: "DepthEffect (approximation: a lens blur by disparity layers composited far to "
                               + "near, fitted to one Photos render)")
    }
}

/// The blur radius a pixel gets from its disparity distance Δd = d − d_focus (1/m; positive:
/// nearer than the focus plane), in decoded pixels, fitted to Photos' render of IMG_3582 at f/2.8
/// (depth-effect.md §3). Behind the plane: the thin-lens slope k = 0.018·f_N²·s·L/N (23.65 px per
/// 1/m at L = 5712, N = 2.8; f_N and s are that photo's, kept as constants because the depth item's
/// intrinsics and rendering parameters are not read), plus 3 px reached at |Δd| = 0.07 (the
/// intercept of a straight line through §3's table: 3.1 + 23.45·|Δd|). In front: sharp to
/// Δd = 0.40, then 11/23.6 of that slope (≈ 11 px per 1/m), ramped in over 0.10 /m. Every radius
/// scales with 1/N and with the long side, and is at most `maxRadius` = 2 % of the long side at
/// f/2.8 (the far background of that photo gets 1.55 %).
struct DepthBlurLaw: Equatable, Sendable {
    /// px per 1/m behind the plane, decoded pixels.
    let behindSlope: Double
    /// The radius reached just behind the plane (decoded pixels).
    let behindOffset: Double
    let frontSlope: Double
    let maxRadius: Double
    /// Decoded pixels per stored pixel (the grain starts at a radius of one stored pixel).
    let pixelScale: Double

    init(longSide: Double, aperture: Double, pixelScale: Double) {
        let n = max(0.8, aperture)
        let (focal, factor) = (0.7159, 1.256667)
        behindSlope = 0.018 * focal * focal * factor * longSide / n * pixelScale
        let size = longSide / 5712 * 2.8 / n * pixelScale
        behindOffset = 3 * size
        frontSlope = behindSlope * 11 / 23.6
        maxRadius = 0.02 * longSide * 2.8 / n * pixelScale
        self.pixelScale = pixelScale
    }

    /// The radius for a disparity distance `delta` (1/m), signed: negative behind the focus plane.
    @inline(__always)
    func radius(_ delta: Float) -> Float {
        if delta < 0 {
            let a = -delta
            return -min(Float(maxRadius), Float(behindSlope) * a + Float(behindOffset) * min(1, a / 0.07))
        }
        let ramp = min(1, max(0, (delta - 0.40) / 0.10))
        return min(Float(maxRadius), Float(frontSlope) * delta * ramp)
    }
}
