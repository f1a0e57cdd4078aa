/// `AreaResampler` one output row at a time: the same weights and the same order of sums (so the
/// same bits), but only the few sampled rows an output row covers are held, never the whole
/// sampled raster — what keeps a `--max-size` preview of a large photo small in memory.
///
/// A copy shares the weights and gets its own rows (copy-on-write): one copy per worker.
struct StreamingAreaShrink {
    let inputSize: PixelSize, outputSize: PixelSize
    private let columnTaps: Taps, rowTaps: Taps
    /// Horizontally shrunk input rows (premultiplied, 4 floats a pixel of the output width), in a
    /// ring of `slots` rows: input row k lives in slot k mod slots, `cachedRow[slot]` says which.
    private var shrunkRows: [Float]
    private var cachedRow: [Int]
    private let slots: Int
    /// One sampled input row.
    private var input: [Float]

    /// The weights of `AreaWeights.weights`, flattened: output i takes inputs
    /// index[start[i]..<start[i + 1]] with the matching weights.
    private struct Taps {
        var start: [Int] = [0], index: [Int] = [], weight: [Float] = []
        init(from inCount: Int, to outCount: Int) {
            for taps in AreaWeights.weights(from: inCount, to: outCount) {
                for (i, w) in taps { index.append(i); weight.append(w) }
                start.append(index.count)
            }
        }
        func range(_ i: Int) -> Range<Int> { start[i]..<start[i + 1] }
    }

    init(from inputSize: PixelSize, to outputSize: PixelSize) {
        (self.inputSize, self.outputSize) = (inputSize, outputSize)
        columnTaps = Taps(from: inputSize.width, to: outputSize.width)
        let rowTaps = Taps(from: inputSize.height, to: outputSize.height)
        self.rowTaps = rowTaps
        slots = 1 + (0..<outputSize.height).map { rowTaps.range($0).count }.max()!
        shrunkRows = [Float](repeating: 0, count: slots * outputSize.width * 4)
        cachedRow = [Int](repeating: -1, count: slots)
        input = [Float](repeating: 0, count: inputSize.width * 4)
    }

    /// The input rows output row y averages.
    func inputRows(of y: Int) -> ClosedRange<Int> {
        let taps = rowTaps.range(y)
        return rowTaps.index[taps.lowerBound]...rowTaps.index[taps.upperBound - 1]
    }

    /// Output row y (encoded RGBA, unpremultiplied) into `out`; `sampleRow(k, buffer)` writes
    /// input row k (encoded RGBA floats, unpremultiplied). Rows must be asked for in order.
    mutating func row(_ y: Int, into out: UnsafeMutablePointer<Float>,
                      sampleRow: (Int, UnsafeMutablePointer<Float>) -> Void) {
        let width = outputSize.width
        for k in inputRows(of: y) where cachedRow[k % slots] != k { shrinkInputRow(k, sampleRow: sampleRow) }
        out.initialize(repeating: 0, count: width * 4)
        shrunkRows.withUnsafeBufferPointer { rows in
            for t in rowTaps.range(y) {
                let (k, weight) = (rowTaps.index[t], rowTaps.weight[t])
                let h = rows.baseAddress! + (k % slots) * width * 4
                for p in 0..<(width * 4) { out[p] += h[p] * weight }
            }
        }
        for x in 0..<width {
            let o = out + x * 4
            if o[3] > 0 { o[0] /= o[3]; o[1] /= o[3]; o[2] /= o[3] }
        }
    }

    private mutating func shrinkInputRow(_ k: Int, sampleRow: (Int, UnsafeMutablePointer<Float>) -> Void) {
        input.withUnsafeMutableBufferPointer { sampleRow(k, $0.baseAddress!) }
        let (width, slot) = (outputSize.width, k % slots)
        cachedRow[slot] = k
        let taps = columnTaps
        // Lane by lane the scalar sums of `AreaResampler` (so the same bits): colour × (alpha ×
        // weight) in the colour lanes, alpha × weight itself in the alpha lane.
        let colourLanes: SIMDMask<SIMD4<Int32>> = [true, true, true, false]
        input.withUnsafeBytes { pixels in
        shrunkRows.withUnsafeMutableBufferPointer { rows in
        taps.start.withUnsafeBufferPointer { start in
        taps.index.withUnsafeBufferPointer { index in
        taps.weight.withUnsafeBufferPointer { weights in
            let h = UnsafeMutableRawPointer(rows.baseAddress! + slot * width * 4)
            for x in 0..<width {
                var sum = SIMD4<Float>()
                for t in start[x]..<start[x + 1] {
                    let pixel = pixels.loadUnaligned(fromByteOffset: index[t] * 16, as: SIMD4<Float>.self)
                    let alpha = pixel[3] * weights[t]
                    sum += SIMD4(repeating: 1).replacing(with: pixel, where: colourLanes) * alpha
                }
                h.storeBytes(of: sum, toByteOffset: x * 16, as: SIMD4<Float>.self)
            }
        }
        }
        }
        }
        }
    }
}
