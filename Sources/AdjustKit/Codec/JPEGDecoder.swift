import Foundation
import CTurboJPEG

/// What a JPEG's header says, read without decoding pixels.
package struct JPEGHeader: Equatable, Sendable {
    /// Width × height as stored, before EXIF orientation, in pixels.
    package var size: PixelSize
    /// What reading the header let through, one line each: harmless libjpeg warnings (stray
    /// bytes between header segments, an unknown JFIF revision), damage tolerated by
    /// `tolerateWarnings`, a CMYK file's colour caveat. Empty for most files.
    package var warnings: [String] = []
}

/// Decodes JPEGs with libjpeg-turbo, at full size or a DCT scale n/8, always to RGB.
///
/// A file TurboJPEG reads without any warning goes through its API (`tjDecompressHeader3`,
/// `tjDecompress2`). Every other one — a libjpeg warning, a CMYK or YCCK file — goes through the
/// libjpeg shim (`JPEGRegionReader`), which sorts warnings by what they mean: harmless ones
/// (stray bytes between header segments, an unknown JFIF revision) are reported and never stop
/// a decode; damaged or missing image data fails it unless `tolerateWarnings`. So the one
/// classification covers both paths, header reading included.
package struct JPEGDecoder: Sendable {
    /// Checked against the header before any pixel buffer is allocated.
    package var maxSide: Int
    /// Largest width × height accepted, also checked against the header before allocating.
    package var maxPixels: Int
    /// Warnings that mean damaged or missing image data (premature end of data or file, bad
    /// Huffman code, lost restart markers, …) fail the decode unless this is set; harmless
    /// warnings never do.
    package var tolerateWarnings: Bool
    /// libjpeg-turbo stops progressive files after 500 scans (a CPU bomb otherwise) unless this is set.
    package var allowManyScans: Bool

    /// Defaults: 16 384 px a side, 100 MP, warnings refused, libjpeg-turbo's 500-scan cap kept.
    package init(maxSide: Int = 16_384, maxPixels: Int = 100_000_000, tolerateWarnings: Bool = false,
                allowManyScans: Bool = false) {
        (self.maxSide, self.maxPixels) = (maxSide, maxPixels)
        (self.tolerateWarnings, self.allowManyScans) = (tolerateWarnings, allowManyScans)
    }

    /// Reads the header only (no pixels) and checks the size limits. `warnings` says what the
    /// header let through; damage found there is refused unless `tolerateWarnings`.
    package func header(of jpeg: [UInt8]) throws(DecodeError) -> JPEGHeader {
        try withDecompressor { handle throws(DecodeError) in try readHeader(jpeg, handle).header }
    }

    /// Decodes at `scale`; the result is ⌈W·s⌉ × ⌈H·s⌉ RGB pixels (grayscale is expanded, CMYK
    /// converted).
    package func decode(_ jpeg: [UInt8], scale: DecodeScale = .full) throws(DecodeError) -> RGB8Image {
        try decodeReportingWarnings(jpeg, scale: scale).image
    }

    /// As `decode`, with what the decode let through, one line each: the header's warnings (as
    /// `header(of:).warnings`) and damage tolerated below it.
    package func decodeReportingWarnings(_ jpeg: [UInt8], scale: DecodeScale = .full) throws(DecodeError)
        -> (image: RGB8Image, warnings: [String]) {
        try withDecompressor { handle throws(DecodeError) in
            let (header, plain) = try readHeader(jpeg, handle)
            guard Self.supportedScales.contains(scale) else { throw .unsupportedScale(scale) }
            let size = scale.decodedSize(of: header.size)
            var pixels = [UInt8](repeating: 0, count: size.pixelCount * 3)
            if plain {
                // Progressive files with absurd scan counts are a CPU bomb: TJFLAG_LIMITSCANS stops them.
                let flags: Int32 = (allowManyScans ? 0 : TJFLAG_LIMITSCANS) | TJFLAG_STOPONWARNING
                let status = jpeg.withUnsafeBufferPointer { src in
                    pixels.withUnsafeMutableBufferPointer { dst in
                        tjDecompress2(handle, src.baseAddress, UInt(src.count), dst.baseAddress,
                                      Int32(size.width), 0, Int32(size.height), Int32(TJPF_RGB.rawValue), flags)
                    }
                }
                if status == 0 { return (RGB8Image(size: size, pixels: pixels), []) }
                // A warning: decoded again through the shim, which knows what it means.
                guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else { throw .corrupt(Self.message(handle)) }
            }
            let reader = try JPEGRegionReader(jpeg: jpeg, scale: scale, tolerateWarnings: tolerateWarnings,
                                              allowManyScans: allowManyScans)
            guard reader.decodedSize == size else { throw .corrupt("libjpeg's scaled size differs from TurboJPEG's") }
            try pixels.withUnsafeMutableBufferPointer { (dst) throws(DecodeError) in
                try reader.readRows(into: dst.baseAddress!, stride: size.width * 3, count: size.height)
            }
            return (RGB8Image(size: size, pixels: pixels), reader.headerWarnings + reader.dataWarnings)
        }
    }

    /// The scales this libjpeg-turbo build can decode at.
    package static let supportedScales: Set<DecodeScale> = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [.full] }
        return Set((0..<Int(count)).compactMap { i -> DecodeScale? in
            let factor = factors[i]
            guard (8 * Int(factor.num)) % Int(factor.denom) == 0 else { return nil }
            return DecodeScale(numerator: 8 * Int(factor.num) / Int(factor.denom))
        })
    }()

    /// The header, and whether TurboJPEG read it plainly (no warning, not CMYK), so that its
    /// decode may be used. Otherwise the shim reads it: TurboJPEG fails a header on any warning
    /// (and on subsamplings it has no name for), which the shim sorts out.
    private func readHeader(_ jpeg: [UInt8], _ handle: tjhandle) throws(DecodeError) -> (header: JPEGHeader, plain: Bool) {
        guard jpeg.count >= 3, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .notAJPEG }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { src in
            tjDecompressHeader3(handle, src.baseAddress, UInt(src.count), &width, &height, &subsampling, &colorspace)
        }
        var warnings: [String] = []
        let plain = status == 0 && colorspace != Int32(TJCS_CMYK.rawValue) && colorspace != Int32(TJCS_YCCK.rawValue)
        if !plain {
            let read = try JPEGRegionReader.header(of: jpeg, tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
            (width, height, warnings) = (Int32(read.size.width), Int32(read.size.height), read.warnings)
        }
        let size = PixelSize(width: Int(width), height: Int(height))
        // TurboJPEG reports 0 × 0 for a stream that ends before its frame header, too.
        guard size.width > 0, size.height > 0 else { throw .corrupt("no frame header, or zero width or height") }
        guard size.width <= maxSide, size.height <= maxSide, size.pixelCount <= maxPixels else {
            throw .tooLarge(size, maxSide: maxSide, maxPixels: maxPixels)
        }
        return (JPEGHeader(size: size, warnings: warnings), plain)
    }

    private func withDecompressor<T>(_ body: (tjhandle) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard let handle = tjInitDecompress() else { throw .corrupt("libjpeg-turbo could not start") }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    private static func message(_ handle: tjhandle) -> String {
        tjGetErrorStr2(handle).map { CLibraryMessage.text(UnsafePointer($0)) } ?? "unknown error"
    }
}
