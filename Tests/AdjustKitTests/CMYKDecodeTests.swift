@testable import AdjustKit
import CTurboJPEG
import XCTest

/// CMYK and YCCK JPEGs decode to RGB: through the embedded ICC profile with Little CMS, or by the
/// naive formula without one, at every scale and in region decodes.
final class CMYKDecodeTests: XCTestCase {
    /// A 140×140 YCCK file (Adobe APP14) whose U.S. Web Coated (SWOP) v2 profile is split over
    /// several APP2 chunks, against libvips's `icc_transform --embedded --intent perceptual` of
    /// the same file (Fixtures/real-world/references, made by the command in Fixtures/SOURCES.md):
    /// an independent reading of the same profile.
    func testAProfileSplitOverChunksMatchesLibvips() throws {
        let jpeg = try TestFixtures.bytes(TestFixtures.path("Fixtures/real-world/Multiple_ICC_segments.jpg"))
        let header = try JPEGDecoder().header(of: jpeg)
        XCTAssertEqual(header.size, PixelSize(width: 140, height: 140))
        XCTAssertEqual(header.warnings, [], "the profile was used")
        let decoded = try JPEGDecoder().decode(jpeg)
        let reference = try PNGCodec.decode(TestFixtures.bytes(
            TestFixtures.path("Fixtures/real-world/references/Multiple_ICC_segments.vips-perceptual.png")))
        XCTAssertEqual(reference.size, decoded.size)
        var sums = [0, 0, 0], worst = 0
        for i in 0..<decoded.size.pixelCount {
            for c in 0..<3 {
                let d = abs(Int(decoded.pixels[3 * i + c]) - Int(reference.pixels[4 * i + c]))
                sums[c] += d
                worst = max(worst, d)
            }
        }
        let means = sums.map { Double($0) / Double(decoded.size.pixelCount) }
        print("CMYK vs libvips icc_transform: mean per channel \(means), max \(worst)")
        for mean in means { XCTAssertLessThanOrEqual(mean, 1.0, "mean difference over 1/255 of full scale") }
        XCTAssertLessThanOrEqual(worst, 2)
    }

    /// A region at a reduced scale, skipped rows included, is the same pixels as the whole decode.
    func testRegionAndScaledDecodesMatchTheWholeDecode() throws {
        let jpeg = try TestFixtures.bytes(TestFixtures.path("Fixtures/real-world/Multiple_ICC_segments.jpg"))
        for scale in [DecodeScale.full, DecodeScale(numerator: 4)!, DecodeScale(numerator: 3)!] {
            let whole = try JPEGDecoder().decode(jpeg, scale: scale)
            let columns = 9..<(whole.size.width - 5), firstRow = 11
            let reader = try JPEGRegionReader(jpeg: jpeg, scale: scale, columns: columns, firstRow: firstRow)
            XCTAssertEqual(reader.decodedSize, whole.size)
            let rows = whole.size.height - firstRow
            var region = [UInt8](repeating: 0, count: reader.width * 3 * rows)
            try region.withUnsafeMutableBufferPointer { buffer in
                try reader.readRows(into: buffer.baseAddress!, stride: reader.width * 3, count: rows)
            }
            let rowBytes = reader.width * 3
            for y in 0..<rows {
                let start: Int = ((firstRow + y) * whole.size.width + reader.columnOffset) * 3
                let got: [UInt8] = Array(region[(y * rowBytes)..<((y + 1) * rowBytes)])
                let expected: [UInt8] = Array(whole.pixels[start..<(start + rowBytes)])
                XCTAssertEqual(got, expected, "scale \(scale) row \(y)")
            }
        }
    }

    /// Without a profile: R = C'·K'/255 for Adobe's inverted values (what TurboJPEG writes for
    /// TJPF_CMYK), checked against TurboJPEG's own CMYK decode of the same file.
    func testNoProfileUsesTheNaiveFormulaOnInvertedAdobeValues() throws {
        let size = PixelSize(width: 24, height: 16)
        var cmyk = [UInt8](repeating: 0, count: size.pixelCount * 4)
        for i in 0..<size.pixelCount {
            cmyk[4 * i] = UInt8(40 + i % 24 * 8); cmyk[4 * i + 1] = UInt8(200 - i / 24 * 9)
            cmyk[4 * i + 2] = 128; cmyk[4 * i + 3] = UInt8(255 - i % 7 * 20)
        }
        let jpeg = try Self.compressCMYK(cmyk, size: size)
        let stored = try Self.decompressCMYK(jpeg, size: size)
        let header = try JPEGDecoder().header(of: jpeg)
        XCTAssertEqual(header.warnings, ["CMYK JPEG without an ICC profile: converted to RGB by the naive formula, colours approximate"])
        let rgb = try JPEGDecoder().decode(jpeg)
        for i in 0..<size.pixelCount {
            let k = Int(stored[4 * i + 3])
            for c in 0..<3 {
                XCTAssertEqual(Int(rgb.pixels[3 * i + c]), (Int(stored[4 * i + c]) * k + 127) / 255, "pixel \(i) channel \(c)")
            }
        }
    }

    /// The rendered JPEG is sRGB: the CMYK profile is not carried into it; an RGB one still is.
    func testACMYKProfileIsNotCarriedIntoTheOutput() throws {
        let encoded = try JPEGEncoder.encode(RGBA8Image(size: PixelSize(width: 8, height: 8),
                                                        pixels: [UInt8](repeating: 255, count: 256)), quality: 90)
        let icc = Array("ICC_PROFILE\0".utf8)
        func hasICC(_ jpeg: [UInt8]) -> Bool {
            (0..<(jpeg.count - 16)).contains { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xE2 && Array(jpeg[($0 + 4)..<($0 + 16)]) == icc }
        }
        let cmyk = try TestFixtures.bytes(TestFixtures.path("Fixtures/real-world/Multiple_ICC_segments.jpg"))
        let rgb = try TestFixtures.bytes(TestFixtures.path("Fixtures/real-world/issue_121.jpg"))
        XCTAssertTrue(hasICC(cmyk) && hasICC(rgb))
        let size = PixelSize(width: 8, height: 8)
        XCTAssertFalse(hasICC(MetadataCarryOver.carryOver(from: cmyk, into: encoded, outputSize: size, options: MetadataOptions()).jpeg))
        XCTAssertTrue(hasICC(MetadataCarryOver.carryOver(from: rgb, into: encoded, outputSize: size, options: MetadataOptions()).jpeg))
    }

    static func compressCMYK(_ pixels: [UInt8], size: PixelSize) throws -> [UInt8] {
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(size.width), 0, Int32(size.height), Int32(TJPF_CMYK.rawValue),
                        &out, &length, Int32(TJSAMP_444.rawValue), 100, 0)
        }
        defer { tjFree(out) }
        XCTAssertEqual(status, 0)
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    static func decompressCMYK(_ jpeg: [UInt8], size: PixelSize) throws -> [UInt8] {
        let handle = try XCTUnwrap(tjInitDecompress())
        defer { tjDestroy(handle) }
        var pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
        let status = jpeg.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(handle, src.baseAddress, UInt(src.count), dst.baseAddress, Int32(size.width), 0,
                              Int32(size.height), Int32(TJPF_CMYK.rawValue), 0)
            }
        }
        XCTAssertEqual(status, 0)
        return pixels
    }
}
