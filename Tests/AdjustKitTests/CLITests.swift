import AdjustKit
import Foundation
import XCTest

/// The built `adjust` binary, end to end: stdout, stderr, exit codes, files.
final class CLITests: XCTestCase {
    typealias Run = BinaryRun

    static var binary: String {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("adjust").path
    }

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-cli")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.binary), "build the adjust product first")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func adjust(_ arguments: String...) throws -> Run { try adjust(arguments) }

    private func adjust(_ arguments: [String]) throws -> Run {
        try BinaryRun.run(Self.binary, arguments, in: scratch)
    }

    private func output(_ name: String) -> String { scratch.appendingPathComponent(name).path }
    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The failure contract: one line on stderr naming `file` and saying `problem`, `status`,
    /// and nothing at the output path.
    private func assertFails(_ run: Run, status: Int32, file: String, problem: String, noFile out: String?,
                             line: UInt = #line) {
        XCTAssertEqual(run.status, status, run.stderr, line: line)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "exactly one line: \(run.stderr)", line: line)
        XCTAssertTrue(run.stderr.hasPrefix("adjust: error: \(file): "), run.stderr, line: line)
        if !problem.isEmpty {
            XCTAssertTrue(run.stderr.contains(problem), "expected '\(problem)' in: \(run.stderr)", line: line)
        }
        if let out {
            XCTAssertFalse(exists(out), "no output file on failure", line: line)
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
            XCTAssertEqual(leftovers.filter { $0.hasPrefix(".") }, [], "no temporary files left", line: line)
        }
    }

    // MARK: - Success

    func testRenderWritesTheEditedJPEG() throws {
        let out = output("ios5.jpg")
        let run = try adjust("render", "--xmp", TestFixtures.xmp("ios5-crop.xmp"),
                             TestFixtures.image("iphone4s-2592x1936.jpg"), "-o", out, "--scale", "1/4")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let bytes = try TestFixtures.bytes(out)
        XCTAssertEqual(Array(bytes.prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual(try AdjustKitHeader.size(bytes), [355, 485])   // 1420 × 1938 portrait / 4
    }

    func testRenderFindsASidecarAndDefaultsTheOutputName() throws {
        let image = scratch.appendingPathComponent("IMG_0001.jpg").path
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: image)
        try FileManager.default.copyItem(atPath: TestFixtures.xmp("translate-crop.xmp"),
                                         toPath: scratch.appendingPathComponent("IMG_0001.XMP").path)
        let run = try adjust("render", image, "--format", "png")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try AdjustKitHeader.size(TestFixtures.bytes(output("IMG_0001-edited.png"))), [640, 410])
    }

    /// One-letter names, as the user types them in the photo's folder: the photo `p` (no
    /// extension) with its sidecar `p.XMP`, written to the default name, and to `-o q` with
    /// --format (Foundation's `deletingLastPathComponent` traps on a one-character path on Linux).
    func testRenderTakesOneLetterNames() throws {
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: output("p"))
        try FileManager.default.copyItem(atPath: TestFixtures.xmp("translate-crop.xmp"), toPath: output("p.XMP"))
        let run = try adjust("render", "p")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try AdjustKitHeader.size(TestFixtures.bytes(output("p-edited.jpg"))), [640, 410])
        let named = try adjust("render", "p", "-o", "q", "--format", "jpeg")
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try AdjustKitHeader.size(TestFixtures.bytes(output("q"))), [640, 410])
    }

    /// Issue 20 scope 2 and 5: without an edit nothing is written unless --unedited says what to
    /// write; a copy is byte-identical when nothing asked for changes the photo.
    func testRenderWithoutAnEditWritesOnlyWhenAsked() throws {
        let photo = TestFixtures.image("Landscape_6.jpg")
        let refused = try adjust("render", photo, "-o", output("none.jpg"))
        XCTAssertEqual(refused.status, 66, refused.stderr)
        XCTAssertEqual(refused.stderr, "adjust: error: \(photo): no edit found (its own XMP, Landscape_6.xmp, Landscape_6.AAE); "
                       + "nothing written: --edit FILE names the edit, --unedited copy|render writes the photo anyway\n")
        XCTAssertFalse(exists(output("none.jpg")))

        let run = try adjust("render", photo, "-o", output("six.png"), "--scale", "1/8", "--unedited", "copy")
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "adjust: note: \(photo): no edit found; written upright\n", "PNG at 1/8: rendered, not copied")
        XCTAssertEqual(try AdjustKitHeader.size(TestFixtures.bytes(output("six.png"))), [225, 150])

        let copy = try adjust("render", photo, "-o", output("six.jpg"), "--unedited", "copy")
        XCTAssertEqual(copy.status, 0, copy.stderr)
        XCTAssertEqual(copy.stderr, "adjust: note: \(photo): no edit found; copied unchanged\n")
        XCTAssertEqual(try TestFixtures.bytes(output("six.jpg")), try TestFixtures.bytes(photo), "byte-identical")
    }

    /// `render IN OUT` suggests -o; `-o FOLDER` writes into the folder.
    func testRenderSuggestsOutputFlagAndWritesIntoAFolder() throws {
        let photo = TestFixtures.image("Landscape_1.jpg"), xmp = TestFixtures.xmp("translate-crop.xmp")
        let wrong = try adjust("render", photo, output("x.jpg"))
        XCTAssertEqual(wrong.status, 64)
        XCTAssertTrue(wrong.stderr.hasPrefix("Error: render takes one photo; name the output with -o: adjust render \(photo) -o \(output("x.jpg"))\n"),
                      wrong.stderr)
        let folder = output("edited")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let run = try adjust("render", photo, "--xmp", xmp, "-o", folder, "--scale", "1/8")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(exists(folder + "/Landscape_1-edited.jpg"))
    }

    /// Issue 20 scope 5: every subcommand's help lists its exit statuses and examples; an edit
    /// given where the photo goes gets the right call suggested.
    func testHelpHasExitCodesAndExamplesAndEditsAreNotPhotos() throws {
        for command in ["render", "inspect", "batch", "compare", "xmp", "fidelity"] {
            let help = try adjust(command, "--help").stdout
            XCTAssertTrue(help.contains("Exit status:"), command)
            XCTAssertTrue(help.contains("EXAMPLES:"), command)
        }
        let overview = try adjust("--help").stdout
        for word in [".AAE", "HEIC", "Mutations", "DCIM"] { XCTAssertTrue(overview.contains(word), word) }
        let aae = TestFixtures.path("Fixtures/aae/IMG_1994.AAE")
        let inspect = try adjust("inspect", aae)
        XCTAssertEqual(inspect.status, 64)
        XCTAssertTrue(inspect.stderr.contains("is an edit, not a photo: adjust inspect PHOTO --edit \(aae)"), inspect.stderr)
        let render = try adjust("render", aae)
        XCTAssertEqual(render.status, 64)
        XCTAssertTrue(render.stderr.contains("is an edit, not a photo: adjust render PHOTO --edit \(aae)"), render.stderr)
    }

    func testOrientationZeroWarnsNamingTheFile() throws {
        let run = try adjust("render", TestFixtures.image("Landscape_0.jpg"), "-o", output("zero.jpg"), "--scale", "1/8",
                             "--unedited", "render")
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("adjust: warning: \(TestFixtures.image("Landscape_0.jpg")): EXIF orientation 0 is not 1–8; treated as 1"),
                      run.stderr)
    }

    func testInspectJSONShowsTheSeedChainAndTheRescaledPlanAtAQuarter() throws {
        let run = try adjust("inspect", "--xmp", TestFixtures.xmp("seed-example.xmp"), "--image-size", "1704x2270",
                             "--scale", "1/4", "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let chain = try XCTUnwrap(json["chain"] as? [[String: Any]])
        XCTAssertEqual(chain.map { $0["filter"] as? String }, ["CIAffineTransform", "CICrop"])
        let plan = try XCTUnwrap(json["plan"] as? [String: Any])
        XCTAssertEqual(plan["decodeScale"] as? String, "1/4")
        XCTAssertEqual(plan["decodedSize"] as? [Int], [426, 568])   // ⌈1704/4⌉, ⌈2270/4⌉ = ⌈567.5⌉
        XCTAssertEqual(plan["delta"] as? Double, 0.5)
        let rescaled = try XCTUnwrap(plan["rescaledChain"] as? [[String: Any]])
        let transform = (rescaled[0]["parameters"] as? [String: Any])?["Transform"] as? [Double]
        XCTAssertEqual(transform, [1, 0, 0, 1, -27, -241.25 - 0.5])   // t/4 − (0, δ)
        let rect = (rescaled[1]["parameters"] as? [String: Any])?["Rectangle"] as? [Double]
        XCTAssertEqual(rect, [0, 0, 385.25, 243.25])
        XCTAssertEqual(plan["outputSize"] as? [Int], [385, 243])
    }

    func testInspectTextNamesTheSourceTheChainAndThePlan() throws {
        let run = try adjust("inspect", TestFixtures.image("iphone4s-2592x1936.jpg"), "--xmp", TestFixtures.xmp("ios5-crop.xmp"))
        XCTAssertEqual(run.status, 0, run.stderr)
        for line in ["edit: XMP file \(TestFixtures.xmp("ios5-crop.xmp"))",
                     "  1. CIAffineTransform Transform=[1 0 0 1 -331 -161]",
                     "  2. CICrop Rectangle=[0 0 1938 1420]",
                     "  stored size:     2592×1936, EXIF orientation 6",
                     "  source region:   1940×1422 at (330, 354) of the decoded raster",
                     "  output:          1938×1420, written 1420×1938"] {
            XCTAssertTrue(run.stdout.contains(line + "\n"), "missing '\(line)' in:\n\(run.stdout)")
        }
    }

    func testHelpDocumentsEveryFlag() throws {
        let help = try adjust("render", "--help").stdout
        for flag in ["--xmp", "--output", "--scale", "--max-size", "--format", "--quality"] {
            XCTAssertTrue(help.contains(flag), "render --help lacks \(flag)")
        }
        let inspect = try adjust("inspect", "--help").stdout
        for flag in ["--xmp", "--image-size", "--orientation", "--scale", "--max-size", "--json"] {
            XCTAssertTrue(inspect.contains(flag), "inspect --help lacks \(flag)")
        }
    }

    // MARK: - Failures

    func testEveryMalformedXMPFixtureFailsCleanly() throws {
        let folder = TestFixtures.path("Fixtures/xmp/malformed")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 8)
        for name in names {
            let xmp = "\(folder)/\(name)"
            let out = output("\(name).jpg")
            let run = try adjust("render", "--xmp", xmp, TestFixtures.image("Landscape_1.jpg"), "-o", out)
            assertFails(run, status: 65, file: xmp, problem: "", noFile: out)
            XCTAssertFalse(run.stderr.contains("root:"), "\(name): no local file content may leak")
        }
    }

    func testBrokenJPEGsFailCleanly() throws {
        let whole = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let truncated = output("truncated.jpg")
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: truncated))
        let notJPEG = output("not.jpg")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notJPEG))
        let empty = output("empty.jpg")
        try Data().write(to: URL(fileURLWithPath: empty))
        for (input, problem) in [(truncated, "corrupt or truncated JPEG"), (notJPEG, "not a JPEG file"),
                                 (empty, "not a JPEG file")] {
            let out = output("out.png")
            assertFails(try adjust("render", input, "-o", out, "--unedited", "render"), status: 65, file: input, problem: problem,
                        noFile: out)
        }
    }

    func testMissingInputAndUnwritableOutput() throws {
        let missing = output("missing.jpg")
        assertFails(try adjust("render", missing, "-o", output("o.jpg")), status: 66, file: missing,
                    problem: "no such file", noFile: output("o.jpg"))
        let unwritable = "/nonexistent-dir/out.jpg"
        assertFails(try adjust("render", TestFixtures.image("Landscape_1.jpg"), "--scale", "1/8", "-o", unwritable,
                               "--unedited", "render"),
                    status: 73, file: unwritable, problem: "cannot create", noFile: nil)
    }

    func testExistingOutputIsUntouchedWhenTheRenderFails() throws {
        let out = output("keep.jpg")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        let xmp = TestFixtures.path("Fixtures/xmp/malformed/malformed-unclosed.xmp")
        let run = try adjust("render", "--xmp", xmp, TestFixtures.image("Landscape_1.jpg"), "-o", out)
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "precious")
    }

    func testColourChainRendersWithANoteAboutApproximations() throws {
        let xmp = TestFixtures.xmp("enhance-and-crop.xmp")
        let out = output("colour.jpg")
        let run = try adjust("render", "--xmp", xmp, TestFixtures.image("Landscape_1.jpg"), "-o", out)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: note: \(TestFixtures.image("Landscape_1.jpg")): approximate filters used: "
                       + "CIPhotoEffectMono (built-in approximation; --effect-lut gives the exact table)\n")
        XCTAssertEqual(try AdjustKitHeader.size(TestFixtures.bytes(out)), [800, 600])

        let inspect = try adjust("inspect", "--xmp", xmp, "--json")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let chain = try XCTUnwrap(json["chain"] as? [[String: Any]])
        XCTAssertEqual(chain.map { "\($0["filter"]!):\($0["support"]!)" },
                       ["CIVibrance:exact", "CIHighlightShadowAdjust:strong", "CICrop:exact", "CIPhotoEffectMono:approximate"])
        let text = try adjust("inspect", "--xmp", xmp).stdout
        XCTAssertTrue(text.contains("CIPhotoEffectMono   [approximate]"), text)
        XCTAssertTrue(text.contains("[strong]"), text)
    }

    func testAUserTableMakesTheEffectExact() throws {
        let cube = output("swap.cube")
        var lines = ["TITLE \"swap\"", "LUT_3D_SIZE 2"]
        for b in 0...1 { for g in 0...1 { for r in 0...1 { lines.append("\(b) \(r) \(g)") } } }
        try lines.joined(separator: "\n").write(toFile: cube, atomically: true, encoding: .utf8)
        let xmp = TestFixtures.xmp("enhance-and-crop.xmp")
        let run = try adjust("render", "--xmp", xmp, TestFixtures.image("Landscape_1.jpg"), "-o", output("x.png"),
                             "--effect-lut", "mono=\(cube)")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "no approximation left to mention")
        let inspect = try adjust("inspect", "--xmp", xmp, "--effect-lut", "CIPhotoEffectMono=\(cube)")
        XCTAssertTrue(inspect.stdout.contains("2. CIHighlightShadowAdjust"), inspect.stdout)
        XCTAssertFalse(inspect.stdout.contains("[approximate]"), inspect.stdout)

        let bad = output("bad.cube")
        try "LUT_3D_SIZE 2\n0 0 0\n".write(toFile: bad, atomically: true, encoding: .utf8)
        assertFails(try adjust("render", "--xmp", xmp, TestFixtures.image("Landscape_1.jpg"), "-o", output("y.png"),
                               "--effect-lut", "noir=\(bad)"),
                    status: 65, file: bad, problem: "not a usable .cube table", noFile: output("y.png"))
    }

    func testUnknownFiltersAreLeftOutUnlessStrict() throws {
        let xmp = output("unknown.xmp")
        try EditXMP.packet("<aas:Filters><rdf:Seq><rdf:li>CISparkle,Amount=2</rdf:li></rdf:Seq></aas:Filters>")
            .write(toFile: xmp, atomically: true, encoding: .utf8)
        let out = output("unknown.jpg")
        assertFails(try adjust("render", "--xmp", xmp, TestFixtures.image("Landscape_1.jpg"), "-o", out, "--strict"),
                    status: 69, file: xmp, problem: "unknown filter CISparkle", noFile: out)
        for alias in [[], ["--skip-unknown-filters"], ["--skip-unsupported"]] {
            try? FileManager.default.removeItem(atPath: out)
            let skipped = try adjust(["render", "--xmp", xmp, TestFixtures.image("Landscape_1.jpg"), "-o", out,
                                      "--scale", "1/8"] + alias)
            XCTAssertEqual(skipped.status, 0, skipped.stderr)
            XCTAssertEqual(skipped.stderr, "adjust: warning: \(TestFixtures.image("Landscape_1.jpg")): unknown filter CISparkle skipped\n")
            XCTAssertTrue(exists(out))
        }
        let both = try adjust("render", "--xmp", xmp, TestFixtures.image("Landscape_1.jpg"), "--strict", "--skip-unsupported")
        XCTAssertEqual(both.status, 64, both.stderr)
    }

    func testEditsThatKeepNothingOrCannotInvert() throws {
        let outside = output("outside.xmp")
        try EditXMP.crop(x: 5000, y: 5000, w: 10, h: 10).write(toFile: outside, atomically: true, encoding: .utf8)
        assertFails(try adjust("render", "--xmp", outside, TestFixtures.image("Landscape_1.jpg"), "-o", output("a.jpg")),
                    status: 65, file: outside, problem: "keeps no pixels", noFile: output("a.jpg"))
        let singular = output("singular.xmp")
        try EditXMP.affine(a: 0, b: 0, c: 0, d: 0).write(toFile: singular, atomically: true, encoding: .utf8)
        assertFails(try adjust("render", "--xmp", singular, TestFixtures.image("Landscape_1.jpg"), "-o", output("b.jpg")),
                    status: 65, file: singular, problem: "cannot be inverted", noFile: output("b.jpg"))
    }

    func testKillingARenderMidWayLeavesNoFileWithTheTargetName() throws {
        // A 20 MP PNG takes seconds to encode and write; kill at several points along the way.
        for delay in [0.05, 0.2, 0.5, 1.0, 1.5, 2.0] {
            let out = output("killed-\(delay).png")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.arguments = ["render", TestFixtures.image("iphone4s-2592x1936.jpg"), "--scale", "2", "-o", out, "--unedited", "render"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal {
                XCTAssertFalse(exists(out), "killed after \(delay) s: no file may carry the target name")
            } else {
                XCTAssertEqual(process.terminationStatus, 0, "finished before the kill at \(delay) s")
                XCTAssertEqual(try AdjustKitHeader.size(TestFixtures.bytes(out)), [3872, 5184], "a finished file is whole")
            }
        }
    }

    func testUsageErrorsExit64() throws {
        let image = TestFixtures.image("Landscape_1.jpg")
        for arguments in [["render", image, "--scale", "3/7"], ["render", image, "--scale", "1/2", "--max-size", "10"],
                          ["render", image, "-o", output("x.png"), "--format", "jpeg"], ["render", image, "-o", output("x.tiff")],
                          ["render", image, "--quality", "0"], ["inspect"], ["render", image, "-o", image]] {
            let process = try adjustArray(arguments)
            if arguments.last == image {
                XCTAssertEqual(process.status, 73, "\(arguments): \(process.stderr)")   // refuses to overwrite the input
            } else {
                XCTAssertEqual(process.status, 64, "\(arguments): \(process.stderr)")
            }
            XCTAssertFalse(process.stderr.isEmpty)
        }
    }

    private func adjustArray(_ arguments: [String]) throws -> Run {
        switch arguments.count {
        case 1: return try adjust(arguments[0])
        case 4: return try adjust(arguments[0], arguments[1], arguments[2], arguments[3])
        case 6: return try adjust(arguments[0], arguments[1], arguments[2], arguments[3], arguments[4], arguments[5])
        default: preconditionFailure("add an arity")
        }
    }
}

/// Tiny edits written by the tests.
enum EditXMP {
    static func packet(_ body: String) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:aas="http://ns.apple.com/adjustment-settings/1.0/">\(body)</rdf:Description>
        </rdf:RDF></x:xmpmeta>
        """
    }

    static func crop(x: Double, y: Double, w: Double, h: Double) -> String {
        packet("<aas:CropX>\(x)</aas:CropX><aas:CropY>\(y)</aas:CropY><aas:CropW>\(w)</aas:CropW><aas:CropH>\(h)</aas:CropH>")
    }

    static func affine(a: Double, b: Double, c: Double, d: Double) -> String {
        packet("<aas:AffineA>\(a)</aas:AffineA><aas:AffineB>\(b)</aas:AffineB><aas:AffineC>\(c)</aas:AffineC>"
               + "<aas:AffineD>\(d)</aas:AffineD><aas:AffineX>0</aas:AffineX><aas:AffineY>0</aas:AffineY>")
    }
}

/// Reads an output's pixel size with the library's own decoders.
enum AdjustKitHeader {
    static func size(_ bytes: [UInt8]) throws -> [Int] {
        let size = bytes.starts(with: [0xFF, 0xD8]) ? try JPEGDecoder().header(of: bytes).size : try PNGCodec.decode(bytes).size
        return [size.width, size.height]
    }
}
