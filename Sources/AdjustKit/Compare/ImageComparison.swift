import Foundation

/// How two same-size images differ: PSNR, and the largest and mean absolute difference of each
/// channel. What `adjust compare` prints, and what golden-image tests can assert on.
///
/// Alpha is compared only when either image has a pixel that is not fully opaque; then it counts
/// in the PSNR like a colour channel and gets its own max and mean. Otherwise only R, G, B count.
package struct ImageComparison: Equatable, Sendable {
    /// One channel's figures.
    package struct Channel: Equatable, Sendable {
        /// "R", "G", "B" or "A".
        package var name: String
        /// The largest |a − b| over all pixels, 0…255.
        package var maxDifference: Int
        /// The sum of |a − b| over all pixels divided by the pixel count.
        package var meanDifference: Double
        /// The sum of |a − b| over all pixels (exact).
        package var sumDifference: Int
    }

    /// Width × height of both images, in pixels.
    package var size: PixelSize
    /// Whether alpha was compared (either image is not fully opaque).
    package var comparesAlpha: Bool
    /// R, G, B, and A when `comparesAlpha`.
    package var channels: [Channel]
    /// Σ(a − b)² over the compared channels of every pixel (exact).
    package var sumOfSquares: Int
    /// Pixels where any compared channel differs.
    package var differingPixels: Int

    /// Mean squared error over the compared channels of every pixel.
    package var meanSquaredError: Double {
        let count = size.pixelCount * channels.count
        return count > 0 ? Double(sumOfSquares) / Double(count) : 0
    }

    /// 10·log10(255² / MSE) in dB; +infinity when the images are identical (MSE 0).
    package var psnr: Double {
        sumOfSquares == 0 ? .infinity : 10 * log10(255.0 * 255.0 / meanSquaredError)
    }

    /// True when every compared channel of every pixel is equal.
    package var isIdentical: Bool { sumOfSquares == 0 }

    /// The largest difference of any compared channel.
    package var maxDifference: Int { channels.map(\.maxDifference).max() ?? 0 }
}

/// Why two images cannot be compared.
package struct ComparisonError: Error, Equatable, CustomStringConvertible {
    /// One line, without the file names.
    package var description: String
    /// An error with the one-line message `description`.
    package init(_ description: String) { self.description = description }
}

/// An image read for comparison, with the format it was read as.
package struct ComparedImage: Sendable {
    /// The file format the image was decoded from; the raw value is its display name.
    package enum Format: String, Sendable { case png = "PNG", jpeg = "JPEG", heic = "HEIC" }
    /// The pixels as read: 8-bit RGBA, rows from the top, not premultiplied; a JPEG or HEIC as
    /// stored (no EXIF orientation, no irot/imir), alpha 255.
    package var image: RGBA8Image
    /// The format the file was read as.
    package var format: Format
}

/// Reads PNG, JPEG and HEIC files and compares images pixel by pixel (`adjust compare`).
package enum ImageComparator {
    /// Compares two images of the same size; a different size is an error naming both.
    package static func compare(_ a: RGBA8Image, _ b: RGBA8Image) throws(ComparisonError) -> ImageComparison {
        guard a.size == b.size else {
            throw ComparisonError("the images differ in size: \(a.size) and \(b.size)")
        }
        let comparesAlpha = !a.isOpaque || !b.isOpaque
        let channelCount = comparesAlpha ? 4 : 3
        var maxima = [Int](repeating: 0, count: 4)
        var sums = [Int](repeating: 0, count: 4)
        var sumOfSquares = 0
        var differing = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for i in 0..<a.size.pixelCount {
                    var pixelDiffers = false
                    for c in 0..<channelCount {
                        let d = abs(Int(pa[i * 4 + c]) - Int(pb[i * 4 + c]))
                        if d != 0 {
                            pixelDiffers = true
                            if d > maxima[c] { maxima[c] = d }
                            sums[c] += d
                            sumOfSquares += d * d
                        }
                    }
                    if pixelDiffers { differing += 1 }
                }
            }
        }
        let names = ["R", "G", "B", "A"]
        let count = a.size.pixelCount
        let channels = (0..<channelCount).map { c in
            ImageComparison.Channel(name: names[c], maxDifference: maxima[c],
                                    meanDifference: count > 0 ? Double(sums[c]) / Double(count) : 0,
                                    sumDifference: sums[c])
        }
        return ImageComparison(size: a.size, comparesAlpha: comparesAlpha, channels: channels,
                               sumOfSquares: sumOfSquares, differingPixels: differing)
    }

    /// |a − b| per colour channel, multiplied by `gain` and clamped to 255, with alpha 255
    /// (a difference in alpha alone does not show). The images must have the same size.
    package static func differenceImage(_ a: RGBA8Image, _ b: RGBA8Image, gain: Int = 8) throws(ComparisonError) -> RGBA8Image {
        guard a.size == b.size else {
            throw ComparisonError("the images differ in size: \(a.size) and \(b.size)")
        }
        var out = RGBA8Image(size: a.size)
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                out.pixels.withUnsafeMutableBufferPointer { po in
                    for i in 0..<a.size.pixelCount {
                        for c in 0..<3 {
                            let d = abs(Int(pa[i * 4 + c]) - Int(pb[i * 4 + c]))
                            po[i * 4 + c] = UInt8(min(255, d * gain))
                        }
                        po[i * 4 + 3] = 255
                    }
                }
            }
        }
        return out
    }

    /// Reads a PNG (any kind, as 8-bit RGBA), a JPEG or a HEIC (decoded as stored: no EXIF
    /// orientation or irot/imir is applied; alpha 255), told apart by their signatures. A HEIC is
    /// decoded with `decoder`'s size limits.
    package static func load(_ path: String, limit: Int = InputLimits.defaultMaxInputBytes,
                            decoder: JPEGDecoder = JPEGDecoder()) throws(FileError) -> ComparedImage {
        let bytes = try InputFile.read(path, limit: limit)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            do {
                return ComparedImage(image: try PNGCodec.decode(bytes), format: .png)
            } catch {
                throw FileError(path: path, kind: .invalidContent, error)
            }
        }
        let isHEIC = HEICDecoder.isHEIF(bytes)
        if bytes.starts(with: [0xFF, 0xD8]) || isHEIC {
            let rgb: RGB8Image
            do {
                rgb = isHEIC ? try HEICDecoder(maxSide: decoder.maxSide, maxPixels: decoder.maxPixels).decode(bytes)
                    : try decoder.decode(bytes)
            } catch {
                throw FileError(path: path, kind: .invalidContent, error)
            }
            var rgba = [UInt8](repeating: 255, count: rgb.size.pixelCount * 4)
            for i in 0..<rgb.size.pixelCount {
                rgba[i * 4] = rgb.pixels[i * 3]
                rgba[i * 4 + 1] = rgb.pixels[i * 3 + 1]
                rgba[i * 4 + 2] = rgb.pixels[i * 3 + 2]
            }
            return ComparedImage(image: RGBA8Image(size: rgb.size, pixels: rgba), format: isHEIC ? .heic : .jpeg)
        }
        throw FileError(path: path, kind: .invalidContent, problem: "not a PNG or JPEG (or HEIC) file")
    }
}
