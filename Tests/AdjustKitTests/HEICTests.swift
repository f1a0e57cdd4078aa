@testable import AdjustKit
import CHeif
import Foundation
import XCTest

/// HEIC/HEIF originals: sniffing, the irot/imir composition, the box parser, real iPhone files,
/// and renders checked against libheif's own transformed decode (an independent reference: libheif
/// applies irot/imir itself; the renderer never sees that code path).
final class HEICTests: XCTestCase {
    static func heic(_ name: String) -> String { TestFixtures.path("Fixtures/heic/\(name)") }
    static let irot270 = heic("iphone-xr-irot270.heic")

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-heic")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    // MARK: - Sniffing and composition

    func testSniffsHEIFByContentNotName() throws {
        XCTAssertTrue(HEICDecoder.isHEIF(try TestFixtures.bytes(Self.irot270)))               // brand heic
        XCTAssertTrue(HEICDecoder.isHEIF(try TestFixtures.bytes(Self.heic("cheers-1440x960.heic"))))  // mif1
        XCTAssertFalse(HEICDecoder.isHEIF(try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))))
        XCTAssertFalse(HEICDecoder.isHEIF(Array("....ftypisom\0\0\0\0isomavc1".utf8)))          // an MP4
        XCTAssertFalse(HEICDecoder.isHEIF([]))
    }

    /// The composition written out by hand from ISO/IEC 23008-12 (irot: anti-clockwise quarter
    /// turns; imir mode 0: top↔bottom, 1: left↔right) and the EXIF definitions.
    func testTransformPropertiesComposeIntoEXIF() {
        typealias T = HEIFTransformProperties
        let cases: [([T.Step], Int)] = [
            ([], 1),
            ([.rotateAnticlockwise(quarterTurns: 0)], 1),
            ([.rotateAnticlockwise(quarterTurns: 1)], 8),   // 90° anti-clockwise
            ([.rotateAnticlockwise(quarterTurns: 2)], 3),
            ([.rotateAnticlockwise(quarterTurns: 3)], 6),   // 270° anti-clockwise = 90° clockwise
            ([.mirrorLeftRight], 2),
            ([.mirrorTopBottom], 4),
            // The order matters: a quarter turn anti-clockwise, (x, y) → (y, −x), then left↔right
            // gives (−y, −x), the transverse (7); mirrored first, (−x, y) → (y, x), the transpose (5).
            ([.rotateAnticlockwise(quarterTurns: 1), .mirrorLeftRight], 7),
            ([.mirrorLeftRight, .rotateAnticlockwise(quarterTurns: 1)], 5),
            ([.rotateAnticlockwise(quarterTurns: 3), .mirrorLeftRight], 5),
            ([.rotateAnticlockwise(quarterTurns: 3), .mirrorTopBottom], 7),
            ([.rotateAnticlockwise(quarterTurns: 1), .mirrorTopBottom], 5),
            ([.rotateAnticlockwise(quarterTurns: 2), .mirrorLeftRight], 4),
        ]
        for (steps, exif) in cases {
            XCTAssertEqual(T(steps: steps).exifOrientation, exif, "\(steps)")
        }
    }

    /// A hand-made meta box: ipma version 1 (32-bit item IDs), flags 1 (16-bit indices), item 7
    /// associated with irot 3 and imir mode 1 in that order, item 9 with imir mode 0 (in a box
    /// with a 64-bit size).
    func testParsesCraftedBoxes() {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + payload
        }
        func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt64(16 + payload.count)
            return [0, 0, 0, 1] + Array(type.utf8) + (0..<8).map { UInt8(size >> (56 - 8 * UInt64($0)) & 0xFF) } + payload
        }
        let ipco = box("ipco", box("free", [1, 2]) + box("irot", [3]) + box("imir", [1]) + largeBox("imir", [0]))
        let ipma = box("ipma", [1, 0, 0, 1] + [0, 0, 0, 2]
                        + [0, 0, 0, 9] + [1, 0x80, 4]                     // item 9: imir 0 (essential)
                        + [0, 0, 0, 7] + [3, 0x80, 2, 0x80, 3, 0x00, 1]) // item 7: irot, imir 1, free
        let meta = box("meta", [0, 0, 0, 0] + box("hdlr", [0, 0]) + box("iprp", ipco + ipma))
        let file = box("ftyp", Array("heic\0\0\0\0heic".utf8)) + meta

        let item7 = HEIFTransformProperties.read(in: file, itemID: 7)
        XCTAssertEqual(item7.steps, [.rotateAnticlockwise(quarterTurns: 3), .mirrorLeftRight])
        XCTAssertEqual(item7.exifOrientation, 5)
        XCTAssertEqual(HEIFTransformProperties.read(in: file, itemID: 9).steps, [.mirrorTopBottom])
        XCTAssertEqual(HEIFTransformProperties.read(in: file, itemID: 8), HEIFTransformProperties())
        // Every truncation of the file parses without trapping.
        for n in 0..<file.count { _ = HEIFTransformProperties.read(in: Array(file.prefix(n)), itemID: 7) }
    }

    // MARK: - All eight orientations, against libheif's own transformed decode

    /// Square, because libheif 1.15's encoder writes `ispe` as the turned size for orientations
    /// 5–8 (the coded image keeps its own): a non-square file from it has a wrong ispe. The pattern
    /// is asymmetric, so all eight orientations still differ; real non-square files with irot are
    /// covered by the iPhone sample below.
    func testEveryOrientationAgainstLibheif() throws {
        let (width, height) = (96, 96)
        for orientation in 1...8 {
            let file = path("o\(orientation).heic")
            try Self.encodeSynthetic(width: width, height: height, orientation: orientation, to: file)
            let bytes = try TestFixtures.bytes(file)
            let header = try HEICDecoder().header(of: bytes)
            XCTAssertEqual(header.size, PixelSize(width: width, height: height), "\(orientation)")
            XCTAssertEqual(header.orientation, orientation, "orientation \(orientation): \(header.transforms)")

            let stored = try HEICDecoder().decode(bytes)
            let oriented = GeometryOracle.orient(TestImage(width: width, height: height, channels: 3, pixels: stored.pixels),
                                                 orientation)
            let reference = try Self.libheifTransformedDecode(bytes)
            XCTAssertTrue(oriented == reference, "orientation \(orientation): stored frame + EXIF \(orientation) ≠ libheif's irot/imir")

            // And the whole render path: no edit, upright output.
            let edit = try PhotoEdit(imagePath: file)
            XCTAssertEqual(edit.plan.orientation.rawValue, orientation)
            let rendered = TestImage(try edit.render().image)
            XCTAssertTrue(rendered == Self.withOpaqueAlpha(reference), "render, orientation \(orientation)")
        }
    }

    /// irot/imir are normative: an EXIF Orientation that disagrees is overruled with one warning.
    func testEXIFOrientationDisagreeingWithIrotIsOverruled() throws {
        let file = path("disagree.heic")
        try Self.encodeSynthetic(width: 64, height: 64, orientation: 6, exifOrientation: 3, to: file)
        let header = try HEICDecoder().header(of: TestFixtures.bytes(file))
        XCTAssertEqual(header.metadata.exifOrientation, 3)
        XCTAssertEqual(header.orientation, 6)
        let edit = try PhotoEdit(imagePath: file)
        XCTAssertEqual(edit.plan.orientation, .rotate90Clockwise)
        let warning = "EXIF orientation 3 disagrees with the HEIF irot/imir properties (orientation 6); the properties win"
        XCTAssertEqual(edit.plan.warnings, [warning])
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", file, "-o", path("disagree.jpg")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: warning: \(file): \(warning)\nadjust: note: \(file): no edit found; written upright\n")
    }

    // MARK: - Real iPhone HEICs

    func testRealIPhoneHEIC() throws {
        let bytes = try TestFixtures.bytes(Self.irot270)
        let header = try HEICDecoder().header(of: bytes)
        XCTAssertEqual(header.size, PixelSize(width: 4032, height: 3024))
        XCTAssertEqual(header.transforms.steps, [.rotateAnticlockwise(quarterTurns: 3)])
        XCTAssertEqual(header.orientation, 6)
        XCTAssertEqual(header.metadata.exifOrientation, 6)
        XCTAssertEqual(header.notes, [], "EXIF 6 agrees with irot 270")
        let icc = try XCTUnwrap(header.metadata.iccProfile)
        XCTAssertTrue(Self.contains(icc, "Display P3".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
                      || Self.contains(icc, Array("Display P3".utf8)), "Display P3 profile description")
        let exif = try XCTUnwrap(header.metadata.exif)
        XCTAssertTrue(exif.starts(with: Array("Exif\0\0MM".utf8)) || exif.starts(with: Array("Exif\0\0II".utf8)))
        XCTAssertTrue(Self.contains(exif, Array("iPhone XR".utf8)))

        let small = try HEICDecoder().header(of: TestFixtures.bytes(Self.heic("cheers-1440x960.heic")))
        XCTAssertEqual(small.size, PixelSize(width: 1440, height: 960))
        XCTAssertEqual(small.orientation, 1)
        XCTAssertNil(small.metadata.exif)
        XCTAssertEqual(try HEICDecoder().decode(TestFixtures.bytes(Self.heic("cheers-1440x960.heic"))).size, small.size)
    }

    func testSizeLimitsFromTheHandle() throws {
        let bytes = try TestFixtures.bytes(Self.irot270)
        XCTAssertThrowsError(try HEICDecoder(maxSide: 4000).header(of: bytes)) { error in
            // libheif's own limit (set to maxSide) or ours: either way before any tile is decoded.
            XCTAssertTrue("\(error)".contains("4032") || "\(error)".contains("limit"), "\(error)")
        }
        XCTAssertThrowsError(try HEICDecoder(maxSide: 16_384, maxPixels: 12_000_000).header(of: bytes)) { error in
            XCTAssertEqual(error as? HEICError, .tooLarge(PixelSize(width: 4032, height: 3024), maxSide: 16_384,
                                                          maxPixels: 12_000_000))
        }
    }

    /// A crop on the irot-270 iPhone photo, given in the stored frame as an edit is: the output
    /// must equal the same rectangle cut from libheif's upright decode, pixel for pixel.
    func testCropWithIrotAgainstLibheifReference() throws {
        let reference = try Self.libheifTransformedDecode(TestFixtures.bytes(Self.irot270))   // 3024×4032 upright
        XCTAssertEqual([reference.width, reference.height], [3024, 4032])
        // Displayed rectangle (x', y', w', h') = (100, 200, 1000, 1500). Orientation 6 shows stored
        // pixel (u, v) = (y', H − 1 − x') at displayed (x', y'), so the stored rectangle is
        // u ∈ [200, 1700), v ∈ [3024 − 1100, 3024 − 100) = (200, 1924, 1500, 1000).
        let edit = path("crop.xmp"), out = path("crop.png")
        let made = try BinaryRun.run(CLITests.binary, ["xmp", "--image-size", "4032x3024", "--crop", "200,1924,1500,1000",
                                                       "-o", edit])
        XCTAssertEqual(made.status, 0, made.stderr)
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", Self.irot270, "--xmp", edit, "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let rendered = try ImageComparator.load(out).image
        XCTAssertEqual([rendered.size.width, rendered.size.height], [1000, 1500])
        let expected = Self.withOpaqueAlpha(Self.cut(reference, x: 100, y: 200, width: 1000, height: 1500))
        XCTAssertTrue(TestImage(rendered) == expected, "pixel copies identical")
    }

    /// `--max-size` on a HEIC: decoded whole, area-resampled; matches the area-downsampled upright
    /// reference.
    func testMaxSizeOnHEIC() throws {
        let edit = try PhotoEdit(imagePath: Self.irot270, size: .maxSize(512))
        XCTAssertEqual(edit.plan.decodeScale, .full)
        XCTAssertTrue(edit.plan.needsResample)
        XCTAssertEqual(edit.plan.orientedSize, PixelSize(width: 384, height: 512))
        let rendered = TestImage(try edit.render().image)
        let reference = try Self.libheifTransformedDecode(TestFixtures.bytes(Self.irot270))
        let expected = Self.withOpaqueAlpha(ImageMetrics.areaDownsample(reference, width: 384, height: 512))
        XCTAssertGreaterThan(ImageMetrics.psnr(rendered, expected), 50, "area shrink of the upright decode")

        let scaled = try PhotoEdit(imagePath: Self.irot270, size: .scale(DecodeScale(numerator: 2)!))
        XCTAssertEqual(scaled.plan.decodeScale, .full)
        XCTAssertEqual(scaled.plan.orientedSize, PixelSize(width: 756, height: 1008))
    }

    /// A JPEG written from a HEIC carries its EXIF (orientation 1 now), and its ICC profile byte
    /// for byte (checked with exiftool too).
    func testMetadataCarriedToJPEG() throws {
        let out = path("carried.jpg")
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", Self.irot270, "--max-size", "600", "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        let jpeg = try TestFixtures.bytes(out)
        XCTAssertEqual(ExifOrientation.value(inJPEG: jpeg), 1)
        let header = try HEICDecoder().header(of: TestFixtures.bytes(Self.irot270))
        let iccSignature = Array("ICC_PROFILE\0".utf8) + [1, 1]
        XCTAssertTrue(Self.contains(jpeg, iccSignature + header.metadata.iccProfile!), "the ICC profile, unchanged")
        let exiftool = try BinaryRun.run("/usr/bin/exiftool", ["-s3", "-ProfileDescription", "-Model", "-Orientation#",
                                                               "-ImageSize", out])
        XCTAssertEqual(exiftool.stdout, "Display P3\niPhone XR\n1\n450x600\n")
    }

    func testBatchCountsHEIC() throws {
        let input = scratch.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"),
                                         toPath: input.appendingPathComponent("IMG_0001.JPG").path)
        try FileManager.default.copyItem(atPath: Self.heic("cheers-1440x960.heic"),
                                         toPath: input.appendingPathComponent("IMG_0002.HEIC").path)
        let run = try BinaryRun.run(CLITests.binary, ["batch", input.path, "--out", path("out"), "--json",
                                                      "--max-size", "200"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let records = run.stdout.split(separator: "\n")
        XCTAssertEqual(records.count, 3, run.stdout)   // two photos and the summary
        XCTAssertTrue(records.contains { $0.contains("IMG_0002.HEIC") && $0.contains("\"no-edit\"") }, run.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/IMG_0002.jpg")))
        let output = try JPEGDecoder().header(of: TestFixtures.bytes(path("out/IMG_0002.jpg")))
        XCTAssertEqual(output.size, PixelSize(width: 200, height: 133))
    }

    func testCompareAcceptsHEIC() throws {
        let png = path("stored.png")
        let stored = try HEICDecoder().decode(TestFixtures.bytes(Self.heic("cheers-1440x960.heic")))
        try AtomicFileWriter.write(try PNGCodec.encode(RGBA8Image(size: stored.size,
            pixels: TestImage(width: stored.size.width, height: stored.size.height, channels: 3,
                              pixels: stored.pixels).rgbaPixels)), to: png)
        let run = try BinaryRun.run(CLITests.binary, ["compare", Self.heic("cheers-1440x960.heic"), png, "--max-diff", "0"])
        XCTAssertEqual(run.status, 0, run.stderr + run.stdout)
    }

    /// A HEIC through the fused streaming renderer (rows copied out of libheif's raster) against
    /// the whole-image reference pipeline, for a straighten + crop at full size and under
    /// `--max-size` (the fused shrink's encoding table may move a value by 1).
    func testFusedRenderOfHEICMatchesTheReferencePipeline() throws {
        let xmp = path("straighten.xmp")
        let made = try BinaryRun.run(CLITests.binary, ["xmp", "--image-size", "1440x960", "--straighten", "3",
                                                       "--crop", "100,80,1200,800", "--vibrance", "0.3", "-o", xmp])
        XCTAssertEqual(made.status, 0, made.stderr)
        for size in [SizeRequest.full, .maxSize(300), .scale(DecodeScale(numerator: 3)!)] {
            let edit = try PhotoEdit(imagePath: Self.heic("cheers-1440x960.heic"), editPath: xmp, size: size)
            let program = try ColourProgram(chain: edit.plan.rescaledChain, options: edit.renderer.colour)
            let reference = try edit.renderer.renderReference(edit.plan, original: edit.original, program: program).image
            let fused = try edit.render().image
            XCTAssertEqual(fused.size, reference.size, "\(size)")
            let diff = ImageMetrics.differences(TestImage(fused), TestImage(reference))
            XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 99, edit.plan.needsResample ? 1 : 0, "\(size): \(diff)")
        }
    }

    /// A red-eye chain on a HEIC through the fused renderer (the repairs run on the rows copied
    /// out of libheif's raster) against the reference pipeline, bit for bit without a shrink.
    func testFusedRedEyeOnHEICMatchesTheReferencePipeline() throws {
        let image = Self.heic("cheers-1440x960.heic")
        let stored = try Renderer().heicDecoder.withDecodedRows(try TestFixtures.bytes(image)) { rows, _ in rows.copied() }
        let redEye = try FusedRendererTests.redEyeEdit(stored)
        let xmp = path("red-eye.xmp")
        try EditChain(redEye: redEye, vibrance: Vibrance(amount: 0.3)).adjustmentXMP()
            .write(toFile: xmp, atomically: true, encoding: .utf8)
        for size in [SizeRequest.full, .maxSize(300), .scale(DecodeScale(numerator: 3)!)] {
            try FusedRendererTests.assertFusedMatchesReference(image, editPath: xmp, size: size, space: .linear,
                                                               label: "HEIC red-eye \(size)")
        }
    }

    // MARK: - Helpers

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func withOpaqueAlpha(_ image: TestImage) -> TestImage {
        TestImage(width: image.width, height: image.height, channels: 4, pixels: image.rgbaPixels)
    }

    static func cut(_ image: TestImage, x: Int, y: Int, width: Int, height: Int) -> TestImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * image.channels)
        for row in y..<(y + height) {
            let start = (row * image.width + x) * image.channels
            pixels += image.pixels[start..<(start + width * image.channels)]
        }
        return TestImage(width: width, height: height, channels: image.channels, pixels: pixels)
    }

    /// libheif's default decode, which applies irot/imir itself: the reference.
    static func libheifTransformedDecode(_ bytes: [UInt8]) throws -> TestImage {
        let context = heif_context_alloc()!
        defer { heif_context_free(context) }
        _ = bytes.withUnsafeBytes { heif_context_read_from_memory(context, $0.baseAddress, $0.count, nil) }
        var handle: OpaquePointer?
        guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else {
            throw XCTSkip("libheif cannot open the file")
        }
        defer { heif_image_handle_release(handle) }
        var image: OpaquePointer?
        let status = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
        guard status.code == heif_error_Ok, let image else { throw XCTSkip("libheif cannot decode the file") }
        defer { heif_image_release(image) }
        let (w, h) = (Int(heif_image_get_width(image, heif_channel_interleaved)),
                      Int(heif_image_get_height(image, heif_channel_interleaved)))
        var stride: Int32 = 0
        let base = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride)!
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h { for i in 0..<(w * 3) { pixels[y * w * 3 + i] = base[y * Int(stride) + i] } }
        return TestImage(width: w, height: h, channels: 3, pixels: pixels)
    }

    /// A `width`×`height` HEIC (HEVC 4:4:4, so no chroma resampling differs between decodes)
    /// whose irot/imir libheif's encoder writes for EXIF `orientation`; an asymmetric pattern.
    static func encodeSynthetic(width: Int, height: Int, orientation: Int, exifOrientation: UInt8? = nil,
                                to path: String) throws {
        let context = heif_context_alloc()!
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        guard heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder).code == heif_error_Ok,
              let encoder else { throw XCTSkip("this libheif has no HEVC encoder") }
        defer { heif_encoder_release(encoder) }
        _ = heif_encoder_set_lossy_quality(encoder, 95)
        _ = heif_encoder_set_parameter_string(encoder, "chroma", "444")
        var image: OpaquePointer?
        XCTAssertEqual(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, heif_chroma_interleaved_RGB,
                                         &image).code, heif_error_Ok)
        defer { heif_image_release(image) }
        XCTAssertEqual(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8).code,
                       heif_error_Ok)
        var stride: Int32 = 0
        let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride)!
        for y in 0..<height {
            for x in 0..<width {
                let p = plane + y * Int(stride) + x * 3
                // A bright block in the top-left corner, gradients elsewhere: every turn and flip differs.
                let corner = x < width / 4 && y < height / 3
                p[0] = corner ? 250 : UInt8(x * 255 / width)
                p[1] = corner ? 240 : UInt8(y * 255 / height)
                p[2] = UInt8((x + 2 * y) % 256)
            }
        }
        let options = heif_encoding_options_alloc()!
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        var handle: OpaquePointer?
        XCTAssertEqual(heif_context_encode_image(context, image, encoder, options, &handle).code, heif_error_Ok)
        defer { heif_image_handle_release(handle) }
        if let exifOrientation {
            // Big-endian TIFF: header, IFD0 at 8 with one entry, Orientation (0x0112) SHORT 1.
            let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
                                                    0, exifOrientation, 0, 0, 0, 0, 0, 0]
            XCTAssertEqual(heif_context_add_exif_metadata(context, handle, tiff, Int32(tiff.count)).code, heif_error_Ok)
        }
        XCTAssertEqual(heif_context_write_to_file(context, path).code, heif_error_Ok)
    }
}

extension TestImage {
    /// RGB pixels with alpha 255 added (RGBA pixels unchanged).
    var rgbaPixels: [UInt8] {
        guard channels == 3 else { return pixels }
        var out = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            out[i * 4] = pixels[i * 3]; out[i * 4 + 1] = pixels[i * 3 + 1]; out[i * 4 + 2] = pixels[i * 3 + 2]
        }
        return out
    }
}
