/// `AreaResampler` one output row at a time: the same weights and the same order of sums (so the
/// same bits), but only the few sampled rows an output row covers are held, never the whole
/// sampled raster — what keeps a `--max-size` preview of a large photo small in memory.
struct StreamingAreaShrink {
    let inputSize: PixelSize, outputSize: PixelSize
    private let columnWeights: [[(Int, Float)]]
    private let rowWeights: [[(Int, Float)]]
    /// Horizontally shrunk rows (premultiplied, 4 floats a pixel of the output width), by input row.
    private var cache: [Int: [Float]] = [:]
    private var input: [Float]

    init(from inputSize: PixelSize, to outputSize: PixelSize) {
        (self.inputSize, self.outputSize) = (inputSize, outputSize)
        columnWeights = AreaResampler.weights(from: inputSize.width, to: outputSize.width)
        rowWeights = AreaResampler.weights(from: inputSize.height, to: outputSize.height)
        input = [Float](repeating: 0, count: inputSize.width * 4)
    }

    /// The input rows output row y averages.
    func inputRows(of y: Int) -> ClosedRange<Int> {
        let taps = rowWeights[y]
        return taps.first!.0...taps.last!.0
    }

    /// Output row y (encoded RGBA, unpremultiplied) into `out`; `sampleRow(k, buffer)` writes
    /// input row k (encoded RGBA floats, unpremultiplied). Rows must be asked for in order.
    mutating func row(_ y: Int, into out: UnsafeMutablePointer<Float>,
                      sampleRow: (Int, UnsafeMutablePointer<Float>) throws -> Void) rethrows {
        let width = outputSize.width
        for k in cache.keys where k < inputRows(of: y).lowerBound { cache[k] = nil }
        for i in 0..<(width * 4) { out[i] = 0 }
        for (k, weight) in rowWeights[y] {
            if cache[k] == nil { cache[k] = try horizontal(k, sampleRow: sampleRow) }
            cache[k]!.withUnsafeBufferPointer { h in
                for x in 0..<width {
                    let (o, p) = (out + x * 4, x * 4)
                    o[0] += h[p] * weight; o[1] += h[p + 1] * weight
                    o[2] += h[p + 2] * weight; o[3] += h[p + 3] * weight
                }
            }
        }
        for x in 0..<width {
            let o = out + x * 4
            if o[3] > 0 { o[0] /= o[3]; o[1] /= o[3]; o[2] /= o[3] }
        }
    }

    private mutating func horizontal(_ k: Int, sampleRow: (Int, UnsafeMutablePointer<Float>) throws -> Void) rethrows -> [Float] {
        try input.withUnsafeMutableBufferPointer { try sampleRow(k, $0.baseAddress!) }
        var h = [Float](repeating: 0, count: outputSize.width * 4)
        input.withUnsafeBufferPointer { src in
            for (x, taps) in columnWeights.enumerated() {
                var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for (index, weight) in taps {
                    let p = index * 4
                    let alpha = src[p + 3] * weight
                    sum.0 += src[p] * alpha; sum.1 += src[p + 1] * alpha
                    sum.2 += src[p + 2] * alpha; sum.3 += alpha
                }
                h[x * 4] = sum.0; h[x * 4 + 1] = sum.1; h[x * 4 + 2] = sum.2; h[x * 4 + 3] = sum.3
            }
        }
        return h
    }
}
