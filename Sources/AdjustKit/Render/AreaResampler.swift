/// Shrinks an image by area averaging: each output pixel is the mean of the input area it
/// covers, partial input pixels weighted by their overlap, premultiplied by alpha. Finishes a
/// `--max-size` render after the DCT's coarse shrink (geometry.md §3).
enum AreaResampler {
    static func resample(_ image: RGBAFloatImage, to size: PixelSize) -> RGBAFloatImage {
        guard size != image.size else { return image }
        let (inW, inH) = (image.size.width, image.size.height)
        let columnWeights = weights(from: inW, to: size.width)
        let rowWeights = weights(from: inH, to: size.height)

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

    /// For each of `outCount` pixels, the input pixels it covers and their share (summing to 1).
    static func weights(from inCount: Int, to outCount: Int) -> [[(Int, Float)]] {
        let ratio = Double(inCount) / Double(outCount)
        return (0..<outCount).map { i in
            let lo = Double(i) * ratio, hi = Double(i + 1) * ratio
            let first = Int(lo.rounded(.down)), last = min(inCount - 1, Int(hi.rounded(.up)) - 1)
            return (first...max(first, last)).compactMap { k in
                let overlap = min(hi, Double(k + 1)) - max(lo, Double(k))
                return overlap > 0 ? (k, Float(overlap / ratio)) : nil
            }
        }
    }
}
