@testable import AdjustKit
import Foundation
import XCTest

/// A HEIC decoded by region, tile row by tile row (libheif 1.19's tile API, `HEICTileRows`):
/// the same bytes as the whole-image decode, only the tiles the region touches, one tile row
/// held at a time, and a broken file still refused.
final class HEICTileTests: XCTestCase {
    static let bench = TestFixtures.path("Fixtures/bench/iphone8-4032x3024.heic")
    /// Every HEIC fixture with real photo content: a small non-grid image, an iPhone XR grid with
    /// irot 270, the iPhone 8 bench photo, an iPhone portrait (640×896 tiles, auxiliary images)
    /// and the photo library's HEIC.
    static let fixtures = [
        "Fixtures/heic/cheers-1440x960.heic",
        "Fixtures/heic/iphone-xr-irot270.heic",
        "Fixtures/bench/iphone8-4032x3024.heic",
        "Fixtures/apple-renders/portrait-heic/IMG_3582.HEIC",
        "Fixtures/photos-library/Test-10.15.7.photoslibrary/originals/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266.heic",
    ].map(TestFixtures.path)

    override func setUpWithError() throws {
        let small = try TestFixtures.bytes(TestFixtures.path("Fixtures/heic/cheers-1440x960.heic"))
        guard try HEICDecoder().openTiles(small) != nil else { throw XCTSkip("libheif without the tile API") }
    }

    /// An edit cutting `region` (stored frame, y down) out of an image `height` pixels high: the
    /// AdjustmentXMP affine moves the region's lower-left corner (Core Image, y up) to the origin.
    static func crop(_ region: PixelRect, height: Int, turn: AffineMap = .identity) -> EditChain {
        let move = AffineMap.translation(Double(-region.x), Double(-(height - region.y - region.height)))
        return EditChain(affine: move.concatenating(after: turn),
                         crop: Crop(x: 0, y: 0, width: Double(region.width), height: Double(region.height)))
    }

    /// Crops at tile boundaries, inside one tile and across tile corners, a straighten, previews
    /// and the whole image, on every fixture (its own orientation applied): the tile path's pixels
    /// equal the whole-image path's, byte for byte.
    func testTileDecodeIdenticalToWholeImageDecode() throws {
        for path in Self.fixtures {
            let original = try OriginalImage(path: path)
            guard case .heic(_, let header) = original, let tiling = header.tiling else {
                return XCTFail("\(path): not a HEIC with a tile grid")
            }
            let (size, tile) = (header.size, tiling.tileSize)
            let (tw, th) = (min(tile.width, size.width / 2), min(tile.height, size.height / 2))
            var cases: [(String, EditChain, SizeRequest, PixelRect?)] = [
                ("whole", EditChain(), .full, nil),
                ("preview 1024", EditChain(), .maxSize(1024), nil),
                ("preview 300", EditChain(), .maxSize(300), nil),
            ]
            let regions: [(String, PixelRect)] = [
                // The planner reads one pixel around an integer crop (the sampling taps): this
                // crop's source region is exactly two tiles' columns and one tile's rows.
                ("tile boundaries", PixelRect(x: tw + 1, y: th + 1, width: min(2 * tw, size.width - tw) - 2, height: th - 2)),
                ("inside a tile", PixelRect(x: tw + 37, y: th + 11, width: 101, height: 57)),
                ("across tile corners", PixelRect(x: tw - 13, y: th - 7, width: min(tw + 30, size.width - tw + 13),
                                                  height: min(th + 20, size.height - th + 7))),
                ("last column and row", PixelRect(x: size.width - 300, y: size.height - 200, width: 300, height: 200)),
            ]
            for (label, region) in regions {
                cases.append((label, Self.crop(region, height: size.height), .full, region))
            }
            let straighten = Self.crop(PixelRect(x: size.width / 8, y: size.height / 8, width: size.width * 3 / 4,
                                                 height: size.height * 3 / 4), height: size.height,
                                       turn: .rotation(radians: 3 * .pi / 180))
            cases.append(("straighten 3°", straighten, .full, nil))
            cases.append(("straighten 3° → 512", straighten, .maxSize(512), nil))
            for (label, chain, request, region) in cases {
                let plan = try RenderPlanner().plan(storedSize: size, exifOrientation: header.orientation, chain: chain,
                                                    size: request, scaledDecode: false)
                if let region {
                    let x0 = max(0, region.x - 1), y0 = max(0, region.y - 1)
                    let grown = PixelRect(x: x0, y: y0, width: min(size.width, region.x + region.width + 1) - x0,
                                          height: min(size.height, region.y + region.height + 1) - y0)
                    XCTAssertEqual(plan.sourceRegion, grown, "\(path) \(label): the region meant, and a pixel around")
                }
                var whole = Renderer()
                whole.heicByTile = false
                let byTile = try Renderer().render(plan, original: original).image
                let reference = try whole.render(plan, original: original).image
                XCTAssertEqual(byTile.size, reference.size, "\(path) \(label)")
                XCTAssertTrue(byTile.pixels == reference.pixels, "\(path) \(label): tile decode ≠ whole-image decode")
            }
        }
    }

    /// The same from the bytes in memory (the library's `OriginalImage(bytes:)`; a path is read
    /// from its file as libheif asks), through the JPEG encoder: the bench crop's file is the
    /// whole-image path's, byte for byte.
    func testEncodedCropFromMemoryIdenticalToWholeImageDecode() throws {
        let original = try OriginalImage(bytes: TestFixtures.bytes(Self.bench))
        guard case .heic(let source, let header) = original else { return XCTFail("not a HEIC") }
        XCTAssertNotNil(source.inMemory)
        let region = PixelRect(x: 200, y: 300, width: 1500, height: 1200)
        let plan = try RenderPlanner().plan(storedSize: header.size, exifOrientation: 1,
                                            chain: Self.crop(region, height: header.size.height), size: .full,
                                            scaledDecode: false)
        var whole = Renderer()
        whole.heicByTile = false
        let byTile = try Renderer().renderEncoded(plan, original: original, format: .jpeg, quality: 90)
        let reference = try whole.renderEncoded(plan, original: original, format: .jpeg, quality: 90)
        XCTAssertEqual(byTile.bytes, reference.bytes)
    }

    /// A crop decodes the tiles its region touches and no other: 1500×1200 at (200, 300) of the
    /// bench photo's 8 × 6 grid of 512² tiles is columns 0–3, rows 0–2, 12 of 48; `adjust
    /// inspect` says as much for the bench's 2400×1800 crop (source region 2402×1802 at (299, 199):
    /// columns 0–5, rows 0–3).
    func testOnlyTheTouchedTilesAreDecoded() throws {
        let source = try XCTUnwrap(HEICDecoder().openTiles(TestFixtures.bytes(Self.bench)))
        XCTAssertEqual(source.tiling, HEICTiling(columns: 8, rows: 6, tileSize: PixelSize(width: 512, height: 512),
                                                 imageSize: PixelSize(width: 4032, height: 3024)))
        let region = PixelRect(x: 200, y: 300, width: 1500, height: 1200)
        let rows = source.rows(region: region)
        var buffer = [UInt8](repeating: 0, count: region.width * 3 * 100)
        var read = 0
        while read < region.height {
            let count = min(100, region.height - read)
            try buffer.withUnsafeMutableBufferPointer { try rows.readRows(into: $0.baseAddress!, stride: region.width * 3, count: count) }
            read += count
        }
        XCTAssertEqual(rows.tilesDecoded, 12)
        XCTAssertEqual(rows.tileRowsDecoded, 3)
        XCTAssertEqual(source.tiling.tileCount(touching: region), 12)
        XCTAssertEqual(HEICTiling.decodeSummary(source.tiling, region: region, libheif: LibheifVersion(major: 1, minor: 19, patch: 7)),
                       "12 of 48 tiles (libheif 1.19.7 tile API)")
        XCTAssertEqual(HEICTiling.decodeSummary(nil, region: region, libheif: LibheifVersion(major: 1, minor: 17, patch: 6)),
                       "whole image (libheif 1.17.6 without the tile API)")

        // A region inside one tile: one tile; on a tile's edges: no neighbour.
        for (region, tiles) in [(PixelRect(x: 600, y: 700, width: 100, height: 80), 1),
                                (PixelRect(x: 512, y: 512, width: 512, height: 512), 1),
                                (PixelRect(x: 511, y: 511, width: 2, height: 2), 4)] {
            let rows = source.rows(region: region)
            var buffer = [UInt8](repeating: 0, count: region.width * 3 * region.height)
            try buffer.withUnsafeMutableBufferPointer { try rows.readRows(into: $0.baseAddress!, stride: region.width * 3, count: region.height) }
            XCTAssertEqual(rows.tilesDecoded, tiles, "\(region)")
        }

        let inspect = try BinaryRun.run(CLITests.binary, ["inspect", Self.bench, "--edit",
                                                          TestFixtures.path("Fixtures/bench/crop-12mp.xmp")])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains("HEIC decode:     24 of 48 tiles (libheif "), inspect.stdout)
    }

    /// The decoded pixels held at once are three tile rows' tiles of the region at most (the row
    /// read and the next two, decoding ahead), never the image: a crop's 3 × 4 tiles, a
    /// whole-width read (a preview) 3 × 8 of the 48 the whole-image decode holds; a region within
    /// one tile row holds that row alone.
    func testAtMostThreeTileRowsHeld() throws {
        let source = try XCTUnwrap(HEICDecoder(decodingThreads: 2).openTiles(TestFixtures.bytes(Self.bench)))
        let image = source.tiling.imageSize
        let tile = source.tiling.tileSize.pixelCount
        for (region, held) in [(PixelRect(x: 200, y: 300, width: 1500, height: 1200), 3 * 4 * tile),
                               (PixelRect(x: 0, y: 0, width: image.width, height: image.height), 3 * 8 * tile),
                               (PixelRect(x: 0, y: 520, width: image.width, height: 400), 8 * tile)] {
            let rows = source.rows(region: region)
            var buffer = [UInt8](repeating: 0, count: region.width * 3 * 32)
            var read = 0
            while read < region.height {
                let count = min(32, region.height - read)
                try buffer.withUnsafeMutableBufferPointer { try rows.readRows(into: $0.baseAddress!, stride: region.width * 3, count: count) }
                read += count
            }
            XCTAssertEqual(rows.peakHeldPixels, held, "\(region)")
            XCTAssertLessThan(rows.peakHeldPixels, image.pixelCount, "\(region): three tile rows, not the image")
        }
    }

    /// Given one decoding thread (a render among several, `batch -j`), a render does not decode
    /// ahead: it holds one tile row at a time, and reads the same bytes.
    func testOneThreadHoldsOneTileRow() throws {
        let bytes = try TestFixtures.bytes(Self.bench)
        let ahead = try XCTUnwrap(HEICDecoder(decodingThreads: 2).openTiles(bytes))
        let single = try XCTUnwrap(HEICDecoder(decodingThreads: 1).openTiles(bytes))
        let size = single.tiling.imageSize
        let region = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        var pixels: [[UInt8]] = []
        var held: [Int] = []
        for source in [ahead, single] {
            let rows = source.rows(region: region)
            var image = [UInt8](repeating: 0, count: size.pixelCount * 3)
            try image.withUnsafeMutableBufferPointer { try rows.readRows(into: $0.baseAddress!, stride: size.width * 3, count: size.height) }
            pixels.append(image)
            held.append(rows.peakHeldPixels)
        }
        let tileRow = 8 * single.tiling.tileSize.pixelCount
        XCTAssertEqual(held, [3 * tileRow, tileRow])
        XCTAssertTrue(pixels[0] == pixels[1], "one thread decodes other pixels")
    }

    /// A portrait's first tile rows start decoding before the render reads any (while its depth
    /// image decodes, `HEICTileSource.decodeAhead`): asked for that region, the source hands over
    /// the reader with its first three tile rows queued, which reads the same bytes and holds
    /// three tile rows at most, as a fresh reader does. Asked for another region, or with one
    /// decoding thread, it makes a fresh reader and nothing was queued ahead.
    func testDecodingAheadHandsOverTheStartedReader() throws {
        let bytes = try TestFixtures.bytes(Self.bench)
        let size = try XCTUnwrap(HEICDecoder().openTiles(bytes)).tiling.imageSize
        let whole = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        let tileRow = 8 * 512 * 512
        func read(_ rows: HEICTileRows) throws -> [UInt8] {
            var image = [UInt8](repeating: 0, count: rows.region.width * rows.region.height * 3)
            try image.withUnsafeMutableBufferPointer {
                try rows.readRows(into: $0.baseAddress!, stride: rows.region.width * 3, count: rows.region.height)
            }
            return image
        }

        let ahead = try XCTUnwrap(HEICDecoder(decodingThreads: 2).openTiles(bytes))
        ahead.decodeAhead(region: whole)
        let started = ahead.rows(region: whole)
        XCTAssertEqual(started.tileRowsQueued, 3, "the first three tile rows queued before the first read")
        let fresh = try XCTUnwrap(HEICDecoder(decodingThreads: 2).openTiles(bytes)).rows(region: whole)
        XCTAssertEqual(fresh.tileRowsQueued, 0)
        XCTAssertTrue(try read(started) == read(fresh), "the reader started ahead reads other pixels")
        XCTAssertEqual(started.peakHeldPixels, 3 * tileRow)
        XCTAssertEqual(started.tileRowsDecoded, 6)
        XCTAssertEqual(ahead.rows(region: whole).tileRowsQueued, 0, "handed over once")

        let crop = PixelRect(x: 200, y: 300, width: 1500, height: 1200)
        ahead.decodeAhead(region: whole)
        XCTAssertEqual(ahead.rows(region: crop).tileRowsQueued, 0, "another region gets a fresh reader")
        let single = try XCTUnwrap(HEICDecoder(decodingThreads: 1).openTiles(bytes))
        single.decodeAhead(region: whole)
        XCTAssertEqual(single.rows(region: whole).tileRowsQueued, 0, "one thread decodes nothing ahead")
    }

    /// A HEIC cut short in its tile data is refused with one line (exit 65), no output written,
    /// when the render needs the missing tiles; libheif's strict decoding never fills them grey.
    func testTruncatedTileDataRefusedWithOneLine() throws {
        let scratch = try ScratchFolder.make("adjust-heic-tiles")
        defer { ScratchFolder.remove(scratch) }
        let bytes = try TestFixtures.bytes(Self.bench)
        let cut = scratch.appendingPathComponent("cut.heic").path, out = scratch.appendingPathComponent("out.jpg").path
        try Data(bytes.prefix(bytes.count * 9 / 10)).write(to: URL(fileURLWithPath: cut))
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", cut, "-o", out])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("adjust: error: \(cut): HEIF image data cannot be decoded: "), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2, "one line: \(run.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["cut.heic"], "no temporary file")

        // The library call says the same, through the tile rows.
        let original = try OriginalImage(bytes: Array(bytes.prefix(bytes.count * 9 / 10)))
        guard case .heic(_, let header) = original else { return XCTFail("not a HEIC") }
        let plan = try RenderPlanner().plan(storedSize: header.size, exifOrientation: 1, chain: EditChain(), size: .maxSize(1024),
                                            scaledDecode: false)
        XCTAssertThrowsError(try Renderer().render(plan, original: original)) { error in
            guard case .decodeFailed = error as? HEICError else { return XCTFail("\(error)") }
        }
    }
}
