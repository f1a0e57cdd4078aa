/// How a JPEG's chroma is sampled: the one place every encoder here asks (`JPEGRowWriter`,
/// `JPEGEncoder`, `StripedJPEGEncoder`).
///
/// At full resolution (4:4:4) from quality 90, where chroma loss starts to show (as libvips and
/// ImageMagick also decide), at half resolution both ways (4:2:0) below it. A picture every pixel
/// of which is grey (`ColourProgram.leavesGrey`) is sampled at half resolution at every quality:
/// libjpeg's RGB → YCbCr gives a grey Cb = Cr = 128 exactly (its fixed-point weights of each sum
/// add up to ½ exactly), so both chroma planes are constant, their blocks code to zero, and every
/// decoder, whatever its upsampling, reads 128 back and the same RGB as from the 4:4:4 file. The
/// luma plane is coded alike in both. What changes is the work and the size: a 14.6 MP black and
/// white photo at quality 90 took 0.95 of the render's CPU and made a file 6 % smaller
/// (docs/benchmark.md, twentieth part).
enum JPEGChroma: Equatable {
    case full, half

    init(quality: Int, greyPicture: Bool) {
        self = quality >= 90 && !greyPicture ? .full : .half
    }

    /// Pixel rows in a row of MCUs.
    var mcuHeight: Int { self == .full ? 8 : 16 }

    /// Whether the `count` pixels at `pixels` (`bytesPerPixel` 3 or 4, the fourth byte ignored)
    /// are all grey: the debug builds' check of `ColourProgram.leavesGrey` on every row encoded.
    static func isGrey(_ pixels: UnsafePointer<UInt8>, count: Int, bytesPerPixel: Int) -> Bool {
        (0..<count).allSatisfy { i in
            let p = pixels + i * bytesPerPixel
            return p[0] == p[1] && p[1] == p[2]
        }
    }
}
