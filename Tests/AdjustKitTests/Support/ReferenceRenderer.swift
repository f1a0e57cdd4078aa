@testable import AdjustKit
import Foundation

// The whole-image reference pipeline the fused renderer replaced: decode everything, one float
// image per stage. It ships in no product: the tests hold it as the oracle the streaming renderer
// (`Renderer.render`, `renderEncoded`) is compared against, bit for bit (FusedRendererTests).

extension Renderer {
    /// The whole-image pipeline the fused renderer replaced: decode everything, float images per
    /// stage. Kept as the reference the fused renderer is tested against.
    func renderReference(_ plan: RenderPlan, jpeg: [UInt8], program: ColourProgram) throws -> Rendering {
        try renderReference(plan, pixels: .jpeg(OriginalBytes(jpeg)), program: program)
    }

    /// `renderReference` for either kind of original.
    func renderReference(_ plan: RenderPlan, original: OriginalImage, program: ColourProgram) throws -> Rendering {
        try withPixels(of: original) { pixels in try renderReference(plan, pixels: pixels, program: program) }
    }

    /// The whole image is decoded and held here anyway, so a JPEG's whole file is read first
    /// (TurboJPEG decodes from memory).
    private func renderReference(_ plan: RenderPlan, pixels: Pixels, program: ColourProgram) throws -> Rendering {
        let decoded: RGB8Image, decodeWarnings: [String], decodeSeconds: Double
        switch pixels {
        case .jpeg(let source):
            let jpeg = try source.whole()
            let start = DispatchTime.now().uptimeNanoseconds
            (decoded, decodeWarnings) = try decoder.decodeReportingWarnings(jpeg, scale: plan.decodeScale)
            decodeSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        case .raster(let rows, let seconds): (decoded, decodeWarnings, decodeSeconds) = (rows.copied(), [], seconds)
        case .tiles(let source):
            let size = source.tiling.imageSize
            let rows = source.rows(region: PixelRect(x: 0, y: 0, width: size.width, height: size.height))
            var image = RGB8Image(size: size, pixels: [UInt8](repeating: 0, count: size.pixelCount * 3))
            try image.pixels.withUnsafeMutableBufferPointer {
                try rows.readRows(into: $0.baseAddress!, stride: size.width * 3, count: size.height)
            }
            (decoded, decodeWarnings, decodeSeconds) = (image, [], rows.seconds)
        }
        guard decoded.size == plan.decodedSize else {
            throw RenderError.decodedSizeMismatch(expected: plan.decodedSize, got: decoded.size)
        }
        var rendering = render(plan, decoded: decoded, program: program)
        rendering.warnings.insert(contentsOf: decodeWarnings, at: 0)
        rendering.decodeMs = decodeSeconds * 1000
        return rendering
    }

    func render(_ plan: RenderPlan, decoded: RGB8Image, program: ColourProgram) -> Rendering {
        var working = Self.workingValues(of: decoded, space: program.space)
        let warnings = program.applyToStoredFrame(&working)
        var sampled = OutputRowSampler.sampleWhole(working, plan: plan)
        program.applyToOutputFrame(&sampled)
        var encoded = Self.encoded(sampled, space: program.space)
        // The shrink averages encoded values, as the DCT's reduced decode does (geometry.md §2):
        // averaging linear light instead would brighten every preview against that reference.
        if plan.needsResample { encoded = AreaResampler.resample(encoded, to: plan.outputSize) }
        // Oriented by the definition, not the library's placement: the renderers' orientation is
        // checked by this comparison too.
        let image = OrientationOracle.oriented(Self.quantized(encoded), plan.orientation)
        return Rendering(image: image, workingSpace: program.space, approximations: program.approximations,
                         warnings: program.skipped + warnings)
    }

    static func workingValues(of image: RGB8Image, space: WorkingSpace) -> RGBFloatImage {
        let table = space.fromByte
        return RGBFloatImage(size: image.size, pixels: image.pixels.map { table[Int($0)] })
    }

    /// Working-space colour → sRGB-encoded colour (alpha untouched).
    static func encoded(_ image: RGBAFloatImage, space: WorkingSpace) -> RGBAFloatImage {
        guard space != .srgb else { return image }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            let width = image.size.width
            ParallelRows.forEach(image.size.height) { y in
                for i in stride(from: y * width * 4, to: (y + 1) * width * 4, by: 4) {
                    p[i] = space.encoded(p[i]); p[i + 1] = space.encoded(p[i + 1]); p[i + 2] = space.encoded(p[i + 2])
                }
            }
        }
        return out
    }

    /// Encoded floats → 8-bit (filters.md §0: round half up of clamp(v, 0, 1)·255); a pixel whose
    /// alpha rounds to 0 is written as transparent black.
    static func quantized(_ image: RGBAFloatImage) -> RGBA8Image {
        var out = RGBA8Image(size: image.size)
        let width = image.size.width
        let byte = WorkingSpace.byte(encoded:)
        image.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                let (s, d) = (src.baseAddress!, dst.baseAddress!)
                ParallelRows.forEach(image.size.height) { y in
                    for i in stride(from: y * width * 4, to: (y + 1) * width * 4, by: 4) {
                        let alpha = byte(s[i + 3])
                        d[i + 3] = alpha
                        guard alpha > 0 else { d[i] = 0; d[i + 1] = 0; d[i + 2] = 0; continue }
                        d[i] = byte(s[i]); d[i + 1] = byte(s[i + 1]); d[i + 2] = byte(s[i + 2])
                    }
                }
            }
        }
        return out
    }
}

extension ColourProgram {
    /// Runs `kernels` on every pixel (RGB or RGBA; fully transparent RGBA pixels are skipped).
    static func apply(_ kernels: [any PixelKernel], to pixels: inout [Float], size: PixelSize, channels: Int) {
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

    /// The region kernels, then the stored-frame kernels, in place.
    func applyToStoredFrame(_ image: inout RGBFloatImage) -> [String] {
        var warnings: [String] = []
        for kernel in storedRegion { warnings += kernel.apply(to: &image, space: space) }
        Self.apply(storedFrame, to: &image.pixels, size: image.size, channels: 3)
        if !storedTail.isEmpty {
            let size = image.size
            image.pixels.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                ParallelRows.forEach(size.height) { y in
                    applyStoredTail(row: base + y * size.width * 3, count: size.width, x0: 0, y: y, imageSize: size)
                }
            }
        }
        for stage in neighbourhood {
            stage.kernel.apply(to: &image)
            guard !stage.tail.isEmpty else { continue }
            let size = image.size
            image.pixels.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                ParallelRows.forEach(size.height) { y in
                    Self.apply(stage.tail, row: base + y * size.width * 3, count: size.width, x0: 0, y: y, imageSize: size)
                }
            }
        }
        return warnings
    }

    /// The output-frame kernels on unpremultiplied colour, alpha untouched; then the positional ones.
    func applyToOutputFrame(_ image: inout RGBAFloatImage) {
        Self.apply(outputFrame, to: &image.pixels, size: image.size, channels: 4)
        guard !outputPositional.isEmpty else { return }
        let (width, kernels) = (image.size.width, outputPositional)
        let (w, h) = (Float(image.size.width), Float(image.size.height))
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            ParallelRows.forEach(image.size.height) { y in
                var p = base + y * width * 4
                for x in 0..<width {
                    if p[3] > 0 {
                        for kernel in kernels { kernel.apply(&p[0], &p[1], &p[2], x: Float(x) + 0.5, y: Float(y) + 0.5, width: w, height: h) }
                    }
                    p += 4
                }
            }
        }
    }
}

extension OutputRowSampler {
    /// The whole sampled raster from a whole decoded image, for the reference pipeline
    /// (`Renderer.renderReference`); no output-frame kernels (the reference applies them after).
    static func sampleWhole(_ source: RGBFloatImage, plan: RenderPlan) -> RGBAFloatImage {
        let (width, height) = (source.size.width, source.size.height)
        let window = SourceRowWindow<Float>(top: 0, bottom: height, width: width, capacity: height)
        source.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                _ = window.waitForRoom(through: y)   // never waits: the window holds every row
                window.row(y).update(from: pixels.baseAddress! + y * width * 3, count: width * 3)
                window.finishRows(through: y)
            }
        }
        let sampler = OutputRowSampler(plan: plan, outputKernels: [])
        var output = RGBAFloatImage(size: plan.samplingGrid.size)
        output.pixels.withUnsafeMutableBufferPointer { out in
            for j in 0..<sampler.rows {
                sampler.sampleRow(j, window: window, columnOffset: 0, texels: FloatTexels(),
                                  into: out.baseAddress! + j * sampler.columns * 4)
            }
        }
        return output
    }
}

extension RegionKernel {
    /// Runs the whole work on `image`, in place; returns its remarks.
    func apply(to image: inout RGBFloatImage, space: WorkingSpace) -> [String] {
        let work = work(imageSize: image.size)
        let size = image.size
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let pixels = StoredPixels(size: size, columnOffset: 0) { base + $0 * size.width * 3 }
            for piece in work.pieces { piece.apply(pixels, space) }
        }
        return work.warnings
    }
}

/// Shrinks an image by area averaging: each output pixel is the mean of the input area it
/// covers, partial input pixels weighted by their overlap, premultiplied by alpha. Finishes a
/// `--max-size` render after the DCT's coarse shrink (geometry.md §3).
enum AreaResampler {
    static func resample(_ image: RGBAFloatImage, to size: PixelSize) -> RGBAFloatImage {
        guard size != image.size else { return image }
        let (inW, inH) = (image.size.width, image.size.height)
        let columnWeights = AreaWeights.weights(from: inW, to: size.width)
        let rowWeights = AreaWeights.weights(from: inH, to: size.height)

        // Horizontal pass: premultiplied float rows of the output width.
        var horizontal = [Float](repeating: 0, count: inH * size.width * 4)
        image.pixels.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { dst in
                let dstBase = dst.baseAddress!
                ParallelRows.forEach(inH) { y in
                    for (x, taps) in columnWeights.enumerated() {
                        var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
                        for (index, weight) in taps {
                            let p = (y * inW + index) * 4
                            let alpha = src[p + 3] * weight
                            sum.0 += src[p] * alpha; sum.1 += src[p + 1] * alpha
                            sum.2 += src[p + 2] * alpha; sum.3 += alpha
                        }
                        let o = dstBase + (y * size.width + x) * 4
                        o[0] = sum.0; o[1] = sum.1; o[2] = sum.2; o[3] = sum.3
                    }
                }
            }
        }

        var output = RGBAFloatImage(size: size)
        horizontal.withUnsafeBufferPointer { src in
            output.pixels.withUnsafeMutableBufferPointer { dst in
                let dstBase = dst.baseAddress!
                ParallelRows.forEach(size.height) { y in
                    for x in 0..<size.width {
                        var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
                        for (index, weight) in rowWeights[y] {
                            let p = (index * size.width + x) * 4
                            sum.0 += src[p] * weight; sum.1 += src[p + 1] * weight
                            sum.2 += src[p + 2] * weight; sum.3 += src[p + 3] * weight
                        }
                        let o = dstBase + (y * size.width + x) * 4
                        if sum.3 > 0 {
                            o[0] = sum.0 / sum.3; o[1] = sum.1 / sum.3; o[2] = sum.2 / sum.3
                        }
                        o[3] = sum.3
                    }
                }
            }
        }
        return output
    }
}
