/// 8-bit RGB pixels, row-major from the top-left, 3 bytes a pixel: a decoded JPEG.
package struct RGB8Image: Equatable, Sendable {
    /// Width × height, in pixels.
    package var size: PixelSize
    /// R, G, B sRGB-encoded bytes per pixel, rows from the top; 3 × `size.pixelCount` bytes.
    package var pixels: [UInt8]
    /// Traps unless `pixels` holds exactly 3 × `size.pixelCount` bytes.
    package init(size: PixelSize, pixels: [UInt8]) {
        precondition(pixels.count == size.pixelCount * 3)
        (self.size, self.pixels) = (size, pixels)
    }
}

/// 8-bit RGBA pixels, row-major from the top-left, colour not premultiplied (PNG's convention);
/// alpha carries the coverage of crop edges and of the transparent surround.
public struct RGBA8Image: Equatable, Sendable {
    /// Width × height, in pixels.
    public var size: PixelSize
    /// R, G, B, A sRGB-encoded bytes per pixel, rows from the top; 4 × `size.pixelCount` bytes.
    public var pixels: [UInt8]

    /// Traps unless `pixels` holds exactly 4 × `size.pixelCount` bytes.
    package init(size: PixelSize, pixels: [UInt8]) {
        precondition(pixels.count == size.pixelCount * 4)
        (self.size, self.pixels) = (size, pixels)
    }

    /// A fully transparent black image (every byte 0) of `size`.
    package init(size: PixelSize) {
        self.init(size: size, pixels: [UInt8](repeating: 0, count: size.pixelCount * 4))
    }

    /// True when every alpha is 255, so the image can be written without an alpha channel.
    package var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in p.isEmpty || Self.isOpaque(p.baseAddress!, count: p.count / 4) }
    }

    /// True when all `count` RGBA pixels from `pixels` on have alpha 255: the AND of their 32-bit
    /// words has 255 at the alpha byte (a loop the compiler vectorizes, where a test a pixel
    /// does not; it runs on every row an encoder is given).
    @inline(__always)
    package static func isOpaque(_ pixels: UnsafePointer<UInt8>, count: Int) -> Bool {
        var all = UInt32.max
        let words = UnsafeRawPointer(pixels)
        for i in 0..<count { all &= words.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self) }
        let alphaMask = UInt32(littleEndian: 0xFF00_0000)
        return all & alphaMask == alphaMask
    }

    /// True when all `count` RGBA (or RGBX) pixels from `pixels` on have R = G = B: each 32-bit
    /// word against itself a byte down (`OrientedPlacement`'s grey bands; a debug build's check of
    /// `ColourProgram.leavesGrey` on every row a JPEG encoder is given).
    package static func isGrey(_ pixels: UnsafeRawPointer, count: Int) -> Bool {
        for i in 0..<count {
            let pixel = UInt32(littleEndian: pixels.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
            if (pixel ^ (pixel >> 8)) & 0xFFFF != 0 { return false }
        }
        return true
    }

    /// The raster shown by EXIF `orientation` (geometry.md §4): each row placed as the renderer
    /// places a turned output's (`OrientedPlacement`, the one implementation of the orientations).
    package func oriented(_ orientation: Orientation) -> RGBA8Image {
        guard orientation != .identity else { return self }
        var out = RGBA8Image(size: orientation.orientedSize(of: size))
        out.pixels.withUnsafeMutableBufferPointer { raster in
            let placement = OrientedPlacement(orientation: orientation, unorientedSize: size, raster: raster.baseAddress!)
            pixels.withUnsafeBufferPointer { rows in
                for j in 0..<size.height { placement.place(row: j, rows.baseAddress! + j * size.width * 4) }
            }
        }
        return out
    }
}
