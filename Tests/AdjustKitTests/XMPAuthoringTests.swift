import AdjustKit
import Foundation
import XCTest

/// `adjust xmp`: packets authored from flags read back to the intended chain and render as iOS's.
final class XMPAuthoringTests: XCTestCase {
    typealias Run = BinaryRun

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-xmp")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: CLITests.binary), "build the adjust product first")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func adjust(_ arguments: [String]) throws -> Run {
        try BinaryRun.run(CLITests.binary, arguments, in: scratch)
    }

    private func adjust(_ arguments: String...) throws -> Run { try adjust(arguments) }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// Runs `adjust xmp ARGS`, writes its stdout to a file, and reads the chain back.
    private func authored(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> (chain: EditChain, path: String) {
        let run = try adjust(["xmp"] + arguments)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        let out = path("authored-\(UUID()).xmp")
        try Data(run.stdout.utf8).write(to: URL(fileURLWithPath: out))
        let loaded = try EditSource().load(editFile: out)
        XCTAssertEqual(loaded.warnings.count, 0, "\(loaded.warnings)", file: file, line: line)
        return (loaded.chain, out)
    }

    func testCropReproducesTheIOS5Payload() throws {
        let run = try adjust("xmp", "--crop", "331,355,1938,1420", "--image-size", "2592x1936")
        XCTAssertEqual(run.status, 0, run.stderr)
        for property in ["<aas:AffineA>1</aas:AffineA>", "<aas:AffineB>0</aas:AffineB>",
                         "<aas:AffineC>0</aas:AffineC>", "<aas:AffineD>1</aas:AffineD>",
                         "<aas:AffineX>-331</aas:AffineX>", "<aas:AffineY>-161</aas:AffineY>",
                         "<aas:CropX>0</aas:CropX>", "<aas:CropY>0</aas:CropY>",
                         "<aas:CropW>1938</aas:CropW>", "<aas:CropH>1420</aas:CropH>"] {
            XCTAssertTrue(run.stdout.contains(property), "missing \(property) in\n\(run.stdout)")
        }
        let (chain, _) = try authored("--crop", "331,355,1938,1420", "--image-size", "2592x1936")
        XCTAssertEqual(chain, try TestFixtures.chain("ios5-crop.xmp"))
        XCTAssertEqual(chain.affine, .translation(-331, -161))
        XCTAssertEqual(chain.crop, Crop(x: 0, y: 0, width: 1938, height: 1420))
    }

    func testAuthoredCropRendersLikeTheIOS5Payload() throws {
        let xmp = path("crop.xmp")
        XCTAssertEqual(try adjust("xmp", "--crop", "331,355,1938,1420", "--image-size", "2592x1936", "-o", xmp).status, 0)
        let image = TestFixtures.image("iphone4s-2592x1936.jpg")
        let ours = path("ours.png"), theirs = path("theirs.png")
        let r1 = try adjust("render", "--xmp", xmp, image, "-o", ours, "--scale", "1/2")
        let r2 = try adjust("render", "--xmp", TestFixtures.xmp("ios5-crop.xmp"), image, "-o", theirs, "--scale", "1/2")
        XCTAssertEqual(r1.status, 0, r1.stderr)
        XCTAssertEqual(r2.status, 0, r2.stderr)
        let a = try PNGCodec.decode(TestFixtures.bytes(ours)), b = try PNGCodec.decode(TestFixtures.bytes(theirs))
        XCTAssertEqual(a.size, PixelSize(width: 710, height: 969))
        XCTAssertEqual(a, b)
        let compare = try adjust("compare", ours, theirs, "--max-diff", "0")
        XCTAssertEqual(compare.status, 0, compare.stderr)
        XCTAssertTrue(compare.stdout.contains("PSNR: inf"), compare.stdout)
    }

    func testEveryFlagRoundTrips() throws {
        let (chain, file) = try authored(
            "--vibrance", "0.35", "--shadows", "0.3", "--highlights", "0.75",
            "--curve", "0,0.02,0.25,0.22,0.5,0.53,0.75,0.8,1,1", "--exposure", "0.7", "--effect", "chrome",
            "--crop", "200,0,1200,800", "--image-size", "1800x950")
        var expected = EditChain()
        expected.vibrance = Vibrance(amount: 0.35)
        expected.highlightShadow = HighlightShadow(shadows: 0.3, highlights: 0.75)
        expected.toneCurve = ToneCurve(points: [Point(x: 0, y: 0.02), Point(x: 0.25, y: 0.22), Point(x: 0.5, y: 0.53),
                                                Point(x: 0.75, y: 0.8), Point(x: 1, y: 1)])
        expected.affine = .translation(-200, -150)
        expected.crop = Crop(x: 0, y: 0, width: 1200, height: 800)
        expected.serializedFilters = [SerializedFilter(name: "CIExposureAdjust", parameters: [.init(key: "EV", value: .number(0.7))]),
                                      SerializedFilter(name: "CIPhotoEffectChrome")]
        XCTAssertEqual(chain, expected)

        let inspect = try adjust("inspect", "--xmp", file, "--image-size", "1800x950", "--json")
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        for name in ["CIVibrance", "CIHighlightShadowAdjust", "CIToneCurve", "CIAffineTransform", "CICrop",
                     "CIExposureAdjust", "CIPhotoEffectChrome"] {
            XCTAssertTrue(inspect.stdout.contains(name), "inspect lacks \(name)")
        }
    }

    func testOutputFileIsWritten() throws {
        let out = path("edit.xmp")
        let run = try adjust("xmp", "--vibrance", "0.5", "-o", out)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(try EditSource().load(editFile: out).chain, EditChain(vibrance: Vibrance(amount: 0.5)))
        let unwritable = try adjust("xmp", "--vibrance", "0.5", "-o", path("no/such/dir/edit.xmp"))
        XCTAssertEqual(unwritable.status, 73)
        XCTAssertEqual(unwritable.stderr.split(separator: "\n").count, 1, unwritable.stderr)
    }

    func testEffectNames() throws {
        for effect in PhotoEffect.allCases {
            let short = String(effect.rawValue.dropFirst("CIPhotoEffect".count)).lowercased()
            XCTAssertEqual(try authored("--effect", short).chain.serializedFilters, [SerializedFilter(name: effect.rawValue)])
            XCTAssertEqual(try authored("--effect", effect.rawValue).chain.serializedFilters,
                           [SerializedFilter(name: effect.rawValue)])
        }
        XCTAssertEqual(try authored("--effect", "Noir").chain.serializedFilters, [SerializedFilter(name: "CIPhotoEffectNoir")])
        XCTAssertEqual(try adjust("xmp", "--effect", "sepia").status, 64)
    }

    func testStraightenTurnsAboutTheCentreAndKeepsNoTransparentCorners() throws {
        let (chain, file) = try authored("--straighten", "3", "--image-size", "1800x1195")
        let affine = try XCTUnwrap(chain.affine), crop = try XCTUnwrap(chain.crop)
        XCTAssertEqual(affine.a, cos(3 * .pi / 180), accuracy: 1e-5)
        XCTAssertEqual(affine.b, sin(3 * .pi / 180), accuracy: 1e-5)
        XCTAssertEqual(crop.rect.x, 0); XCTAssertEqual(crop.rect.y, 0)
        XCTAssertEqual(crop.rect.width / crop.rect.height, 1800.0 / 1195, accuracy: 0.002, "same aspect")
        XCTAssertLessThan(crop.rect.width, 1800)
        // The image's centre lands on the kept rectangle's centre.
        let centre = affine.apply(Point(x: 900, y: 597.5))
        XCTAssertEqual(centre.x, crop.rect.width / 2, accuracy: 0.01)
        XCTAssertEqual(centre.y, crop.rect.height / 2, accuracy: 0.01)
        // Every output corner maps back inside the image, so the render is opaque throughout.
        let inverse = try XCTUnwrap(affine.inverted)
        for corner in crop.rect.corners {
            let p = inverse.apply(corner)
            XCTAssertTrue((0...1800).contains(p.x) && (0...1195).contains(p.y), "\(p)")
        }
        let out = path("straight.png")
        let render = try adjust("render", "--xmp", file, TestFixtures.image("landscape-1800x1195.jpg"), "-o", out)
        XCTAssertEqual(render.status, 0, render.stderr)
        let rendered = try PNGCodec.decode(TestFixtures.bytes(out))
        XCTAssertEqual(rendered.size, PixelSize(width: Int(crop.rect.width), height: Int(crop.rect.height)))
        XCTAssertTrue(rendered.isOpaque, "no transparent corners")

        // With a crop: turned about the crop's centre, the crop's size kept when it fits.
        let (cropped, _) = try authored("--straighten", "-2", "--crop", "400,300,800,500", "--image-size", "1800x1195")
        XCTAssertEqual(cropped.crop, Crop(x: 0, y: 0, width: 800, height: 500))
        let c = try XCTUnwrap(cropped.affine).apply(Point(x: 800, y: 1195 - 300 - 250))
        XCTAssertEqual(c.x, 400, accuracy: 0.01)
        XCTAssertEqual(c.y, 250, accuracy: 0.01)
    }

    func testInvalidValuesAreUsageErrors() throws {
        let cases: [[String]] = [
            [],
            ["--vibrance", "1.5"], ["--vibrance", "nan"], ["--vibrance", "inf"],
            ["--shadows", "-1.01"], ["--highlights", "-0.1"], ["--highlights", "1.1"],
            ["--curve", "0,0,0.5,0.5,1,1"], ["--curve", "0,0,0.25,0.2,0.25,0.5,0.75,0.8,1,1"],
            ["--curve", "0,0,0.25,1.2,0.5,0.5,0.75,0.8,1,1"], ["--curve", "0,0,0.25,x,0.5,0.5,0.75,0.8,1,1"],
            ["--crop", "0,0,10,10"], ["--crop", "0,0,10", "--image-size", "100x100"],
            ["--crop", "95,0,10,10", "--image-size", "100x100"], ["--crop", "0,0,0,10", "--image-size", "100x100"],
            ["--crop", "-1,0,10,10", "--image-size", "100x100"], ["--crop", "0,0,10,10", "--image-size", "100"],
            ["--straighten", "3"], ["--straighten", "46", "--image-size", "100x100"],
            ["--exposure", "nan"], ["--exposure", "11"],
        ]
        for arguments in cases {
            let run = try adjust(["xmp"] + arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stdout, "", "\(arguments)")
        }
    }
}
