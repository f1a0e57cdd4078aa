/// A modern Photos `DepthEffect` adjustment, a portrait's background blur (docs/spec/aae-format.md
/// §3, docs/spec/modern-adjustments.md §12). Support **approximate**: Apple's rendering of depth
/// of field is not public.
///
/// Settings: `aperture` (f-number 0.8…22, absent 4.5), `focusRect` (`x`, `y`, `w`, `h`, normalized
/// stored-image coordinates from the top-left; absent: the centre fifth); `depthInfo` and
/// `glassesMatteAllowed` are not used. Built from the HEIC's depth or disparity auxiliary image
/// (`DepthMap`, read through libheif when the chain has this step): f, the median depth value
/// inside `focusRect`, is the focus plane; each pixel's depth d (the map bilinearly scaled to the
/// render) gives a weight w = smoothstep(0.08, 0.28, |d − f|), and the pixel becomes
/// (1 − w)·itself + w·(the mean of its (2ρ + 1)² box) in the working space — the subject, at the
/// focus plane, stays sharp; the farther from it, the more blurred. ρ = 0.008·max(W, H)·min(1,
/// 2.8/aperture) stored pixels (a larger f-number, less blur), rescaled with the decode. A photo
/// without a depth image (a JPEG, a HEIC without one) is rendered without the blur, with a warning.
package struct DepthEffect: Equatable, Sendable {
    package var aperture: Double
    /// x, y, width, height in normalized stored-image coordinates (top-left).
    package var focusRect: [Double]
    /// ρ in the chain's frame: set by the rescaler from the stored size (nil before).
    package var radius: Double?
    /// The decoded image's size, for placing the depth map (set by the rescaler).
    package var decodedSize: PixelSize?

    package init(aperture: Double = 4.5, focusRect: [Double] = [0.4, 0.4, 0.2, 0.2], radius: Double? = nil,
                decodedSize: PixelSize? = nil) {
        (self.aperture, self.focusRect, self.radius, self.decodedSize) = (aperture, focusRect, radius, decodedSize)
    }
}

extension DepthEffect: NeighbourhoodFilter, AAEAdjustmentFilter {
    package static let filterName = "DepthEffect"
    package static let role = FilterRole.storedColour
    static let aaeIdentifier = "DepthEffect"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Aperture", .number(aperture)), ("FocusRect", .numbers(focusRect))] + (radius.map { [("Radius", .number($0))] } ?? [])
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// ρ from the stored size and the aperture, in decoded pixels.
    package func rescaled(by factors: RescaleFactors) -> DepthEffect {
        let stored = Double(max(factors.storedSize.width, factors.storedSize.height))
        let rho = 0.008 * stored * min(1, 2.8 / max(0.8, aperture)) * factors.sx
        return DepthEffect(aperture: aperture, focusRect: focusRect, radius: rho, decodedSize: factors.decodedSize)
    }
    var neighbourhoodRadius: Int { radius.map(NeighbourhoodRadius.pixels) ?? 0 }

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

    func colourStage(options: ColourOptions) -> ColourStage {
        guard let depth = options.depthMap, let decodedSize, neighbourhoodRadius > 0 else {
            return ColourStage(kernel: nil, approximation: nil,
                               skipped: "DepthEffect left out: the photo has no depth image, so the background is not blurred")
        }
        let focus = depth.median(inX: focusRect[0], y: focusRect[1], width: focusRect[2], height: focusRect[3])
        return ColourStage(kernel: .storedNeighbourhood(DepthBlurKernel(radius: neighbourhoodRadius, depth: depth,
                                                                        focus: focus, imageSize: decodedSize)),
                           approximation: "DepthEffect (approximation: a box blur weighted by the distance from the "
                               + "focus plane in the photo's depth image)")
    }
}

/// (1 − w)·pixel + w·box mean, w from the depth map; box sums of each channel in fixed point
/// (value·2¹⁴, clamped to 0…4), integers, so a pixel's result does not depend on the rows given.
private struct DepthBlurKernel: NeighbourhoodKernel {
    let radius: Int
    let depth: DepthMap
    let focus: Float
    let imageSize: PixelSize

    func apply(rows: Range<Int>, columns: Range<Int>, input: NeighbourhoodRows,
               output: (Int) -> UnsafeMutablePointer<Float>) {
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let r = radius, width = input.width, outWidth = columns.count
        let hRows = rows.count + 2 * r
        let sums = UnsafeMutablePointer<Int32>.allocate(capacity: hRows * outWidth * 3)
        let fixed = UnsafeMutablePointer<Int32>.allocate(capacity: width * 3)
        defer { sums.deallocate(); fixed.deallocate() }
        let (c0, c1) = (max(0, columns.lowerBound - r), min(width, columns.upperBound + r))
        for k in 0..<hRows {
            let source = input.clampedRow(rows.lowerBound - r + k)
            for i in (c0 * 3)..<(c1 * 3) { fixed[i] = Int32((min(max(source[i], 0), 4) * LumaFixedPoint.one).rounded()) }
            let h = sums + k * outWidth * 3
            for channel in 0..<3 {
                @inline(__always) func at(_ c: Int) -> Int32 { fixed[min(max(c, 0), width - 1) * 3 + channel] }
                let first = columns.lowerBound
                var sum: Int32 = 0
                for c in (first - r)...(first + r) { sum &+= at(c) }
                h[channel] = sum
                for j in 1..<outWidth {
                    sum = sum &+ at(first + j + r) &- at(first + j - r - 1)
                    h[j * 3 + channel] = sum
                }
            }
        }
        let column = UnsafeMutablePointer<Int32>.allocate(capacity: outWidth * 3)
        defer { column.deallocate() }
        for i in 0..<(outWidth * 3) {
            var s: Int32 = 0
            for k in 0...(2 * r) { s &+= sums[k * outWidth * 3 + i] }
            column[i] = s
        }
        let scale = 1 / (Float((2 * r + 1) * (2 * r + 1)) * LumaFixedPoint.one)
        let (iw, ih) = (Float(imageSize.width), Float(imageSize.height))
        for (index, y) in rows.enumerated() {
            if index > 0 {
                let (enter, leave) = (sums + (index + 2 * r) * outWidth * 3, sums + (index - 1) * outWidth * 3)
                for i in 0..<(outWidth * 3) { column[i] = column[i] &+ enter[i] &- leave[i] }
            }
            let (source, target) = (input.row(y), output(y))
            let v = (Float(y) + 0.5) / ih
            for j in 0..<outWidth {
                let x = columns.lowerBound + j
                let (p, o) = (source + x * 3, target + x * 3)
                let d = depth.value(u: (Float(input.columnOffset + x) + 0.5) / iw, v: v)
                let t = min(1, max(0, (abs(d - focus) - 0.08) / 0.2))
                let w = t * t * (3 - 2 * t)
                for c in 0..<3 {
                    let mean = Float(column[j * 3 + c]) * scale
                    o[c] = w == 0 ? p[c] : p[c] + w * (mean - p[c])
                }
            }
        }
    }
}
