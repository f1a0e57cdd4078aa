import Foundation

/// How far one image's content is displaced from another's, to a fraction of a pixel, by phase
/// correlation (`adjust fidelity`: is our render aligned with Apple's?).
///
/// Both images are reduced to luma (Rec. 601 weights), box-averaged by one whole factor so the
/// long side is at most `maxSide` (the same factor on both axes keeps the scale uniform, and a
/// box filter moves a shift to exactly shift ÷ factor), mean-removed, Hann-windowed and
/// zero-padded to powers of two. The normalised cross-power spectrum is weighted by a Gaussian
/// low-pass (σ = `peakSigma` pixels in the reduced image), which shapes the correlation peak into
/// a smooth bump that a parabola through the peak and its two neighbours locates with little bias
/// (an unweighted, whitened peak is a narrow sinc, and the parabola pulls towards the integer).
///
/// Hand-written because no library in the allowed set does a 2-D FFT; the sizes are at most
/// 512 × 512, where a plain radix-2 transform takes milliseconds.
package struct PhaseCorrelation: Sendable {
    /// The displacement found, in pixels of the full-resolution images.
    package struct Shift: Equatable, Sendable {
        /// `b(x, y) ≈ a(x − dx, y − dy)`: x to the right, y downwards (top-left raster).
        package var dx: Double, dy: Double
        /// The correlation peak's height, 1 for a pure translation of the same content, near 0
        /// when nothing lines up (e.g. one image is rotated): how far to trust `dx`, `dy`.
        package var peak: Double

        package init(dx: Double, dy: Double, peak: Double) { (self.dx, self.dy, self.peak) = (dx, dy, peak) }
    }

    /// Longest side, in pixels, the images are reduced to before correlating.
    package var maxSide: Int
    /// Width of the Gaussian the peak is shaped into, in reduced pixels.
    package var peakSigma: Double

    package init(maxSide: Int = 512, peakSigma: Double = 2) {
        (self.maxSide, self.peakSigma) = (max(8, maxSide), peakSigma)
    }

    /// The shift that carries `a`'s content onto `b`'s. The images must have the same size.
    package func shift(from a: RGBA8Image, to b: RGBA8Image) throws(ComparisonError) -> Shift {
        guard a.size == b.size else { throw ComparisonError("the images differ in size: \(a.size) and \(b.size)") }
        guard a.size.width >= 2, a.size.height >= 2 else { throw ComparisonError("the images are too small to align: \(a.size)") }
        let factor = max(1, (max(a.size.width, a.size.height) + maxSide - 1) / maxSide)
        let width = a.size.width / factor, height = a.size.height / factor
        guard width >= 2, height >= 2 else { throw ComparisonError("the images are too narrow to align: \(a.size)") }
        let nx = Self.powerOfTwo(atLeast: width), ny = Self.powerOfTwo(atLeast: height)
        let rows = FFT(count: nx), columns = FFT(count: ny)

        var (aRe, aIm) = windowedLuma(a, factor: factor, width: width, height: height, nx: nx, ny: ny)
        var (bRe, bIm) = windowedLuma(b, factor: factor, width: width, height: height, nx: nx, ny: ny)
        Self.transform2D(&aRe, &aIm, nx: nx, ny: ny, rows: rows, columns: columns, inverse: false)
        Self.transform2D(&bRe, &bIm, nx: nx, ny: ny, rows: rows, columns: columns, inverse: false)

        // B·conj(A) / |B·conj(A)|, weighted; the weights' sum is the peak of a perfect match.
        var weightSum = 0.0
        let twoPiSquaredSigmaSquared = 2 * Double.pi * Double.pi * peakSigma * peakSigma
        for v in 0..<ny {
            let fy = Double(v <= ny / 2 ? v : v - ny) / Double(ny)
            for u in 0..<nx {
                let k = v * nx + u
                let fx = Double(u <= nx / 2 ? u : u - nx) / Double(nx)
                let re = bRe[k] * aRe[k] + bIm[k] * aIm[k]
                let im = bIm[k] * aRe[k] - bRe[k] * aIm[k]
                let magnitude = (re * re + im * im).squareRoot()
                let weight = exp(-twoPiSquaredSigmaSquared * (fx * fx + fy * fy))
                weightSum += weight
                if magnitude > 1e-9 {
                    aRe[k] = weight * re / magnitude
                    aIm[k] = weight * im / magnitude
                } else {
                    (aRe[k], aIm[k]) = (0, 0)
                }
            }
        }
        Self.transform2D(&aRe, &aIm, nx: nx, ny: ny, rows: rows, columns: columns, inverse: true)

        var best = 0
        for k in 1..<(nx * ny) where aRe[k] > aRe[best] { best = k }
        let px = best % nx, py = best / nx
        func surface(_ x: Int, _ y: Int) -> Double { aRe[((y + ny) % ny) * nx + (x + nx) % nx] }
        let fx = Self.parabolaVertex(surface(px - 1, py), surface(px, py), surface(px + 1, py))
        let fy = Self.parabolaVertex(surface(px, py - 1), surface(px, py), surface(px, py + 1))
        let ix = px > nx / 2 ? px - nx : px, iy = py > ny / 2 ? py - ny : py
        // The inverse transform is unnormalised: a perfect match peaks at the weights' sum.
        let peak = weightSum > 0 ? aRe[best] / weightSum : 0
        return Shift(dx: (Double(ix) + fx) * Double(factor), dy: (Double(iy) + fy) * Double(factor),
                     peak: min(1, max(0, peak)))
    }

    /// The luma of `image`, box-averaged by `factor`, mean removed, Hann-windowed, in the top-left
    /// `width` × `height` corner of an `nx` × `ny` complex plane (imaginary part zero).
    private func windowedLuma(_ image: RGBA8Image, factor: Int, width: Int, height: Int,
                              nx: Int, ny: Int) -> (re: [Double], im: [Double]) {
        var luma = [Double](repeating: 0, count: width * height)
        let stride = image.size.width
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<(height * factor) {
                let row = (y / factor) * width
                for x in 0..<(width * factor) {
                    let p = (y * stride + x) * 4
                    luma[row + x / factor] += 0.299 * Double(pixels[p]) + 0.587 * Double(pixels[p + 1])
                        + 0.114 * Double(pixels[p + 2])
                }
            }
        }
        let mean = luma.reduce(0, +) / Double(luma.count)
        let hannX = (0..<width).map { Self.hann($0, width) }
        var re = [Double](repeating: 0, count: nx * ny)
        for y in 0..<height {
            let wy = Self.hann(y, height)
            for x in 0..<width { re[y * nx + x] = (luma[y * width + x] - mean) * hannX[x] * wy }
        }
        return (re, [Double](repeating: 0, count: nx * ny))
    }

    private static func hann(_ i: Int, _ n: Int) -> Double {
        n > 1 ? 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1)) : 1
    }

    private static func powerOfTwo(atLeast n: Int) -> Int {
        var p = 1
        while p < n { p <<= 1 }
        return p
    }

    /// The vertex of the parabola through (−1, left), (0, centre), (1, right), within ±½.
    private static func parabolaVertex(_ left: Double, _ centre: Double, _ right: Double) -> Double {
        let curvature = left - 2 * centre + right
        guard curvature < 0 else { return 0 }
        return min(0.5, max(-0.5, 0.5 * (left - right) / curvature))
    }

    /// Every row, then every column, through the 1-D transforms.
    private static func transform2D(_ re: inout [Double], _ im: inout [Double], nx: Int, ny: Int,
                                    rows: FFT, columns: FFT, inverse: Bool) {
        var lineRe = [Double](repeating: 0, count: nx), lineIm = [Double](repeating: 0, count: nx)
        for y in 0..<ny {
            for x in 0..<nx { (lineRe[x], lineIm[x]) = (re[y * nx + x], im[y * nx + x]) }
            rows.transform(&lineRe, &lineIm, inverse: inverse)
            for x in 0..<nx { (re[y * nx + x], im[y * nx + x]) = (lineRe[x], lineIm[x]) }
        }
        var columnRe = [Double](repeating: 0, count: ny), columnIm = [Double](repeating: 0, count: ny)
        for x in 0..<nx {
            for y in 0..<ny { (columnRe[y], columnIm[y]) = (re[y * nx + x], im[y * nx + x]) }
            columns.transform(&columnRe, &columnIm, inverse: inverse)
            for y in 0..<ny { (re[y * nx + x], im[y * nx + x]) = (columnRe[y], columnIm[y]) }
        }
    }

    /// An in-place iterative radix-2 FFT of one power-of-two length, its twiddles computed once.
    /// Unnormalised both ways (only the correlation peak's position and relative height matter).
    private struct FFT {
        let count: Int
        let cosines: [Double], sines: [Double]

        init(count: Int) {
            self.count = count
            cosines = (0..<max(1, count / 2)).map { cos(2 * Double.pi * Double($0) / Double(count)) }
            sines = (0..<max(1, count / 2)).map { sin(2 * Double.pi * Double($0) / Double(count)) }
        }

        func transform(_ re: inout [Double], _ im: inout [Double], inverse: Bool) {
            guard count > 1 else { return }
            // Bit-reversed order first, then butterflies of doubling span.
            var j = 0
            for i in 1..<count {
                var bit = count >> 1
                while j & bit != 0 { j ^= bit; bit >>= 1 }
                j |= bit
                if i < j { re.swapAt(i, j); im.swapAt(i, j) }
            }
            let sign: Double = inverse ? 1 : -1
            var span = 1
            while span < count {
                let step = count / (span * 2)
                for start in stride(from: 0, to: count, by: span * 2) {
                    for k in 0..<span {
                        let wr = cosines[k * step], wi = sign * sines[k * step]
                        let a = start + k, b = a + span
                        let tr = re[b] * wr - im[b] * wi, ti = re[b] * wi + im[b] * wr
                        (re[b], im[b]) = (re[a] - tr, im[a] - ti)
                        (re[a], im[a]) = (re[a] + tr, im[a] + ti)
                    }
                }
                span *= 2
            }
        }
    }
}
