@testable import AdjustKit
import XCTest

/// `StripedJPEGEncoder` against libjpeg itself: stripes encoded apart and joined must be the
/// bytes one libjpeg encoder writes for the whole image with a restart marker every MCU row, and
/// decode to the pixels of the file without restart markers.
final class StripedJPEGEncoderTests: XCTestCase {
    /// Sizes with a last MCU row cut short and not, one row, more stripes than MCU rows; 4:2:0
    /// (16-row MCUs) and 4:4:4 (8-row MCUs); 1 to 7 stripes (8 and more wrap RST7 → RST0).
    func testJoinedStripesAreOneEncodersBytesWithRestarts() throws {
        for (width, height) in [(37, 1), (64, 64), (100, 77), (33, 130), (257, 200), (40, 1000)] {
            let size = PixelSize(width: width, height: height)
            let rgb = Self.pattern(size)
            for quality in [75, 90] {
                let whole = try Self.encodeWhole(rgb, size: size, quality: quality, restarts: true)
                for stripes in [1, 2, 3, 7, 12] {
                    let joined = try rgb.withUnsafeBufferPointer { source in
                        try StripedJPEGEncoder.encode(size: size, quality: quality, stripes: stripes) { row, scratch in
                            Self.rgbx(source.baseAddress! + row * width * 3, width: width, into: scratch)
                        }
                    }
                    XCTAssertEqual(joined, whole, "\(width)×\(height), quality \(quality), \(stripes) stripes")
                }
            }
        }
    }

    /// A restart changes the entropy coding only: the joined file decodes to the pixels of the
    /// file written without restart markers.
    func testJoinedStripesDecodeToThePixelsWithoutRestarts() throws {
        let size = PixelSize(width: 257, height: 200)
        let rgb = Self.pattern(size)
        for quality in [75, 90] {
            let plain = try JPEGDecoder().decode(try Self.encodeWhole(rgb, size: size, quality: quality, restarts: false))
            let joined = try rgb.withUnsafeBufferPointer { source in
                try StripedJPEGEncoder.encode(size: size, quality: quality, stripes: 3) { row, scratch in
                    Self.rgbx(source.baseAddress! + row * size.width * 3, width: size.width, into: scratch)
                }
            }
            let decoded = try JPEGDecoder().decode(joined)
            XCTAssertEqual(decoded.size, size)
            XCTAssertEqual(decoded.pixels, plain.pixels, "quality \(quality)")
        }
    }

    /// An RGB row as the RGBX the encoder takes, its fourth bytes varied (they must be ignored).
    private static func rgbx(_ rgb: UnsafePointer<UInt8>, width: Int, into scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        for x in 0..<width {
            scratch[x * 4] = rgb[x * 3]; scratch[x * 4 + 1] = rgb[x * 3 + 1]; scratch[x * 4 + 2] = rgb[x * 3 + 2]
            scratch[x * 4 + 3] = UInt8(truncatingIfNeeded: x &* 7)
        }
        return UnsafePointer(scratch)
    }

    /// One libjpeg encoder over the whole image (RGB rows), with or without a restart every MCU row.
    private static func encodeWhole(_ rgb: [UInt8], size: PixelSize, quality: Int, restarts: Bool) throws -> [UInt8] {
        let writer = try JPEGRowWriter(size: size, quality: quality, restartEachMCURow: restarts)
        try rgb.withUnsafeBufferPointer { try writer.write(rows: $0.baseAddress!, stride: size.width * 3, count: size.height) }
        return try writer.finish()
    }

    /// Gradients with a hash's noise, so that every MCU row codes differently.
    private static func pattern(_ size: PixelSize) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: size.pixelCount * 3)
        for y in 0..<size.height {
            for x in 0..<size.width {
                var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
                h ^= h >> 13; h &*= 0x5BD1_E995; h ^= h >> 15
                let i = (y * size.width + x) * 3
                rgb[i] = UInt8(truncatingIfNeeded: x * 255 / max(1, size.width - 1) + Int(h & 15))
                rgb[i + 1] = UInt8(truncatingIfNeeded: y * 255 / max(1, size.height - 1) + Int(h >> 8 & 31))
                rgb[i + 2] = UInt8(truncatingIfNeeded: Int(h >> 16))
            }
        }
        return rgb
    }
}
