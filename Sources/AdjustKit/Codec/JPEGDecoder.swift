import Foundation
import CTurboJPEG

/// What a JPEG's header says, read without decoding pixels.
public struct JPEGHeader: Equatable, Sendable {
    /// Width × height as stored, before EXIF orientation, in pixels.
    public var size: PixelSize
}

/// Decodes JPEGs with libjpeg-turbo's TurboJPEG API, at full size or a DCT scale n/8.
public struct JPEGDecoder: Sendable {
    /// Checked against the header before any pixel buffer is allocated.
    public var maxSide: Int
    /// Largest width × height accepted, also checked against the header before allocating.
    public var maxPixels: Int
    /// libjpeg warnings (corrupt data it could paper over) fail the decode unless this is set.
    public var tolerateWarnings: Bool
    /// libjpeg-turbo stops progressive files after 500 scans (a CPU bomb otherwise) unless this is set.
    public var allowManyScans: Bool

    /// Defaults: 16 384 px a side, 100 MP, warnings refused, libjpeg-turbo's 500-scan cap kept.
    public init(maxSide: Int = 16_384, maxPixels: Int = 100_000_000, tolerateWarnings: Bool = false,
                allowManyScans: Bool = false) {
        (self.maxSide, self.maxPixels) = (maxSide, maxPixels)
        (self.tolerateWarnings, self.allowManyScans) = (tolerateWarnings, allowManyScans)
    }

    /// Reads the header only (no pixels) and checks the size limits; CMYK and YCCK are refused.
    public func header(of jpeg: [UInt8]) throws(DecodeError) -> JPEGHeader {
        try withDecompressor { handle throws(DecodeError) in try readHeader(jpeg, handle) }
    }

    /// Decodes at `scale`; the result is ⌈W·s⌉ × ⌈H·s⌉ RGB pixels (grayscale is expanded).
    public func decode(_ jpeg: [UInt8], scale: DecodeScale = .full) throws(DecodeError) -> RGB8Image {
        try withDecompressor { handle throws(DecodeError) in
            let header = try readHeader(jpeg, handle)
            guard Self.supportedScales.contains(scale) else { throw .unsupportedScale(scale) }
            let size = scale.decodedSize(of: header.size)
            var pixels = [UInt8](repeating: 0, count: size.pixelCount * 3)
            // Progressive files with absurd scan counts are a CPU bomb: TJFLAG_LIMITSCANS stops them.
            var flags: Int32 = allowManyScans ? 0 : TJFLAG_LIMITSCANS
            if !tolerateWarnings { flags |= TJFLAG_STOPONWARNING }
            let status = jpeg.withUnsafeBufferPointer { src in
                pixels.withUnsafeMutableBufferPointer { dst in
                    tjDecompress2(handle, src.baseAddress, UInt(src.count), dst.baseAddress,
                                  Int32(size.width), 0, Int32(size.height), Int32(TJPF_RGB.rawValue), flags)
                }
            }
            if status != 0 {
                let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
                if !(isWarning && tolerateWarnings) { throw .corrupt(Self.message(handle)) }
            }
            return RGB8Image(size: size, pixels: pixels)
        }
    }

    /// The scales this libjpeg-turbo build can decode at.
    public static let supportedScales: Set<DecodeScale> = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [.full] }
        return Set((0..<Int(count)).compactMap { i -> DecodeScale? in
            let factor = factors[i]
            guard (8 * Int(factor.num)) % Int(factor.denom) == 0 else { return nil }
            return DecodeScale(numerator: 8 * Int(factor.num) / Int(factor.denom))
        })
    }()

    private func readHeader(_ jpeg: [UInt8], _ handle: tjhandle) throws(DecodeError) -> JPEGHeader {
        guard jpeg.count >= 3, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .notAJPEG }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { src in
            tjDecompressHeader3(handle, src.baseAddress, UInt(src.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0 else { throw .corrupt(Self.message(handle)) }
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            throw .unsupportedColorspace("CMYK")
        }
        let size = PixelSize(width: Int(width), height: Int(height))
        // TurboJPEG reports 0 × 0 for a stream that ends before its frame header, too.
        guard size.width > 0, size.height > 0 else { throw .corrupt("no frame header, or zero width or height") }
        guard size.width <= maxSide, size.height <= maxSide, size.pixelCount <= maxPixels else {
            throw .tooLarge(size, maxSide: maxSide, maxPixels: maxPixels)
        }
        return JPEGHeader(size: size)
    }

    private func withDecompressor<T>(_ body: (tjhandle) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard let handle = tjInitDecompress() else { throw .corrupt("libjpeg-turbo could not start") }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
