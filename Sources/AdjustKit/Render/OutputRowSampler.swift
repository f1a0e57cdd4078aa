/// Computes one row of the sampling grid from the source rows in a `SourceRowWindow`: the
/// geometry of `GeometrySampler` (same arithmetic, same order, so the same bits), the output-frame
/// colour kernels, and the conversion the row's consumer wants.
struct OutputRowSampler: Sendable {
    let plan: RenderPlan
    let inverse: AffineTransform
    let centreX: [Double], centreY: [Double]
    let coverageX: [Double], coverageY: [Double]
    let outputKernels: [any PixelKernel]

    init(plan: RenderPlan, outputKernels: [any PixelKernel]) {
        let grid = plan.samplingGrid
        guard let inverse = plan.transform.inverted else { preconditionFailure("the planner rejects singular transforms") }
        let (pw, ph) = (grid.pixelWidth, grid.pixelHeight)
        self.plan = plan
        self.inverse = inverse
        centreX = (0..<grid.size.width).map { grid.extent.minX + (Double($0) + 0.5) * pw }
        centreY = (0..<grid.size.height).map { grid.extent.maxY - (Double($0) + 0.5) * ph }
        coverageX = GeometrySampler.coverage(centres: centreX, pitch: pw, keptFrom: plan.cropRect?.minX, to: plan.cropRect?.maxX)
        coverageY = GeometrySampler.coverage(centres: centreY, pitch: ph, keptFrom: plan.cropRect?.minY, to: plan.cropRect?.maxY)
        self.outputKernels = outputKernels
    }

    var columns: Int { centreX.count }
    var rows: Int { centreY.count }

    /// Source row v (decoded raster, top-left) of output pixel column i in row j, as a Double.
    @inline(__always)
    private func sourceV(_ i: Int, _ j: Int) -> Double {
        Double(plan.decodedSize.height) - (inverse.b * centreX[i] + inverse.d * centreY[j] + inverse.ty)
    }

    /// The decoded rows grid row j reads (bilinear taps), clamped to the image; nil when none.
    func sourceRows(ofRow j: Int) -> ClosedRange<Int>? {
        let (a, b) = (sourceV(0, j), sourceV(columns - 1, j))
        let lo = (min(a, b) - 0.5).rounded(.down), hi = (max(a, b) - 0.5).rounded(.down) + 1
        let height = Double(plan.decodedSize.height)
        guard hi >= 0, lo < height, lo.isFinite, hi.isFinite else { return nil }
        return Int(max(lo, 0))...Int(min(hi, height - 1))
    }

    /// True when every output pixel lands exactly on one texel centre with unit steps (an integer
    /// translation at the decode's own pitch): `pixelCopyOffset` then maps grid to decode.
    var pixelCopyOffset: (dx: Int, dy: Int)? {
        let grid = plan.samplingGrid
        guard grid.pixelWidth == 1, grid.pixelHeight == 1, inverse.a == 1, inverse.b == 0, inverse.c == 0,
              inverse.d == 1 else { return nil }
        let dx = grid.extent.minX + inverse.tx
        let dy = Double(plan.decodedSize.height) - grid.extent.maxY - inverse.ty
        guard dx.rounded() == dx, dy.rounded() == dy, abs(dx) < 1e9, abs(dy) < 1e9,
              grid.extent.minX.rounded() == grid.extent.minX, grid.extent.maxY.rounded() == grid.extent.maxY else {
            return nil
        }
        return (Int(dx), Int(dy))
    }

    /// Bilinear samples of grid row j as unpremultiplied working-space RGBA (alpha = coverage),
    /// output-frame kernels applied, into `out` (4 floats a pixel). `window` holds working-space
    /// RGB floats for decoded columns starting at `columnOffset`.
    func sampleRow(_ j: Int, window: SourceRowWindow<Float>, columnOffset: Int, into out: UnsafeMutablePointer<Float>) {
        let (W, H) = (plan.decodedSize.width, plan.decodedSize.height)
        let (left, right) = (columnOffset, columnOffset + window.width)
        let (top, bottom) = (window.top, window.bottom)
        // Taps that are all inside both the image and the window take the short path below.
        let (firstX, lastX) = (max(0, left), min(W, right) - 2), (firstY, lastY) = (max(0, top), min(H, bottom) - 2)
        let sourceHeight = Double(H)
        let qy = centreY[j], coverY = coverageY[j]
        let (cqy, dqy) = (inverse.c * qy, inverse.d * qy)
        var o = out
        centreX.withUnsafeBufferPointer { centreX in
        coverageX.withUnsafeBufferPointer { coverageX in
        for i in 0..<centreX.count {
            let qx = centreX[i]
            // The same operations in the same order as GeometrySampler (bit-identical results).
            let u = inverse.a * qx + cqy + inverse.tx
            let v = sourceHeight - (inverse.b * qx + dqy + inverse.ty)
            let fx = u - 0.5, fy = v - 0.5
            let x0f = fx.rounded(.down), y0f = fy.rounded(.down)
            let wx = fx - x0f, wy = fy - y0f
            var r = 0.0, g = 0.0, b = 0.0, a = 0.0
            if x0f >= Double(firstX), x0f <= Double(lastX), y0f >= Double(firstY), y0f <= Double(lastY) {
                // All four taps exist: a zero weight adds exactly nothing, so no test is needed.
                let (x0, y0) = (Int(x0f), Int(y0f))
                let p0 = window.row(y0) + (x0 - left) * 3, p1 = window.row(y0 + 1) + (x0 - left) * 3
                let w00 = (1 - wx) * (1 - wy), w10 = wx * (1 - wy), w01 = (1 - wx) * wy, w11 = wx * wy
                if w00 > 0 { r += w00 * Double(p0[0]); g += w00 * Double(p0[1]); b += w00 * Double(p0[2]); a += w00 }
                if w10 > 0 { r += w10 * Double(p0[3]); g += w10 * Double(p0[4]); b += w10 * Double(p0[5]); a += w10 }
                if w01 > 0 { r += w01 * Double(p1[0]); g += w01 * Double(p1[1]); b += w01 * Double(p1[2]); a += w01 }
                if w11 > 0 { r += w11 * Double(p1[3]); g += w11 * Double(p1[4]); b += w11 * Double(p1[5]); a += w11 }
            } else if x0f > -2, x0f < Double(W), y0f > -2, y0f < Double(H) {
                // Adds one texel; texels outside the image are transparent (weight lost). The
                // window holds every texel of the image a sample can reach (RenderPlanner.sourceRegion).
                @inline(__always) func add(_ x: Int, _ y: Int, _ w: Double) {
                    guard w > 0, x >= 0, x < W, y >= 0, y < H, x >= left, x < right, y >= top, y < bottom else { return }
                    let p = window.row(y) + (x - left) * 3
                    r += w * Double(p[0]); g += w * Double(p[1]); b += w * Double(p[2])
                    a += w
                }
                let x0 = Int(x0f), y0 = Int(y0f)
                add(x0, y0, (1 - wx) * (1 - wy)); add(x0 + 1, y0, wx * (1 - wy))
                add(x0, y0 + 1, (1 - wx) * wy); add(x0 + 1, y0 + 1, wx * wy)
            }
            let alpha = a * coverageX[i] * coverY
            if alpha > 0 {
                o[0] = Float(r / a); o[1] = Float(g / a); o[2] = Float(b / a); o[3] = Float(alpha)
                for kernel in outputKernels { kernel.apply(&o[0], &o[1], &o[2]) }
            } else {
                o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0
            }
            o += 4
        }
        }
        }
    }
}
