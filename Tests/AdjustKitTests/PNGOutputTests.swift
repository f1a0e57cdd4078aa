@testable import AdjustKit
import Foundation
import XCTest

/// PNG output written row by row through libpng (`PNGRowWriter`, `Renderer.renderPNG`): the
/// same pixels as the whole-raster encoder (`PNGCodec.encode` of `render()`), the same colour
/// type rule (RGB when every pixel is opaque), the same chunks, a valid file, and no file at
/// all when writing fails.
final class PNGOutputTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws { scratch = try ScratchFolder.make("png-output") }
    override func tearDown() { ScratchFolder.remove(scratch) }

    private func output(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    // MARK: - Pixels and colour type against the raster path

    /// Streams `edit` to memory and to a file, and checks both against the raster path: the same
    /// decoded pixels and colour type as `PNGCodec.encode(render().image)`, and the file the same
    /// bytes as `write(renderEncoded(.png))` (one encoder, one order of chunks). Returns the file.
    @discardableResult
    private func assertStreamMatchesRaster(_ edit: PhotoEdit, _ label: String, rgba: Bool?,
                                           line: UInt = #line) throws -> String {
        let label = label.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" }.reduce("") { $0 + String($1) }
        let raster = try edit.render().image
        let reference = try PNGCodec.encode(raster)
        let streamed = try edit.renderEncoded(format: .png)
        XCTAssertEqual(Self.colourType(streamed.bytes), Self.colourType(reference), "\(label): colour type", line: line)
        if let rgba { XCTAssertEqual(Self.colourType(streamed.bytes), rgba ? 6 : 2, "\(label): RGBA or RGB", line: line) }
        let (got, expected) = (try PNGCodec.decode(streamed.bytes), try PNGCodec.decode(reference))
        XCTAssertEqual(got.size, expected.size, label, line: line)
        XCTAssertTrue(got.pixels == expected.pixels, "\(label): \(Self.differingPixels(got, expected)) pixels differ", line: line)

        let path = output("\(label).png")
        let written = try edit.renderAndWritePNG(to: path, compression: .default, metadata: MetadataOptions())
        XCTAssertTrue(written.rendering.bytes.isEmpty, "the file's bytes are not held")
        XCTAssertEqual(written.rendering.size, expected.size, label, line: line)
        let inMemory = output("\(label)-memory.png")
        try edit.write(streamed, to: inMemory)
        XCTAssertTrue(try TestFixtures.bytes(path) == TestFixtures.bytes(inMemory), "\(label): file and memory differ", line: line)
        try assertPNGCheckPasses(path, line: line)
        return path
    }

    func testAnUprightOpaqueOutputStreamsRGBWithTheRastersPixels() throws {
        for (xmp, size) in [(nil, SizeRequest.full), ("translate-crop.xmp", .full), ("straighten-3deg.xmp", .full),
                            ("straighten-3deg.xmp", .maxSize(500)), ("seed-example.xmp", .scale(DecodeScale(numerator: 3)!))] {
            let image = xmp == "seed-example.xmp" ? "canon-a85.jpg" : "Landscape_1.jpg"
            let edit = try PhotoEdit(imagePath: TestFixtures.image(image), editPath: xmp.map(TestFixtures.xmp), size: size)
            XCTAssertTrue(edit.plan.isOpaqueForCertain, "\(xmp ?? "no edit") promises opacity")
            try assertStreamMatchesRaster(edit, "\(xmp ?? "unedited")-\(size)", rgba: false)
        }
    }

    func testTransparentCornersStreamRGBAWithTheRastersPixels() throws {
        // Straightened 3° with no crop: the rotated photo's bounding box, its corners clear.
        let (s, c) = (sin(3 * Double.pi / 180), cos(3 * Double.pi / 180))
        let xmp = output("straighten-uncropped.xmp")
        try EditXMP.affine(a: c, b: s, c: -s, d: c).write(toFile: xmp, atomically: true, encoding: .utf8)
        for size in [SizeRequest.full, .maxSize(700)] {
            let edit = try PhotoEdit(imagePath: TestFixtures.image("Landscape_1.jpg"), editPath: xmp, size: size)
            XCTAssertFalse(edit.plan.isOpaqueForCertain)
            XCTAssertFalse(try edit.render().image.isOpaque, "the corners are clear")
            try assertStreamMatchesRaster(edit, "straighten-uncropped-\(size)", rgba: true)
        }
        // A fractional crop: partly covered edge pixels.
        let fractional = try PhotoEdit(imagePath: TestFixtures.image("Landscape_1.jpg"), editPath: TestFixtures.xmp("fractional-crop.xmp"))
        try assertStreamMatchesRaster(fractional, "fractional-crop", rgba: true)
    }

    func testOrientation6IsWrittenOrientedFromTheRaster() throws {
        for (image, xmp) in [("Landscape_6.jpg", nil), ("iphone4s-2592x1936.jpg", "ios5-crop.xmp"), ("Landscape_6.jpg", "straighten-3deg.xmp")] {
            let edit = try PhotoEdit(imagePath: TestFixtures.image(image), editPath: xmp.map(TestFixtures.xmp))
            XCTAssertEqual(edit.plan.orientation, .rotate90Clockwise)
            // The straighten's crop was made for the upright frame: on the stored one it reaches out.
            let path = try assertStreamMatchesRaster(edit, "\(image)-\(xmp ?? "unedited")", rgba: xmp == "straighten-3deg.xmp" ? nil : false)
            let size = try PNGCodec.decode(TestFixtures.bytes(path)).size
            XCTAssertEqual(size, edit.plan.orientedSize)
            XCTAssertEqual(size, PixelSize(width: edit.plan.outputSize.height, height: edit.plan.outputSize.width), "turned")
        }
        // Transparent corners on a rotated output: RGBA, oriented.
        let (s, c) = (sin(3 * Double.pi / 180), cos(3 * Double.pi / 180))
        let xmp = output("straighten-uncropped.xmp")
        try EditXMP.affine(a: c, b: s, c: -s, d: c).write(toFile: xmp, atomically: true, encoding: .utf8)
        try assertStreamMatchesRaster(try PhotoEdit(imagePath: TestFixtures.image("Landscape_6.jpg"), editPath: xmp),
                                      "orientation-6-uncropped", rgba: true)
    }

    /// A crop 0.0015 px inside the pixel grid: edge coverage 0.9985, too little for the plan to
    /// promise opacity (0.999), enough for every alpha to round to 255. The stream starts RGBA,
    /// finds every pixel opaque, and writes the file again RGB, as the raster path decides.
    func testAnOutputThePlanCannotPromiseOpaqueIsStillRGBWhenOpaque() throws {
        let xmp = output("nearly-whole-crop.xmp")
        try EditXMP.crop(x: 100.0015, y: 200, w: 599.997, h: 400).write(toFile: xmp, atomically: true, encoding: .utf8)
        let edit = try PhotoEdit(imagePath: TestFixtures.image("Landscape_1.jpg"), editPath: xmp)
        XCTAssertFalse(edit.plan.isOpaqueForCertain, "the plan cannot promise opacity")
        XCTAssertTrue(try edit.render().image.isOpaque, "yet every pixel is opaque")
        try assertStreamMatchesRaster(edit, "nearly-whole-crop", rgba: false)
    }

    /// A first pass of the wrong colour type is abandoned at the first pixel that is not opaque
    /// (RGB) or at the end (RGBA, every pixel opaque); the second pass writes the file over, in
    /// memory and in the output's temporary file alike.
    func testAFirstPassOfTheWrongColourTypeIsWrittenAgain() throws {
        let (s, c) = (sin(3 * Double.pi / 180), cos(3 * Double.pi / 180))
        let xmp = output("straighten-uncropped.xmp")
        try EditXMP.affine(a: c, b: s, c: -s, d: c).write(toFile: xmp, atomically: true, encoding: .utf8)
        for (edit, startsRGB, rgba) in [(try PhotoEdit(imagePath: TestFixtures.image("Landscape_1.jpg"), editPath: xmp), true, true),
                                        (try PhotoEdit(imagePath: TestFixtures.image("Landscape_1.jpg")), false, false)] {
            var forced = edit
            forced.renderer.pngFirstPassIsRGB = startsRGB
            try assertStreamMatchesRaster(forced, "first-pass-\(startsRGB ? "rgb" : "rgba")", rgba: rgba)
        }
    }

    /// The promise is never broken: wherever the plan promises opacity, the render is opaque.
    /// Across the geometry catalogue, at full size and reduced, it is made exactly where it holds.
    func testThePlansOpacityPromiseHoldsOnEveryGeometryCase() throws {
        for geometry in GeometryCase.all {
            for size in [SizeRequest.full, .maxSize(300)] {
                let edit = try PhotoEdit(imagePath: TestFixtures.image(geometry.image),
                                         editPath: geometry.xmp.map(TestFixtures.xmp), size: size)
                let opaque = try edit.render().image.isOpaque
                XCTAssertEqual(edit.plan.isOpaqueForCertain, opaque, "\(geometry.name) at \(size)")
            }
        }
    }

    // MARK: - The file

    func testTheFileCarriesTheRastersChunksAndPassesPNGCheck() throws {
        // An iPhone JPEG: EXIF, no profile: IHDR, eXIf, sRGB, then the image.
        let edit = try PhotoEdit(imagePath: TestFixtures.image("iphone4s-2592x1936.jpg"), editPath: TestFixtures.xmp("ios5-crop.xmp"),
                                 size: .maxSize(400))
        let path = output("chunks.png")
        try edit.renderAndWritePNG(to: path, compression: .default, metadata: MetadataOptions())
        let types = try Self.chunkTypes(TestFixtures.bytes(path))
        XCTAssertEqual(Array(types.prefix(4)), ["IHDR", "eXIf", "sRGB", "IDAT"])
        XCTAssertEqual(types.last, "IEND")
        try assertPNGCheckPasses(path)
    }

    func testTheCompressionLevelChangesTheBytesNeverThePixels() throws {
        let edit = try PhotoEdit(imagePath: TestFixtures.image("Landscape_1.jpg"), editPath: TestFixtures.xmp("translate-crop.xmp"))
        let expected = try PNGCodec.decode(PNGCodec.encode(edit.render().image))
        var sizes: [Int] = []
        for level in [0, 1, 9] {
            let path = output("level-\(level).png")
            try edit.renderAndWritePNG(to: path, compression: try XCTUnwrap(PNGCompression(level: level)), metadata: MetadataOptions())
            let bytes = try TestFixtures.bytes(path)
            XCTAssertTrue(try PNGCodec.decode(bytes).pixels == expected.pixels, "level \(level)")
            sizes.append(bytes.count)
            try assertPNGCheckPasses(path)
        }
        // Level 0 stores; 9 is not always smaller than 1 (deflate's lazy matching over Up-filtered
        // rows), but never the same bytes.
        XCTAssertGreaterThan(sizes[0], max(sizes[1], sizes[2]), "level 0 stores")
        XCTAssertNotEqual(sizes[1], sizes[2])
        XCTAssertNil(PNGCompression(level: 10))
        XCTAssertNil(PNGCompression(level: -1))
    }

    // MARK: - The command line

    func testABadPNGCompressionExits64WithOneLineAndWritesNothing() throws {
        let image = TestFixtures.image("Landscape_1.jpg")
        for value in ["10", "-1", "fast"] {
            let out = output("bad-\(value).png")
            let render = try BinaryRun.run(CLITests.binary, ["render", image, "--unedited", "render", "-o", out, "--png-compression=\(value)"])
            XCTAssertEqual(render.status, 64, render.stderr)
            let first = render.stderr.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertTrue(first.hasPrefix("Error: ") && first.contains("--png-compression"), "one line naming the option: \(render.stderr)")
            if value != "fast" { XCTAssertEqual(first, "Error: --png-compression must be 0–9, got \(value)") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))

            let folder = output("batch-\(value)")
            let batch = try BinaryRun.run(CLITests.binary, ["batch", image, "--out", folder, "--format", "png", "--png-compression=\(value)"])
            XCTAssertEqual(batch.status, 64, batch.stderr)
            XCTAssertTrue(batch.stderr.hasPrefix("Error: ") && batch.stderr.contains("--png-compression"), batch.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "nothing written")
        }
        let help = try BinaryRun.run(CLITests.binary, ["render", "--help"]).stdout
        XCTAssertTrue(help.contains("--png-compression"), "render --help documents --png-compression")
    }

    func testTheCompressionFlagReachesTheFile() throws {
        let image = TestFixtures.image("Landscape_1.jpg")
        var sizes: [Int] = []
        for level in ["1", "9"] {
            let out = output("cli-\(level).png")
            let run = try BinaryRun.run(CLITests.binary, ["render", image, "--unedited", "render", "-o", out, "--png-compression", level])
            XCTAssertEqual(run.status, 0, run.stderr)
            sizes.append(try TestFixtures.bytes(out).count)
        }
        XCTAssertGreaterThan(sizes[0], sizes[1])
        let folder = output("batch")
        let batch = try BinaryRun.run(CLITests.binary, ["batch", image, "--out", folder, "--format", "png", "--unedited", "render",
                                                        "--png-compression", "1"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertEqual(try TestFixtures.bytes(folder + "/Landscape_1.png").count, sizes[0] + (try Self.provenanceChunkBytes(folder + "/Landscape_1.png")))
    }

    /// A write that fails half way (the file-size limit: write(2) says EFBIG) leaves neither
    /// the output nor a temporary file, and an existing output as it was; the error is one line
    /// naming the output, exit 73.
    func testAFailingWriteLeavesNoPartialFile() throws {
        let image = TestFixtures.image("Landscape_1.jpg")
        let out = output("limited.png")
        // SIGXFSZ ignored (kept through exec), so that the write fails rather than the process.
        let script = "trap '' XFSZ; ulimit -f 64; exec \"$0\" render \"$1\" --unedited render -o \"$2\""
        let run = try BinaryRun.run("/bin/sh", ["-c", script, CLITests.binary, image, out])
        XCTAssertEqual(run.status, 73, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains(out) && run.stderr.contains("cannot write"), run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "no file, no temporary file")

        // An existing output is left untouched.
        let existing: [UInt8] = Array("an earlier output".utf8)
        try Data(existing).write(to: URL(fileURLWithPath: out))
        let again = try BinaryRun.run("/bin/sh", ["-c", script, CLITests.binary, image, out])
        XCTAssertEqual(again.status, 73, again.stderr)
        XCTAssertEqual(try TestFixtures.bytes(out), existing)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["limited.png"])
    }

    // MARK: - Helpers

    /// IHDR's colour type: 2 RGB, 6 RGBA.
    private static func colourType(_ png: [UInt8]) -> UInt8 { png.count > 25 ? png[25] : 0 }

    private static func differingPixels(_ a: RGBA8Image, _ b: RGBA8Image) -> Int {
        guard a.pixels.count == b.pixels.count else { return -1 }
        return stride(from: 0, to: a.pixels.count, by: 4).count { a.pixels[$0..<($0 + 4)] != b.pixels[$0..<($0 + 4)] }
    }

    /// Every chunk's type, in order.
    private static func chunkTypes(_ png: [UInt8]) throws -> [String] {
        var (types, position) = ([String](), 8)
        while position + 12 <= png.count {
            let length = png[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self))
            position += 12 + length
        }
        XCTAssertEqual(position, png.count, "chunks end at the file's end")
        return types
    }

    /// The bytes of a batch output's provenance iTXt chunk (length, type, data, CRC).
    private static func provenanceChunkBytes(_ path: String) throws -> Int {
        let png = try TestFixtures.bytes(path)
        var position = 8
        while position + 12 <= png.count {
            let length = png[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self) == "iTXt" { return 12 + length }
            position += 12 + length
        }
        return 0
    }

    private func assertPNGCheckPasses(_ path: String, line: UInt = #line) throws {
        // Installed by the README's set-up: a missing tool fails here, it is not skipped.
        let pngcheck = try XCTUnwrap(["/usr/bin/pngcheck", "/usr/local/bin/pngcheck"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }, "pngcheck is not installed (README set-up)")
        let check = try BinaryRun.run(pngcheck, [path])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr, line: line)
    }
}
