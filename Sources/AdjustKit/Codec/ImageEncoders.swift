import CPNG
import CTurboJPEG

/// Output file formats.
public enum ImageFormat: String, CaseIterable, Sendable {
    /// Baseline JPEG (`.jpg`).
    case jpeg
    /// PNG, 8 bits per channel, RGB or RGBA (`.png`).
    case png

    /// The format a file name's extension asks for, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        default: return nil
        }
    }

    /// The extension written by default, without the dot: `jpg` or `png`.
    public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
}

/// Why an image could not be encoded.
public struct EncodeError: Error, Equatable, CustomStringConvertible {
    /// One line, without the file name.
    public var description: String
}

/// Encodes `RGBA8Image`s as baseline JPEG with libjpeg-turbo's TurboJPEG API.
package enum JPEGEncoder {
    /// Baseline JPEG, its chroma sampled as `JPEGChroma` says (`greyPicture`: every pixel of
    /// `image` is grey). JPEG has no alpha: partially transparent
    /// pixels are composited over black in the working space `space`, as Core Image's opaque
    /// export does (geometry.md §1).
    ///
    /// An opaque image is compressed from its own pixels as RGBX (the alpha byte ignored: the
    /// same file as from RGB), without an RGB copy of the whole image; others are composited into
    /// one first.
    package static func encode(_ image: RGBA8Image, quality: Int, compositingIn space: WorkingSpace = .linear,
                               greyPicture: Bool = false) throws(EncodeError) -> [UInt8] {
        let count = image.size.pixelCount
        let opaque = image.isOpaque
        var rgb = [UInt8]()
        if !opaque {
            rgb = [UInt8](repeating: 0, count: count * 3)
            image.pixels.withUnsafeBufferPointer { src in
                rgb.withUnsafeMutableBufferPointer { dst in
                    compositeOverBlack(src.baseAddress!, count: count, into: dst.baseAddress!, working: space.fromByte, space: space)
                }
            }
        }
        guard let handle = tjInitCompress() else { throw EncodeError(description: "libjpeg-turbo could not start") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { tjFree(buffer) }
        let subsampling = JPEGChroma(quality: quality, greyPicture: greyPicture) == .full ? TJSAMP_444 : TJSAMP_420
        let (pixels, format) = opaque ? (image.pixels, TJPF_RGBX) : (rgb, TJPF_RGB)
        let status = pixels.withUnsafeBufferPointer { src in
            tjCompress2(handle, src.baseAddress, Int32(image.size.width), 0, Int32(image.size.height),
                        Int32(format.rawValue), &buffer, &size, Int32(subsampling.rawValue),
                        Int32(quality), 0)
        }
        guard status == 0, let buffer else {
            throw EncodeError(description: "JPEG encoding failed: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}

extension JPEGEncoder {
    /// RGBA pixels → RGB over black, compositing in the working space (`working` is
    /// `space.fromByte`); opaque pixels are copied. With `bytesPerPixel` 4 the output is RGBX
    /// (`JPEGRowWriter(bytesPerPixel: 4)`), its fourth bytes left as they are.
    static func compositeOverBlack(_ rgba: UnsafePointer<UInt8>, count: Int, into rgb: UnsafeMutablePointer<UInt8>,
                                   bytesPerPixel: Int = 3, working: [Float], space: WorkingSpace) {
        for i in 0..<count {
            let (pixel, out) = (rgba + i * 4, rgb + i * bytesPerPixel)
            let alpha = pixel[3]
            if alpha == 255 {
                out[0] = pixel[0]; out[1] = pixel[1]; out[2] = pixel[2]
                continue
            }
            for c in 0..<3 {
                out[c] = space.byte(working[Int(pixel[c])] * Float(alpha) / 255)
            }
        }
    }

    /// An RGBA row over black for `JPEGRowWriter(bytesPerPixel: 4)`: the row itself where every
    /// pixel is opaque (nearly every row of a render), which the encoder then reads without a
    /// copy; else the row composited into `scratch` (`compositeOverBlack`).
    static func rowOverBlack(_ rgba: UnsafePointer<UInt8>, count: Int, scratch: UnsafeMutablePointer<UInt8>,
                             working: [Float], space: WorkingSpace) -> UnsafePointer<UInt8> {
        if RGBA8Image.isOpaque(rgba, count: count) { return rgba }
        compositeOverBlack(rgba, count: count, into: scratch, bytesPerPixel: 4, working: working, space: space)
        return UnsafePointer(scratch)
    }
}

extension Rendering {
    /// The rendering as a JPEG (`quality`, composited in its working space) or PNG file (the
    /// default `PNGCompression`, as a streamed render writes it), with its notes.
    public func encoded(as format: ImageFormat, quality: Int = 90) throws(EncodeError) -> EncodedRendering {
        let bytes = format == .jpeg ? try JPEGEncoder.encode(image, quality: quality, compositingIn: workingSpace,
                                                             greyPicture: isGrey)
                                    : try PNGRowWriter.encode(image, compression: .default)
        var encoded = EncodedRendering(bytes: bytes, format: format, size: image.size, notes: notes)
        encoded.decodeMs = decodeMs
        return encoded
    }
}

/// PNG through libpng's simplified API, which reports errors by return value (no setjmp here).
/// Renders are written by `PNGRowWriter` (libpng's full API, row by row); `encode` is the
/// whole-raster encoder it replaced, kept for images made whole anyway (a `compare` difference
/// image) and as the reference the streamed output's pixels are tested against.
package enum PNGCodec {
    /// RGB when every pixel is opaque, else RGBA (not premultiplied).
    package static func encode(_ image: RGBA8Image) throws(EncodeError) -> [UInt8] {
        let opaque = image.isOpaque
        var pixels = image.pixels
        if opaque {
            pixels = [UInt8](unsafeUninitializedCapacity: image.size.pixelCount * 3) { out, count in
                for i in 0..<image.size.pixelCount {
                    out[i * 3] = image.pixels[i * 4]; out[i * 3 + 1] = image.pixels[i * 4 + 1]
                    out[i * 3 + 2] = image.pixels[i * 4 + 2]
                }
                count = image.size.pixelCount * 3
            }
        }
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        info.width = UInt32(image.size.width)
        info.height = UInt32(image.size.height)
        info.format = opaque ? UInt32(PNG_FORMAT_FLAG_COLOR) : UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        defer { png_image_free(&info) }
        // One pass into a buffer of the worst case: asked for its size first (a nil buffer),
        // libpng compresses the whole image to count the bytes, then again to write them — twice
        // the work. The bound is the rows uncompressed (a filter byte each), deflate's stored-block
        // overhead, an IDAT header per 8 KiB, and room for the header chunks; should it ever be
        // short, libpng says so and the two-pass way is taken.
        let raw = image.size.height * (1 + image.size.width * (opaque ? 3 : 4))
        var size = raw + raw / 1024 + (1 << 16)
        var output = [UInt8](repeating: 0, count: size)
        var written = pixels.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBytes { dst in
                png_image_write_to_memory(&info, dst.baseAddress, &size, 0, src.baseAddress, 0, nil)
            }
        }
        if written == 0, size > output.count {
            png_image_free(&info)
            info.warning_or_error = 0
            output = [UInt8](repeating: 0, count: size)
            written = pixels.withUnsafeBufferPointer { src in
                output.withUnsafeMutableBytes { dst in
                    png_image_write_to_memory(&info, dst.baseAddress, &size, 0, src.baseAddress, 0, nil)
                }
            }
        }
        guard written != 0 else { throw EncodeError(description: "PNG encoding failed: \(message(info))") }
        return Array(output.prefix(size))
    }

    /// Any PNG, converted to 8-bit RGBA.
    package static func decode(_ data: [UInt8]) throws(EncodeError) -> RGBA8Image {
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&info) }
        let begun = data.withUnsafeBytes { png_image_begin_read_from_memory(&info, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw EncodeError(description: "not a readable PNG: \(message(info))") }
        info.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let size = PixelSize(width: Int(info.width), height: Int(info.height))
        guard size.width <= 65_535, size.height <= 65_535, size.pixelCount <= 100_000_000 else {
            throw EncodeError(description: "PNG is \(size) pixels, too large")
        }
        var image = RGBA8Image(size: size)
        let finished = image.pixels.withUnsafeMutableBytes {
            png_image_finish_read(&info, nil, $0.baseAddress, 0, nil)
        }
        guard finished != 0 else { throw EncodeError(description: "corrupt PNG: \(message(info))") }
        return image
    }

    private static func message(_ info: png_image) -> String {
        withUnsafeBytes(of: info.message) { CLibraryMessage.text(bytes: $0) }
    }
}
