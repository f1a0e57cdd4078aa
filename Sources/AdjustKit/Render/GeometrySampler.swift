import Foundation

/// Samples the working-space source through the plan's affine + crop (geometry.md §1): output
/// pixel centres mapped by T⁻¹ into the source, bilinear with texel centres at integer + ½,
/// transparent outside the source (interpolated premultiplied), alpha × the crop's coverage of the
/// output pixel. An integer translation lands exactly on texel centres, so it copies pixels
/// exactly: the weights are then exactly 1 and 0.
enum GeometrySampler {
    static func sample(_ source: RGBFloatImage, plan: RenderPlan) -> RGBAFloatImage {
        let grid = plan.samplingGrid
        guard let inverse = plan.transform.inverted else {
            preconditionFailure("the planner rejects singular transforms")
        }
        let (cols, rows) = (grid.size.width, grid.size.height)
        let (pw, ph) = (grid.pixelWidth, grid.pixelHeight)
        let centreX = (0..<cols).map { grid.extent.minX + (Double($0) + 0.5) * pw }
        let centreY = (0..<rows).map { grid.extent.maxY - (Double($0) + 0.5) * ph }
        let coverageX = coverage(centres: centreX, pitch: pw, keptFrom: plan.cropRect?.minX, to: plan.cropRect?.maxX)
        let coverageY = coverage(centres: centreY, pitch: ph, keptFrom: plan.cropRect?.minY, to: plan.cropRect?.maxY)

        var output = RGBAFloatImage(size: grid.size)
        let (W, H) = (source.size.width, source.size.height)
        let sourceHeight = Double(H)
        source.pixels.withUnsafeBufferPointer { src in
            output.pixels.withUnsafeMutableBufferPointer { dst in
                let dstBase = dst.baseAddress!
                ParallelRows.forEach(rows) { j in
                    let qy = centreY[j], coverY = coverageY[j]
                    var o = dstBase + j * cols * 4
                    for i in 0..<cols {
                        let qx = centreX[i]
                        let u = inverse.a * qx + inverse.c * qy + inverse.tx
                        let v = sourceHeight - (inverse.b * qx + inverse.d * qy + inverse.ty)
                        let fx = u - 0.5, fy = v - 0.5
                        let x0f = fx.rounded(.down), y0f = fy.rounded(.down)
                        let wx = fx - x0f, wy = fy - y0f
                        var r = 0.0, g = 0.0, b = 0.0, a = 0.0
                        // Adds one texel; texels outside the source are transparent (weight lost).
                        @inline(__always) func add(_ x: Int, _ y: Int, _ w: Double) {
                            guard w > 0, x >= 0, x < W, y >= 0, y < H else { return }
                            let p = (y * W + x) * 3
                            r += w * Double(src[p]); g += w * Double(src[p + 1]); b += w * Double(src[p + 2])
                            a += w
                        }
                        // Far outside the source the conversion to Int must not overflow.
                        if x0f > -2, x0f < Double(W), y0f > -2, y0f < Double(H) {
                            let x0 = Int(x0f), y0 = Int(y0f)
                            add(x0, y0, (1 - wx) * (1 - wy)); add(x0 + 1, y0, wx * (1 - wy))
                            add(x0, y0 + 1, (1 - wx) * wy); add(x0 + 1, y0 + 1, wx * wy)
                        }
                        let alpha = a * coverageX[i] * coverY
                        if alpha > 0 {
                            o[0] = Float(r / a); o[1] = Float(g / a); o[2] = Float(b / a); o[3] = Float(alpha)
                        } else {
                            o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0
                        }
                        o += 4
                    }
                }
            }
        }
        return output
    }

    /// The fraction of each output pixel's footprint [c − pitch/2, c + pitch/2] inside [lo, hi]
    /// (1 everywhere without a crop).
    static func coverage(centres: [Double], pitch: Double, keptFrom lo: Double?, to hi: Double?) -> [Double] {
        guard let lo, let hi else { return [Double](repeating: 1, count: centres.count) }
        return centres.map { c in
            let inside = min(c + pitch / 2, hi) - max(c - pitch / 2, lo)
            return min(1, max(0, inside / pitch))
        }
    }
}
