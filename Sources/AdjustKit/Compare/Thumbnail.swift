extension RGBA8Image {
    /// The image box-averaged by the smallest whole factor that brings its longer side to at most
    /// `maxSide` pixels (the image itself when it is that small already): a thumbnail for
    /// `adjust fidelity --html`, where a whole factor keeps every output pixel an average of the
    /// same number of input pixels.
    package func thumbnail(maxSide: Int = 512) -> RGBA8Image {
        let longest = max(size.width, size.height)
        guard maxSide > 0, longest > maxSide else { return self }
        let factor = (longest + maxSide - 1) / maxSide
        let width = max(1, size.width / factor), height = max(1, size.height / factor)
        var out = RGBA8Image(size: PixelSize(width: width, height: height))
        let stride = size.width, count = factor * factor
        pixels.withUnsafeBufferPointer { source in
            out.pixels.withUnsafeMutableBufferPointer { target in
                var sums = [Int](repeating: 0, count: width * 4)
                for y in 0..<height {
                    for i in sums.indices { sums[i] = 0 }
                    for sy in (y * factor)..<min(size.height, (y + 1) * factor) {
                        let row = sy * stride
                        for x in 0..<width {
                            for sx in (x * factor)..<min(size.width, (x + 1) * factor) {
                                let p = (row + sx) * 4
                                sums[x * 4] += Int(source[p]); sums[x * 4 + 1] += Int(source[p + 1])
                                sums[x * 4 + 2] += Int(source[p + 2]); sums[x * 4 + 3] += Int(source[p + 3])
                            }
                        }
                    }
                    for i in 0..<(width * 4) { target[y * width * 4 + i] = UInt8((sums[i] + count / 2) / count) }
                }
            }
        }
        return out
    }
}
