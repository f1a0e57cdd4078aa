@testable import AdjustKit
import XCTest

/// A grey picture's chroma at half resolution (`JPEGChroma`): the same pixels as the 4:4:4 file
/// from every decoder's point of view (checked here with libjpeg's), a frame header that says 2×2,
/// and a program that says grey only where its last colour step makes greys and nothing after it
/// colours them (`ColourProgram.leavesGrey`).
final class JPEGChromaTests: XCTestCase {
    /// Every grey code, then seeded random greys, in a size whose MCUs are cut short both ways.
    private static func greyImage(colourAt colour: Int? = nil) -> RGBA8Image {
        let size = PixelSize(width: 67, height: 35)
        var random = SplitMix64(seed: 7)
        var pixels = [UInt8]()
        for i in 0..<size.pixelCount {
            let v = i < 256 ? UInt8(i) : UInt8(truncatingIfNeeded: random.next())
            pixels += i == colour ? [v, v &+ 40, v] : [v, v, v]
            pixels.append(255)
        }
        return RGBA8Image(size: size, pixels: pixels)
    }

    /// The luma component's sampling factors in the baseline frame header (SOF0), 0x11 or 0x22.
    private static func lumaSampling(_ jpeg: [UInt8]) -> UInt8? {
        var i = 2
        while i + 4 < jpeg.count, jpeg[i] == 0xFF {
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if jpeg[i + 1] == 0xC0 { return jpeg[i + 11] }
            i += 2 + length
        }
        return nil
    }

    func testGreyPicturesAtHalfChromaDecodeToThePixelsOfFullChroma() throws {
        let image = Self.greyImage()
        for quality in [90, 95, 100] {
            let full = try JPEGEncoder.encode(image, quality: quality)
            let half = try JPEGEncoder.encode(image, quality: quality, greyPicture: true)
            XCTAssertEqual(Self.lumaSampling(full), 0x11, "quality \(quality)")
            XCTAssertEqual(Self.lumaSampling(half), 0x22, "quality \(quality)")
            XCTAssertLessThan(half.count, full.count, "quality \(quality)")
            XCTAssertEqual(try JPEGDecoder().decode(half), try JPEGDecoder().decode(full), "quality \(quality)")
        }
        // Below quality 90 the chroma is at half resolution anyway: the same file.
        XCTAssertEqual(try JPEGEncoder.encode(image, quality: 80, greyPicture: true), try JPEGEncoder.encode(image, quality: 80))
    }

    /// What the comparison above would catch: one coloured pixel, sampled at half resolution,
    /// decodes to other pixels than at full.
    func testAColouredPixelAtHalfChromaDecodesOtherwise() throws {
        let image = Self.greyImage(colourAt: 1000)
        let full = try JPEGDecoder().decode(try JPEGEncoder.encode(image, quality: 95))
        let half = try JPEGDecoder().decode(try JPEGEncoder.encode(image, quality: 95, greyPicture: true))
        XCTAssertNotEqual(half, full)
    }

    /// The row writer and the striped encoder make their choice alike with the whole-image encoder.
    func testEveryEncoderSamplesAGreyPictureAlike() throws {
        let image = Self.greyImage(), size = image.size
        let whole = try JPEGEncoder.encode(image, quality: 90, greyPicture: true)
        let writer = try JPEGRowWriter(size: size, quality: 90, greyPicture: true, bytesPerPixel: 4)
        try image.pixels.withUnsafeBufferPointer { try writer.write(rows: $0.baseAddress!, stride: size.width * 4, count: size.height) }
        XCTAssertEqual(try writer.finish(), whole)
        let striped = try image.pixels.withUnsafeBufferPointer { pixels in
            try StripedJPEGEncoder.encode(size: size, quality: 90, greyPicture: true, stripes: 2) { row, _ in
                pixels.baseAddress! + row * size.width * 4
            }
        }
        XCTAssertEqual(Self.lumaSampling(striped), 0x22)
        XCTAssertEqual(try JPEGDecoder().decode(striped), try JPEGDecoder().decode(whole))
    }

    func testAProgramLeavesGreyWhenItsLastColourStepMakesGrey() throws {
        func leavesGrey(_ filters: [any EditFilter]) throws -> Bool {
            try ColourProgram(chain: EditChain(filters), options: ColourOptions()).leavesGrey
        }
        let bw = SmartBlackAndWhite(hue: 0.3)
        let straighten = AffineMap(a: 0.99863, b: -0.052336, c: 0.052336, d: 0.99863, tx: -40, ty: 60)
        XCTAssertTrue(try leavesGrey([bw]))
        XCTAssertTrue(try leavesGrey([SmartColor(color: 0.6), bw]))
        XCTAssertTrue(try leavesGrey([SmartColor(color: 0.6), bw, straighten, Crop(x: 10, y: 10, width: 300, height: 200)]))
        XCTAssertTrue(try ColourProgram(chain: EditChain([bw]), options: ColourOptions(workingSpace: .srgb)).leavesGrey)
        XCTAssertFalse(try leavesGrey([]))
        XCTAssertFalse(try leavesGrey([SmartColor(color: 0.6)]))
        // The chain is in application order (`EditChain`), whatever the order listed: SmartColor
        // runs before B&W.
        XCTAssertTrue(try leavesGrey([bw, SmartColor(color: 0.6)]))
        // Steps after B&W that do not say they keep greys: Sharpen (a neighbourhood), a vignette
        // (its place in the output), an iOS 7 effect (the output frame).
        XCTAssertFalse(try leavesGrey([bw, Sharpen(intensity: 0.5)]))
        XCTAssertFalse(try leavesGrey([bw, Vignette(intensity: 0.8)]))
        XCTAssertFalse(try leavesGrey([SerializedFilter(name: PhotoEffect.chrome.rawValue), bw]))
        // Noir's table holds only greys, Chrome's does not.
        let noir = SerializedFilter(name: PhotoEffect.noir.rawValue)
        XCTAssertTrue(try leavesGrey([noir]))
        XCTAssertTrue(try leavesGrey([noir, SmartColor(color: 0.6)]))
        XCTAssertFalse(try leavesGrey([SerializedFilter(name: PhotoEffect.chrome.rawValue)]))
        XCTAssertFalse(try leavesGrey([noir, SerializedFilter(name: PhotoEffect.chrome.rawValue)]))
    }

    /// Rendered and encoded, upright and turned, with a straighten's transparent corners and a
    /// shrink: the file is 4:2:0, every pixel grey, and decodes to the pixels of the render's
    /// raster encoded at full chroma. (A debug build also checks each row as it is encoded.)
    func testARenderOfAGreyProgramIsEncodedAtHalfChroma() throws {
        let straighten = AffineMap(a: 0.99863, b: -0.052336, c: 0.052336, d: 0.99863, tx: -40, ty: 60)
        let chain = EditChain([SmartColor(color: 0.6), SmartBlackAndWhite(hue: 0.3), straighten])
        for (name, size) in [("Landscape_1.jpg", SizeRequest.full), ("Landscape_6.jpg", .full), ("Landscape_1.jpg", .maxSize(300))] {
            let jpeg = try TestFixtures.bytes(TestFixtures.image(name))
            let stored = try JPEGDecoder().decode(jpeg).size
            let plan = try RenderPlanner().plan(storedSize: stored, exifOrientation: ExifOrientation.value(inJPEG: jpeg),
                                                chain: chain, size: size)
            let renderer = Renderer()
            let file = try renderer.renderEncoded(plan, jpeg: jpeg, format: .jpeg, quality: 90).bytes
            let raster = try renderer.render(plan, original: .jpeg(OriginalBytes(jpeg)))
            XCTAssertTrue(raster.isGrey, name)
            XCTAssertEqual(Self.lumaSampling(file), 0x22, "\(name) \(size)")
            let decoded = try JPEGDecoder().decode(file)
            let pixels = decoded.pixels
            var coloured = 0
            for i in stride(from: 0, to: pixels.count, by: 3) where pixels[i] != pixels[i + 1] || pixels[i + 1] != pixels[i + 2] {
                coloured += 1
            }
            XCTAssertEqual(coloured, 0, "\(name) \(size): pixels not grey")
            let fullChroma = try JPEGEncoder.encode(raster.image, quality: 90, compositingIn: raster.workingSpace)
            XCTAssertEqual(decoded, try JPEGDecoder().decode(fullChroma), "\(name) \(size)")
        }
    }
}
