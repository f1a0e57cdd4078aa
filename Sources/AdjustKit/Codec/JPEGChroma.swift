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
}
