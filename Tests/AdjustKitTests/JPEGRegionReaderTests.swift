@testable import AdjustKit
import CTurboJPEG
import XCTest

/// `JPEGRegionReader` must deliver exactly the bytes of a full TurboJPEG decode, and
/// `JPEGRowWriter` exactly the bytes of `JPEGEncoder`.
final class JPEGRegionReaderTests: XCTestCase {
    static let scales = [1, 2, 3, 4, 5, 8].map { DecodeScale(numerator: $0)! }

    // MARK: - Exactness

    func testRegionsOfFixturesMatchTheFullDecode() throws {
        var rng = SplitMix64(seed: 0x5EED_0001)
        for name in ["Landscape_1.jpg", "progressive-960x1280.jpg", "iphone4s-2592x1936.jpg", "landscape-1800x1195.jpg"] {
            try assertRegionsMatch(TestFixtures.bytes(TestFixtures.image(name)), name, randomRegions: 6, using: &rng)
        }
    }

    /// Widths 1 and 2 past an iMCU boundary at full size (593 = 37·16 + 1, 610 = 38·16 + 2), where
    /// a crop of the last columns is one or two pixels wide.
    func testRegionsOfMadeSubsamplingsMatchTheFullDecode() throws {
        var rng = SplitMix64(seed: 0x5EED_0002)
        for (subsampling, size) in [(TJSAMP_444, PixelSize(width: 593, height: 411)),
                                    (TJSAMP_422, PixelSize(width: 610, height: 403)),
                                    (TJSAMP_420, PixelSize(width: 593, height: 402)),
                                    (TJSAMP_GRAY, PixelSize(width: 610, height: 401))] {
            let jpeg = try Self.madeJPEG(size: size, subsampling: subsampling)
            try assertRegionsMatch(jpeg, "made \(subsampling) \(size)", randomRegions: 10, using: &rng)
        }
    }

    /// Images under 8 px a side, where TurboJPEG decodes n/8 at the largest m/8 of the same size.
    func testTinyImagesMatchTheFullDecode() throws {
        var rng = SplitMix64(seed: 0x5EED_0003)
        for size in [PixelSize(width: 1, height: 1), PixelSize(width: 3, height: 3), PixelSize(width: 3, height: 5), PixelSize(width: 7, height: 2),
                     PixelSize(width: 17, height: 9)] {
            let jpeg = try Self.madeJPEG(size: size, subsampling: TJSAMP_420)
            try assertRegionsMatch(jpeg, "made \(size)", randomRegions: 2, using: &rng)
        }
    }

    /// jpeg_skip_scanlines to every row offset within the first iMCU rows and the last ones, where
    /// 4:2:0's vertical upsampling needs the row above and below.
    func testEveryFirstRowAtFullSize() throws {
        let jpegs = try [TestFixtures.bytes(TestFixtures.image("landscape-1800x1195.jpg")),
                         TestFixtures.bytes(TestFixtures.image("progressive-960x1280.jpg")),
                         Self.madeJPEG(size: PixelSize(width: 610, height: 403), subsampling: TJSAMP_422)]
        for jpeg in jpegs {
            let full = try JPEGDecoder().decode(jpeg)
            let height = full.size.height, width = full.size.width
            for y in Array(0..<40) + Array((height - 20)..<height) {
                let x = (y * 37) % (width / 2)
                let rows = min(3, height - y)
                try assertRegion(jpeg, full: full, scale: .full, columns: x..<(x + width / 4), firstRow: y,
                                 rows: rows, chunks: [rows], "row \(y)")
            }
        }
    }

    /// A CMYK file's rows are converted, not decoded in place: no margins, and `readRowsInPlace`
    /// delivers what `readRows` does.
    func testCMYKReadInPlaceAsReadRows() throws {
        let cmyk = try TestFixtures.bytes(TestFixtures.path("Fixtures/hostile/cmyk.jpg"))
        let size = try JPEGRegionReader(jpeg: cmyk).decodedSize
        let columns = (size.width / 3)..<(size.width / 3 + size.width / 2)
        let (copied, placed) = (try JPEGRegionReader(jpeg: cmyk, columns: columns, firstRow: 5),
                                try JPEGRegionReader(jpeg: cmyk, columns: columns, firstRow: 5))
        XCTAssertEqual(placed.inPlaceMargins, .none)
        let stride = copied.width * 3, rows = min(20, size.height - 5)
        var (a, b) = ([UInt8](repeating: 0, count: stride * rows), [UInt8](repeating: 0, count: stride * rows))
        try a.withUnsafeMutableBufferPointer { try copied.readRows(into: $0.baseAddress!, stride: stride, count: rows) }
        try b.withUnsafeMutableBufferPointer { try placed.readRowsInPlace(into: $0.baseAddress!, stride: stride, count: rows) }
        XCTAssertEqual(a, b)
    }

    // MARK: - Errors

    func testNotAJPEG() {
        for bytes: [UInt8] in [[], [0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], [0xFF, 0xD9, 0x00]] {
            XCTAssertEqual(decodeError { _ = try JPEGRegionReader(jpeg: bytes) }, .notAJPEG)
        }
    }

    /// The hostile corpus's broken files fail with the message `JPEGDecoder` gives, at the latest
    /// when the last row is read.
    func testHostileFilesFailAsTheFullDecoderDoes() throws {
        // JPEGDecoder words this one itself (TurboJPEG reports 0 × 0); libjpeg's own message here.
        let truncatedHeader = try TestFixtures.bytes(TestFixtures.path("Fixtures/hostile/truncated-header.jpg"))
        XCTAssertEqual(decodeError { _ = try readAll(truncatedHeader) }, .corrupt("Premature end of JPEG file"))
        // cmyk.jpg was refused by both until CMYK support; now both decode it (CMYKDecodeTests).
        let cmyk = try TestFixtures.bytes(TestFixtures.path("Fixtures/hostile/cmyk.jpg"))
        XCTAssertEqual(try readAll(cmyk), try JPEGDecoder().decode(cmyk).pixels)
        for name in ["truncated-data.jpg", "corrupt-markers.jpg", "zero-width.jpg", "progressive-5000-scans.jpg"] {
            let jpeg = try TestFixtures.bytes(TestFixtures.path("Fixtures/hostile/\(name)"))
            let expected = decodeError { _ = try JPEGDecoder().decode(jpeg) }
            XCTAssertNotNil(expected, name)
            XCTAssertEqual(decodeError { _ = try readAll(jpeg) }, expected, name)
        }
        // libjpeg-turbo's 500-scan limit is lifted as in JPEGDecoder.
        let manyScans = try TestFixtures.bytes(TestFixtures.path("Fixtures/hostile/progressive-5000-scans.jpg"))
        XCTAssertEqual(try readAll(manyScans, allowManyScans: true),
                       try JPEGDecoder(allowManyScans: true).decode(manyScans).pixels)
    }

    func testTruncatedFileFailsWithLibjpegsMessage() throws {
        let whole = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let truncated = Array(whole.prefix(whole.count / 2))
        XCTAssertEqual(decodeError { _ = try readAll(truncated) }, .corrupt("Premature end of JPEG file"))
        XCTAssertEqual(decodeError { _ = try readAll(truncated, scale: DecodeScale(numerator: 2)!) },
                       .corrupt("Premature end of JPEG file"))
        // Tolerated, libjpeg fills the missing data in as TurboJPEG does.
        XCTAssertEqual(try readAll(truncated, tolerateWarnings: true),
                       try JPEGDecoder(tolerateWarnings: true).decode(truncated).pixels)
    }

    /// Intended: a baseline file is read no further than the last row asked for, so damage below
    /// it goes unnoticed (that is the saving), and the rows delivered are the intact file's.
    func testTopRowsOfAFileDamagedFurtherDownDecode() throws {
        let whole = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let truncated = Array(whole.prefix(whole.count / 2))
        let full = try JPEGDecoder().decode(whole)
        try assertRegion(truncated, full: full, scale: .full, columns: 100..<900, firstRow: 0, rows: 200,
                         chunks: [64, 136], "top of truncated file")
    }

    // MARK: - Writer

    /// Same bytes as `JPEGEncoder` (TurboJPEG) at 4:2:0 with the fast DCT, 4:4:4 with the fast DCT,
    /// and 4:4:4 with the accurate DCT, written in uneven batches of rows, from RGB rows and from
    /// RGBX rows (whose fourth bytes, here varied, are ignored).
    func testRowWriterWritesJPEGEncodersBytes() throws {
        let size = PixelSize(width: 593, height: 402)
        let rgb = try JPEGDecoder().decode(Self.madeJPEG(size: size, subsampling: TJSAMP_444)).pixels
        var rgba = RGBA8Image(size: size)
        for i in 0..<size.pixelCount {
            for c in 0..<3 { rgba.pixels[i * 4 + c] = rgb[i * 3 + c] }
            rgba.pixels[i * 4 + 3] = 255
        }
        var rgbx = rgba.pixels
        for i in 0..<size.pixelCount { rgbx[i * 4 + 3] = UInt8(truncatingIfNeeded: i &* 37) }
        for quality in [75, 92, 97] {
          for (bytesPerPixel, rows) in [(3, rgb), (4, rgbx)] {
            let writer = try JPEGRowWriter(size: size, quality: quality, bytesPerPixel: bytesPerPixel)
            let stride = size.width * bytesPerPixel
            try rows.withUnsafeBufferPointer { source in
                for (start, count) in [(0, 1), (1, 15), (16, 100), (116, 286)] {
                    try writer.write(rows: source.baseAddress! + start * stride, stride: stride, count: count)
                }
            }
            let written = try writer.finish()
            XCTAssertEqual(written, try JPEGEncoder.encode(rgba, quality: quality), "quality \(quality), \(bytesPerPixel) bytes a pixel")
            let decoded = try JPEGDecoder().decode(written)
            XCTAssertEqual(decoded.size, size)
            let worst = zip(decoded.pixels, rgb).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThan(worst, quality >= 90 ? 40 : 80, "quality \(quality)")
          }
        }
    }

    /// An opaque RGBA row goes to an RGBX writer as it is; a row with a pixel not opaque goes
    /// composited into the scratch row, each pixel as `compositeOverBlack` makes it for RGB.
    func testRowOverBlackPassesOpaqueRowsAndCompositesOthers() {
        let width = 37
        var row = (0..<(width * 4)).map { UInt8(truncatingIfNeeded: $0 &* 29) }
        for x in 0..<width { row[x * 4 + 3] = 255 }
        var scratch = [UInt8](repeating: 7, count: width * 4)
        let space = WorkingSpace.linear
        row.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { room in
                let out = JPEGEncoder.rowOverBlack(source.baseAddress!, count: width, scratch: room.baseAddress!,
                                                   working: space.fromByte, space: space)
                XCTAssertEqual(out, source.baseAddress!, "an opaque row is passed as it is")
            }
        }
        for alpha: UInt8 in [0, 1, 128, 200] {
            var partial = row
            partial[13 * 4 + 3] = alpha
            var rgb = [UInt8](repeating: 0, count: width * 3)
            partial.withUnsafeBufferPointer { source in
                rgb.withUnsafeMutableBufferPointer {
                    JPEGEncoder.compositeOverBlack(source.baseAddress!, count: width, into: $0.baseAddress!,
                                                   working: space.fromByte, space: space)
                }
                scratch.withUnsafeMutableBufferPointer { room in
                    let out = JPEGEncoder.rowOverBlack(source.baseAddress!, count: width, scratch: room.baseAddress!,
                                                       working: space.fromByte, space: space)
                    XCTAssertEqual(out, UnsafePointer(room.baseAddress!), "alpha \(alpha): composited into the scratch row")
                }
            }
            for x in 0..<width {
                XCTAssertEqual(Array(scratch[(x * 4)..<(x * 4 + 3)]), Array(rgb[(x * 3)..<(x * 3 + 3)]), "alpha \(alpha), pixel \(x)")
            }
            XCTAssertNotEqual(rgb[13 * 3..<13 * 3 + 3], partial[13 * 4..<13 * 4 + 3], "alpha \(alpha): the pixel is composited")
        }
    }

    func testRowWriterRefusesToFinishEarly() throws {
        let writer = try JPEGRowWriter(size: PixelSize(width: 16, height: 16), quality: 80)
        let row = [UInt8](repeating: 128, count: 16 * 3)
        try row.withUnsafeBufferPointer { try writer.write(rows: $0.baseAddress!, stride: 48, count: 1) }
        XCTAssertThrowsError(try writer.finish()) {
            XCTAssertEqual(($0 as? EncodeError)?.description, "JPEG encoding failed: not every row was written")
        }
    }

    // MARK: - Helpers

    /// `randomRegions` regions a scale, plus the narrowest ones at each edge, read in random batches.
    private func assertRegionsMatch(_ jpeg: [UInt8], _ name: String, randomRegions: Int,
                                    using rng: inout SplitMix64) throws {
        for scale in Self.scales {
            let full = try JPEGDecoder().decode(jpeg, scale: scale)
            let (width, height) = (full.size.width, full.size.height)
            // One iMCU at this scale for 4:2:0 (wider than any other subsampling's): region edges
            // on iMCU boundaries are where jpeg_crop_scanline cuts.
            let iMCU = 2 * scale.numerator
            var regions: [(Range<Int>, Int)] = [(0..<1, 0), ((width - 1)..<width, height - 1), ((width - 2)..<width, 0),
                                               (0..<width, height / 2), (iMCU..<(iMCU + 1), 1)]
            for i in 0..<randomRegions {
                var x = Int.random(in: 0..<width, using: &rng)
                if i % 2 == 0 { x = x / iMCU * iMCU }
                var end = Int.random(in: (x + 1)...width, using: &rng)
                if i % 3 == 0 { end = min(width, (end + iMCU - 1) / iMCU * iMCU) }
                regions.append((x..<end, Int.random(in: 0..<height, using: &rng)))
            }
            for (columns, firstRow) in regions where columns.lowerBound >= 0 && columns.upperBound <= width && firstRow < height {
                let rows = min(height - firstRow, Int.random(in: 1...64, using: &rng))
                let chunks = [Int.random(in: 1...rows, using: &rng)].flatMap { [$0, rows - $0] }
                try assertRegion(jpeg, full: full, scale: scale, columns: columns, firstRow: firstRow, rows: rows,
                                 chunks: chunks, "\(name) at \(scale)")
            }
        }
    }

    private func assertRegion(_ jpeg: [UInt8], full: RGB8Image, scale: DecodeScale, columns: Range<Int>,
                              firstRow: Int, rows: Int, chunks: [Int], _ context: String) throws {
        let what = "\(context): columns \(columns), rows \(firstRow)..<\(firstRow + rows)"
        let reader = try JPEGRegionReader(jpeg: jpeg, scale: scale, columns: columns, firstRow: firstRow)
        XCTAssertEqual(reader.decodedSize, full.size, what)
        XCTAssertLessThanOrEqual(reader.columnOffset, columns.lowerBound, what)
        XCTAssertGreaterThanOrEqual(reader.columnOffset + reader.width, columns.upperBound, what)
        let stride = reader.width * 3 + 5
        var delivered = [UInt8](repeating: 0, count: stride * rows)
        var row = 0
        for count in chunks where count > 0 {
            try delivered.withUnsafeMutableBufferPointer {
                try reader.readRows(into: $0.baseAddress! + row * stride, stride: stride, count: count)
            }
            row += count
        }
        XCTAssertEqual(row, rows)
        XCTAssertEqual(reader.nextRow, firstRow + rows, what)
        var mismatches = 0
        for r in 0..<rows {
            let fullRow = ((firstRow + r) * full.size.width) * 3
            let want = full.pixels[(fullRow + columns.lowerBound * 3)..<(fullRow + columns.upperBound * 3)]
            let start = r * stride + (columns.lowerBound - reader.columnOffset) * 3
            let got = delivered[start..<(start + columns.count * 3)]
            if !want.elementsEqual(got) { mismatches += 1 }
        }
        XCTAssertEqual(mismatches, 0, "\(what): rows differing from the full decode")
        try assertRegionInPlace(jpeg, full: full, scale: scale, columns: columns, firstRow: firstRow, rows: rows,
                                chunks: chunks, what)
    }

    /// The same region read in place (`readRowsInPlace`): libjpeg decodes into rows with room for
    /// the margins, delivers the full decode's bytes, and writes nothing past the margins (guard
    /// bytes before the first row and after each row keep their value).
    private func assertRegionInPlace(_ jpeg: [UInt8], full: RGB8Image, scale: DecodeScale, columns: Range<Int>,
                                     firstRow: Int, rows: Int, chunks: [Int], _ what: String) throws {
        let reader = try JPEGRegionReader(jpeg: jpeg, scale: scale, columns: columns, firstRow: firstRow)
        let margins = reader.inPlaceMargins
        XCTAssertGreaterThanOrEqual(margins.left, 0, what)
        XCTAssertGreaterThanOrEqual(margins.right, 0, what)
        // The margins are decoded columns of the image: they lie inside it.
        XCTAssertLessThanOrEqual(margins.left, reader.columnOffset, what)
        XCTAssertLessThanOrEqual(reader.columnOffset + reader.width + margins.right, full.size.width, what)
        if reader.columnOffset == 0, reader.width == full.size.width { XCTAssertEqual(margins, .none, what) }
        let canary: UInt8 = 0xA5, guardBytes = 7
        let rowBytes = (margins.left + reader.width + margins.right) * 3, stride = rowBytes + guardBytes
        var placed = [UInt8](repeating: canary, count: guardBytes + stride * rows)
        var row = 0
        for count in chunks where count > 0 {
            try placed.withUnsafeMutableBufferPointer {
                try reader.readRowsInPlace(into: $0.baseAddress! + guardBytes + row * stride + margins.left * 3, stride: stride,
                                           count: count)
            }
            row += count
        }
        var mismatches = 0, overwritten = placed[0..<guardBytes].filter { $0 != canary }.count
        for r in 0..<rows {
            let fullRow = ((firstRow + r) * full.size.width) * 3
            let want = full.pixels[(fullRow + columns.lowerBound * 3)..<(fullRow + columns.upperBound * 3)]
            let start = guardBytes + r * stride + (margins.left + columns.lowerBound - reader.columnOffset) * 3
            if !want.elementsEqual(placed[start..<(start + columns.count * 3)]) { mismatches += 1 }
            let rowEnd = guardBytes + r * stride + rowBytes
            overwritten += placed[rowEnd..<(rowEnd + guardBytes)].filter { $0 != canary }.count
        }
        XCTAssertEqual(mismatches, 0, "\(what): rows read in place differing from the full decode")
        XCTAssertEqual(overwritten, 0, "\(what): guard bytes written outside the rows and their margins")
    }

    private func readAll(_ jpeg: [UInt8], scale: DecodeScale = .full, tolerateWarnings: Bool = false,
                         allowManyScans: Bool = false) throws -> [UInt8] {
        let reader = try JPEGRegionReader(jpeg: jpeg, scale: scale, tolerateWarnings: tolerateWarnings,
                                          allowManyScans: allowManyScans)
        var pixels = [UInt8](repeating: 0, count: reader.decodedSize.pixelCount * 3)
        try pixels.withUnsafeMutableBufferPointer {
            try reader.readRows(into: $0.baseAddress!, stride: reader.width * 3, count: reader.decodedSize.height)
        }
        return pixels
    }

    private func decodeError(_ body: () throws -> Void) -> DecodeError? {
        do { try body(); return nil } catch { return error as? DecodeError }
    }

    /// Real pixels (the middle of Landscape_1.jpg) compressed by TurboJPEG at `subsampling`.
    static func madeJPEG(size: PixelSize, subsampling: TJSAMP) throws -> [UInt8] {
        let source = try JPEGDecoder().decode(TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg")))
        var rgb = [UInt8](repeating: 0, count: size.pixelCount * 3)
        let (left, top) = ((source.size.width - size.width) / 2, (source.size.height - size.height) / 2)
        for y in 0..<size.height {
            let from = ((top + y) * source.size.width + left) * 3
            rgb.replaceSubrange((y * size.width * 3)..<((y + 1) * size.width * 3),
                                with: source.pixels[from..<(from + size.width * 3)])
        }
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var length: UInt = 0
        defer { tjFree(buffer) }
        let status = tjCompress2(handle, rgb, Int32(size.width), 0, Int32(size.height), Int32(TJPF_RGB.rawValue),
                                 &buffer, &length, Int32(subsampling.rawValue), 88, 0)
        XCTAssertEqual(status, 0)
        return Array(UnsafeBufferPointer(start: try XCTUnwrap(buffer), count: Int(length)))
    }
}
