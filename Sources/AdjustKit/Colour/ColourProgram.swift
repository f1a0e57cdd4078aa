/// The chain's colour steps turned into kernels, split by where they run: before the geometry
/// (red-eye and the property filters work in the stored frame) or after it (`aas:Filters`).
struct ColourProgram: Sendable {
    let space: WorkingSpace
    let redEye: RedEyeCorrections?
    let storedFrame: [any PixelKernel]
    let outputFrame: [any PixelKernel]
    /// One line per approximate step actually used, for the render's stderr note.
    let approximations: [String]
    /// Steps left out on request (unknown filters under `skipUnknownFilters`).
    let skipped: [String]

    init(chain: EditChain, options: ColourOptions) throws(RenderError) {
        space = options.workingSpace
        var redEye: RedEyeCorrections?
        var stored: [any PixelKernel] = [], output: [any PixelKernel] = []
        var approximations: [String] = [], skipped: [String] = []
        for step in chain.steps {
            switch step {
            case .affine, .crop, .cameraRawCrop:
                continue
            case .redEye(let corrections):
                redEye = corrections
                approximations.append("CIRedEyeCorrections (approximate pupil repair)")
            case .faceBalance(let f): stored += [FaceBalanceKernel(f)].compactMap { $0 }
            case .vibrance(let v): stored += [VibranceKernel(v)].compactMap { $0 }
            case .toneCurve(let c): stored += [ToneCurveKernel(c)].compactMap { $0 }
            case .highlightShadow(let h): stored += [HighlightShadowKernel(h)].compactMap { $0 }
            case .serialized(let filter):
                switch filter.meaning {
                case .exposure(let e): output += [ExposureKernel(e)].compactMap { $0 }
                case .photoEffect(let effect):
                    if let cube = options.effectCubes[effect] {
                        output.append(PhotoEffectKernel(cube: cube, space: space))
                    } else {
                        output.append(PhotoEffectKernel(cube: BuiltInPhotoEffects.cube(for: effect), space: space))
                        approximations.append("\(effect.rawValue) (built-in approximation; --effect-lut gives the exact table)")
                    }
                case .unsupported:
                    guard options.skipUnknownFilters else { throw .unknownFilter(filter.name) }
                    skipped.append("unknown filter \(filter.name) skipped")
                }
            }
        }
        (self.redEye, storedFrame, outputFrame) = (redEye, stored, output)
        (self.approximations, self.skipped) = (approximations, skipped)
    }

    /// Red-eye, then the stored-frame kernels, in place.
    func applyToStoredFrame(_ image: inout RGBFloatImage) -> [String] {
        var warnings: [String] = []
        if let redEye { warnings = RedEyeRepair.apply(redEye, to: &image, space: space) }
        Self.apply(storedFrame, to: &image.pixels, size: image.size, channels: 3)
        return warnings
    }

    /// The output-frame kernels on unpremultiplied colour, alpha untouched.
    func applyToOutputFrame(_ image: inout RGBAFloatImage) {
        Self.apply(outputFrame, to: &image.pixels, size: image.size, channels: 4)
    }

    /// Runs `kernels` on every pixel (RGB or RGBA; fully transparent RGBA pixels are skipped).
    private static func apply(_ kernels: [any PixelKernel], to pixels: inout [Float], size: PixelSize, channels: Int) {
        guard !kernels.isEmpty else { return }
        let width = size.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            ParallelRows.forEach(size.height) { y in
                var p = base + y * width * channels
                for _ in 0..<width {
                    if channels == 3 || p[3] > 0 { for kernel in kernels { kernel.apply(&p[0], &p[1], &p[2]) } }
                    p += channels
                }
            }
        }
    }
}
