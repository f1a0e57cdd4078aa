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
        pixels.withUnsafeBufferPointer { p in
            stride(from: 3, to: p.count, by: 4).allSatisfy { p[$0] == 255 }
        }
    }

    /// The raster shown by EXIF `orientation` (geometry.md §4).
    package func oriented(_ orientation: Orientation) -> RGBA8Image {
        guard orientation != .identity else { return self }
        let outSize = orientation.orientedSize(of: size)
        var out = [UInt8]()
        out.reserveCapacity(pixels.count)
        forEachOrientedBand(orientation) { rows, count in
            out.append(contentsOf: UnsafeBufferPointer(start: rows, count: count * outSize.width * 4))
        }
        return RGBA8Image(size: outSize, pixels: out)
    }

    /// The raster shown by EXIF `orientation`, handed to `body` a band of at most `band` RGBA rows
    /// of the oriented width at a time (the rows, their count), from the top, without an oriented
    /// copy: what the encoders of a turned output write from. A band is gathered column by column,
    /// so that under the rotations its pixels come from neighbouring source pixels, which a row
    /// at a time would read a whole row apart.
    package func forEachOrientedBand(_ orientation: Orientation, rows band: Int = 16,
                                     _ body: (_ rows: UnsafePointer<UInt8>, _ count: Int) throws -> Void) rethrows {
        let outSize = orientation.orientedSize(of: size)
        let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: band * outSize.width)
        defer { buffer.deallocate() }
        try pixels.withUnsafeBytes { src in
            let s = src.bindMemory(to: UInt32.self)
            for top in stride(from: 0, to: outSize.height, by: band) {
                let count = min(band, outSize.height - top)
                for x in 0..<outSize.width {
                    for b in 0..<count {
                        let (u, v) = orientation.sourcePixel(x: x, y: top + b, unorientedSize: size)
                        buffer[b * outSize.width + x] = s[v * size.width + u]
                    }
                }
                try buffer.withMemoryRebound(to: UInt8.self, capacity: count * outSize.width * 4) { try body($0, count) }
            }
        }
    }
}
