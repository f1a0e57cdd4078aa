// ImageMetrics.swift — image-comparison metrics for judging renders (geometry.md §2 "Definition of
// correct": size, alignment by phase correlation on luminance, PSNR on 8-bit RGB).
// Foundation only; nothing from the package.

import Foundation

enum ImageMetrics {

    // MARK: - Area downsample

    /// Area-average (box filter with fractional pixel coverage) resample of `image` to exactly
    /// `width × height`: output pixel (X, Y) averages the input area
    /// [X·w/width, (X+1)·w/width) × [Y·h/height, (Y+1)·h/height), each input pixel weighted by the
    /// part of it that lies inside. RGB: plain average. RGBA: colour averaged premultiplied
    /// (weights × alpha) then unpremultiplied, alpha averaged plainly; alpha rounding to 0 gives
    /// colour 0. Values are rounded half up to 8 bits. This is geometry.md §2's "area-downsampled
    /// full render". (It also works for upsampling, where it degenerates to nearest-area copying.)
    static func areaDownsample(_ image: TestImage, width: Int, height: Int) -> TestImage {
        precondition(width >= 0 && height >= 0)
        var out = TestImage(width: width, height: height, channels: image.channels)
        if width == 0 || height == 0 { return out }
        precondition(image.width > 0 && image.height > 0, "cannot resample an empty image")
        let sx = Double(image.width) / Double(width)    // input pixels per output pixel, x
        let sy = Double(image.height) / Double(height)  // input pixels per output pixel, y
        let hasAlpha = image.channels == 4
        for Y in 0 ..< height {
            let y0 = Double(Y) * sy, y1 = Double(Y + 1) * sy
            for X in 0 ..< width {
                let x0 = Double(X) * sx, x1 = Double(X + 1) * sx
                var sumW = 0.0                 // Σ area
                var sumWA = 0.0                // Σ area·α (α in 0…1)
                var sumC = [0.0, 0.0, 0.0]     // Σ area·α·c (c in 0…255)
                var iy = Int(floor(y0))
                while Double(iy) < y1 && iy < image.height {
                    let oy = min(y1, Double(iy + 1)) - max(y0, Double(iy))
                    var ix = Int(floor(x0))
                    while Double(ix) < x1 && ix < image.width {
                        let ox = min(x1, Double(ix + 1)) - max(x0, Double(ix))
                        let w = ox * oy
                        if w > 0 {
                            let a = hasAlpha ? Double(image.value(ix, iy, 3)) / 255 : 1.0
                            sumW += w
                            sumWA += w * a
                            for c in 0 ..< 3 { sumC[c] += w * a * Double(image.value(ix, iy, c)) }
                        }
                        ix += 1
                    }
                    iy += 1
                }
                var px = [UInt8](repeating: 0, count: image.channels)
                if hasAlpha {
                    let a8 = roundHalfUp(sumWA / sumW * 255)
                    if a8 != 0 {
                        for c in 0 ..< 3 { px[c] = roundHalfUp(sumC[c] / sumWA) }
                        px[3] = a8
                    }
                } else {
                    for c in 0 ..< 3 { px[c] = roundHalfUp(sumC[c] / sumW) }
                }
                out.setPixel(X, Y, px)
            }
        }
        return out
    }

    // MARK: - PSNR and differences

    /// PSNR in dB over the R, G, B channels of two same-size images:
    /// 10·log10(255² / MSE), MSE averaged over the three colour channels of the compared pixels.
    /// Alpha is not compared. A pixel is compared only when it is opaque (alpha 255) in both
    /// images — an RGB image counts as opaque everywhere — so transparent surround and
    /// partially-covered crop edges, whose colour is not meaningful, are left out.
    /// Returns +infinity when every compared value is identical, and NaN when no pixel is opaque in
    /// both images (nothing to compare).
    static func psnr(_ a: TestImage, _ b: TestImage) -> Double {
        precondition(a.width == b.width && a.height == b.height, "psnr needs same-size images")
        var sumSq = 0.0
        var count = 0
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                let alphaA = a.channels == 4 ? a.value(x, y, 3) : 255
                let alphaB = b.channels == 4 ? b.value(x, y, 3) : 255
                if alphaA != 255 || alphaB != 255 { continue }
                for c in 0 ..< 3 {
                    let d = Double(a.value(x, y, c)) - Double(b.value(x, y, c))
                    sumSq += d * d
                }
                count += 3
            }
        }
        if count == 0 { return .nan }
        if sumSq == 0 { return .infinity }
        let mse = sumSq / Double(count)
        return 10 * log10(255.0 * 255.0 / mse)
    }

    /// Per-channel maximum and mean absolute difference of two same-size images, over all pixels.
    /// The result has max(a.channels, b.channels) entries; a 3-channel image reads as alpha 255.
    static func differences(_ a: TestImage, _ b: TestImage)
        -> (maxPerChannel: [Int], meanPerChannel: [Double]) {
        precondition(a.width == b.width && a.height == b.height, "differences needs same-size images")
        let n = max(a.channels, b.channels)
        var maxD = [Int](repeating: 0, count: n)
        var sumD = [Double](repeating: 0, count: n)
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                for c in 0 ..< n {
                    let va = c < a.channels ? Int(a.value(x, y, c)) : 255
                    let vb = c < b.channels ? Int(b.value(x, y, c)) : 255
                    let d = abs(va - vb)
                    maxD[c] = max(maxD[c], d)
                    sumD[c] += Double(d)
                }
            }
        }
        let count = Double(a.width * a.height)
        return (maxD, sumD.map { count > 0 ? $0 / count : 0 })
    }

    // MARK: - Phase correlation

    /// Sub-pixel refinement of the integer correlation peak.
    enum SubpixelMethod: CaseIterable {
        /// Parabola through the peak and its two neighbours, each axis separately.
        case parabolic
        /// Intensity-weighted centroid of the 3 × 3 neighbourhood (negative values clipped to 0).
        case centroid3x3
        /// Parabola through the logarithms (a Gaussian fit), each axis separately.
        case gaussian
    }

    /// Sub-pixel translation (dx, dy), in pixels of the (same-size) images, such that
    /// b(x, y) ≈ a(x − dx, y − dy) — x to the right, y downwards (top-left raster). Phase
    /// correlation on luminance 0.299R + 0.587G + 0.114B (alpha ignored): the mean is removed, a
    /// 2-D Hann window applied, the result zero-padded to powers of two, 2-D FFT, normalised
    /// cross-power spectrum B·conj(A)/|B·conj(A)|, inverse FFT, integer peak (wrapped to ±N/2),
    /// then sub-pixel refinement.
    ///
    /// Default refinement (chosen by OracleSelfTests.testPhaseCorrelationRecoversKnownShifts,
    /// which measures all variants): the normalised cross-power spectrum is weighted by a
    /// Gaussian low-pass exp(−2π²σ²|f|²), σ = 1.5 px, which turns the correlation peak into a
    /// sampled Gaussian of standard deviation σ centred on the shift; a Gaussian fit (parabola
    /// through the logarithms of the peak and its two neighbours, per axis) then locates it.
    /// Without the weighting the whitened peak is a narrow sinc and the parabola / 3 × 3 centroid
    /// fits are biased towards the integer by up to ~0.2 px.
    static func phaseCorrelationShift(_ a: TestImage, _ b: TestImage) -> (dx: Double, dy: Double) {
        phaseCorrelationShift(a, b, method: .gaussian, peakSigma: 1.5)
    }

    /// The same with an explicit refinement `method`, and `peakSigma` (in pixels) the standard
    /// deviation of the Gaussian the correlation peak is shaped into (0 = plain, unweighted
    /// phase correlation).
    static func phaseCorrelationShift(_ a: TestImage, _ b: TestImage, method: SubpixelMethod,
                                      peakSigma: Double) -> (dx: Double, dy: Double) {
        precondition(a.width == b.width && a.height == b.height, "phase correlation needs same-size images")
        precondition(a.width > 0 && a.height > 0)
        let w = a.width, h = a.height
        let nx = nextPowerOfTwo(w), ny = nextPowerOfTwo(h)

        // Luminance, mean removed, Hann-windowed, zero-padded into nx × ny complex arrays.
        func prepared(_ img: TestImage) -> (re: [Double], im: [Double]) {
            var lum = [Double](repeating: 0, count: w * h)
            for y in 0 ..< h {
                for x in 0 ..< w {
                    lum[y * w + x] = 0.299 * Double(img.value(x, y, 0))
                        + 0.587 * Double(img.value(x, y, 1))
                        + 0.114 * Double(img.value(x, y, 2))
                }
            }
            let mean = lum.reduce(0, +) / Double(w * h)
            var re = [Double](repeating: 0, count: nx * ny)
            let im = [Double](repeating: 0, count: nx * ny)
            for y in 0 ..< h {
                let wy = hann(y, h)
                for x in 0 ..< w {
                    re[y * nx + x] = (lum[y * w + x] - mean) * hann(x, w) * wy
                }
            }
            return (re, im)
        }
        var (aRe, aIm) = prepared(a)
        var (bRe, bIm) = prepared(b)
        fft2D(&aRe, &aIm, nx: nx, ny: ny, inverse: false)
        fft2D(&bRe, &bIm, nx: nx, ny: ny, inverse: false)

        // Normalised cross-power spectrum  R = B·conj(A) / |B·conj(A)|.
        var rRe = [Double](repeating: 0, count: nx * ny)
        var rIm = [Double](repeating: 0, count: nx * ny)
        for k in 0 ..< nx * ny {
            let re = bRe[k] * aRe[k] + bIm[k] * aIm[k]
            let im = bIm[k] * aRe[k] - bRe[k] * aIm[k]
            let mag = (re * re + im * im).squareRoot()
            if mag > 1e-12 {
                // Optional Gaussian spectral weight: frequencies in cycles per pixel, signed.
                var weight = 1.0
                if peakSigma > 0 {
                    let kx = k % nx, ky = k / nx
                    let fx = Double(kx > nx / 2 ? kx - nx : kx) / Double(nx)
                    let fy = Double(ky > ny / 2 ? ky - ny : ky) / Double(ny)
                    weight = exp(-2 * Double.pi * Double.pi * peakSigma * peakSigma * (fx * fx + fy * fy))
                }
                rRe[k] = weight * re / mag
                rIm[k] = weight * im / mag
            }
        }
        fft2D(&rRe, &rIm, nx: nx, ny: ny, inverse: true)

        // Integer peak of the (real) correlation surface.
        var best = 0
        for k in 0 ..< nx * ny where rRe[k] > rRe[best] { best = k }
        let px = best % nx, py = best / nx
        func r(_ x: Int, _ y: Int) -> Double {
            rRe[((y % ny + ny) % ny) * nx + ((x % nx + nx) % nx)]
        }

        // Sub-pixel refinement.
        var fx = 0.0, fy = 0.0
        switch method {
        case .parabolic:
            fx = parabolicOffset(r(px - 1, py), r(px, py), r(px + 1, py))
            fy = parabolicOffset(r(px, py - 1), r(px, py), r(px, py + 1))
        case .gaussian:
            fx = gaussianOffset(r(px - 1, py), r(px, py), r(px + 1, py))
            fy = gaussianOffset(r(px, py - 1), r(px, py), r(px, py + 1))
        case .centroid3x3:
            var sum = 0.0, sx = 0.0, sy = 0.0
            for oy in -1 ... 1 {
                for ox in -1 ... 1 {
                    let v = max(0, r(px + ox, py + oy))
                    sum += v
                    sx += Double(ox) * v
                    sy += Double(oy) * v
                }
            }
            if sum > 0 { fx = sx / sum; fy = sy / sum }
        }

        // Wrap the integer peak to a signed shift.
        let ix = px > nx / 2 ? px - nx : px
        let iy = py > ny / 2 ? py - ny : py
        return (Double(ix) + fx, Double(iy) + fy)
    }

    // MARK: - Small helpers (FFT etc.)

    /// Parabola through (−1, l), (0, c), (1, r): the abscissa of its vertex, clamped to ±½.
    private static func parabolicOffset(_ l: Double, _ c: Double, _ r: Double) -> Double {
        let denom = l - 2 * c + r
        if denom == 0 { return 0 }
        return min(0.5, max(-0.5, 0.5 * (l - r) / denom))
    }

    /// Gaussian fit (parabola through the logarithms); falls back to the parabola when a value is
    /// not positive.
    private static func gaussianOffset(_ l: Double, _ c: Double, _ r: Double) -> Double {
        if l <= 0 || c <= 0 || r <= 0 { return parabolicOffset(l, c, r) }
        return parabolicOffset(log(l), log(c), log(r))
    }

    /// Hann window value for sample k of n.
    private static func hann(_ k: Int, _ n: Int) -> Double {
        if n <= 1 { return 1 }
        return 0.5 - 0.5 * cos(2 * Double.pi * Double(k) / Double(n - 1))
    }

    private static func nextPowerOfTwo(_ n: Int) -> Int {
        var p = 1
        while p < n { p *= 2 }
        return p
    }

    private static func roundHalfUp(_ x: Double) -> UInt8 {
        UInt8(floor(min(max(x, 0), 255) + 0.5))
    }

    /// In-place iterative radix-2 complex FFT of length n (a power of two).
    /// Forward: X[k] = Σ x[j]·e^(−2πi·jk/n). Inverse: e^(+2πi·jk/n), divided by n.
    static func fft(_ re: inout [Double], _ im: inout [Double], inverse: Bool) {
        let n = re.count
        precondition(im.count == n && n > 0 && n & (n - 1) == 0, "FFT length must be a power of two")
        re.withUnsafeMutableBufferPointer { R in
            im.withUnsafeMutableBufferPointer { I in
                // Bit-reversal permutation.
                var j = 0
                for i in 1 ..< max(n, 1) {
                    var bit = n >> 1
                    while j & bit != 0 { j ^= bit; bit >>= 1 }
                    j |= bit
                    if i < j { R.swapAt(i, j); I.swapAt(i, j) }
                }
                // Butterflies, twiddle e^(∓2πi·k/len).
                let sign: Double = inverse ? 1 : -1
                var len = 2
                while len <= n {
                    let half = len / 2
                    let ang = sign * 2 * Double.pi / Double(len)
                    for k in 0 ..< half {
                        let wr = cos(ang * Double(k)), wi = sin(ang * Double(k))
                        var p = k
                        while p < n {
                            let q = p + half
                            let tr = R[q] * wr - I[q] * wi
                            let ti = R[q] * wi + I[q] * wr
                            R[q] = R[p] - tr; I[q] = I[p] - ti
                            R[p] += tr; I[p] += ti
                            p += len
                        }
                    }
                    len <<= 1
                }
                if inverse {
                    let scale = 1 / Double(n)
                    for i in 0 ..< n { R[i] *= scale; I[i] *= scale }
                }
            }
        }
    }

    /// 2-D FFT of an ny-row × nx-column row-major complex array: rows, then columns.
    static func fft2D(_ re: inout [Double], _ im: inout [Double], nx: Int, ny: Int, inverse: Bool) {
        var rowRe = [Double](repeating: 0, count: nx), rowIm = rowRe
        for y in 0 ..< ny {
            for x in 0 ..< nx { rowRe[x] = re[y * nx + x]; rowIm[x] = im[y * nx + x] }
            fft(&rowRe, &rowIm, inverse: inverse)
            for x in 0 ..< nx { re[y * nx + x] = rowRe[x]; im[y * nx + x] = rowIm[x] }
        }
        var colRe = [Double](repeating: 0, count: ny), colIm = colRe
        for x in 0 ..< nx {
            for y in 0 ..< ny { colRe[y] = re[y * nx + x]; colIm[y] = im[y * nx + x] }
            fft(&colRe, &colIm, inverse: inverse)
            for y in 0 ..< ny { re[y * nx + x] = colRe[y]; im[y * nx + x] = colIm[y] }
        }
    }
}
