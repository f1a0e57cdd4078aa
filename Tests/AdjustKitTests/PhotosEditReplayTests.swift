@testable import AdjustKit
import Foundation
import XCTest

/// Issue 19, scopes 1–3 and 6: a real Photos edit is replayed as Photos shows it — the user's
/// rotation from `metadata.orientation` (aae-format.md §5.4), settings read as real files write
/// them, what cannot be replayed left out and named rather than costing the photo, and current
/// iPhone HEICs opened (libheif ≥ 1.19). Every AAE case is run as an XML and a binary plist.
final class PhotosEditReplayTests: XCTestCase {
    private static var binary: String { CLITests.binary }
    private var scratch: URL!

    override func setUpWithError() throws { scratch = try ScratchFolder.make("photos-edit-replay") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    private func write(_ adjustments: [String], orientation: Int, format: AAEBuilder.Format, name: String) throws -> String {
        let file = path(name)
        try Data(AAEBuilder.aae(adjustments, format: format, masterWidth: 1800, masterHeight: 1200, orientation: orientation))
            .write(to: URL(fileURLWithPath: file))
        return file
    }

    private func plan(_ image: String, _ edit: String) throws -> RenderPlan {
        try PhotoEdit(imagePath: TestFixtures.image(image), editPath: edit, size: .scale(DecodeScale(numerator: 1)!)).plan
    }

    // MARK: scope 1: orientation as Photos applies it

    /// `metadata.orientation` replaces the file's own orientation; 0 means the file's own.
    func testMetadataOrientationReplacesTheFilesOwn() throws {
        for format in [AAEBuilder.Format.xml, .binary] {
            // Landscape_1 has EXIF 1: a user's quarter turn (6) makes it portrait.
            let turned = try write([], orientation: 6, format: format, name: "turn-\(format).aae")
            XCTAssertEqual(try plan("Landscape_1.jpg", turned).orientation, .rotate90Clockwise, "\(format)")
            // Landscape_6 has EXIF 6: an edit whose metadata says 1 shows it unrotated (absolute, not composed).
            let upright = try write([], orientation: 1, format: format, name: "upright-\(format).aae")
            XCTAssertEqual(try plan("Landscape_6.jpg", upright).orientation, .identity, "\(format)")
            // 0, as camera-time IMG_O files write it: the file's own.
            let unset = try write([], orientation: 0, format: format, name: "unset-\(format).aae")
            XCTAssertEqual(try plan("Landscape_6.jpg", unset).orientation, .rotate90Clockwise, "\(format)")
        }
    }

    /// A photo whose only change is a rotation is an edit: it renders rotated, not as "no edit".
    func testARotationOnlyEditIsAnEdit() throws {
        let turned = try write([], orientation: 8, format: .binary, name: "turn.aae")
        let edit = try EditSource().load(editFile: turned)
        XCTAssertEqual(edit.chain.steps.map(\.filterName), ["Orientation"])
        let run = try BinaryRun.run(Self.binary, ["render", TestFixtures.image("Landscape_1.jpg"), "--edit", turned,
                                                  "-o", path("turned.jpg"), "--scale", "1/8"], in: scratch)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("no edit found"), run.stderr)
        let header = try JPEGDecoder().header(of: TestFixtures.bytes(path("turned.jpg")))
        XCTAssertEqual(header.size, PixelSize(width: 150, height: 225), "1800×1200 at 1/8, turned")
    }

    /// The real user flips (Photos 4 library, `adjustments: []`) on their real original, against
    /// Apple's renders: same size, and the pixels line up (grey correlation).
    func testRealUserFlipsMatchApplesRenders() throws {
        let backup = "Fixtures/apple-renders/iphone-backup/Media"
        for n in [2, 4, 5, 7] {
            let original = TestFixtures.path("\(backup)/DCIM/100APPLE/IMG_000\(n).JPG")
            let folder = TestFixtures.path("\(backup)/PhotoData/Mutations/DCIM/100APPLE/IMG_000\(n)/Adjustments")
            let ours = try PhotoEdit(imagePath: original, editPath: "\(folder)/Adjustments.plist").render().image
            // Apple's renders are upright, with no orientation tag.
            let apple = try JPEGDecoder().decode(TestFixtures.bytes("\(folder)/FullSizeRender.jpg"))
            XCTAssertEqual(ours.size, apple.size, "orientation \(n)")
            guard ours.size == apple.size else { continue }
            var rgba = [UInt8](repeating: 255, count: apple.size.pixelCount * 4)
            for i in 0..<apple.size.pixelCount {
                for c in 0..<3 { rgba[i * 4 + c] = apple.pixels[i * 3 + c] }
            }
            let appleRGBA = RGBA8Image(size: apple.size, pixels: rgba)
            XCTAssertGreaterThan(try XCTUnwrap(GreyCorrelation.ncc(ours, appleRGBA)), 0.999, "orientation \(n)")
        }
    }

    // MARK: scope 2: real files read leniently

    func testNumbersStringsAndBooleansAsRealFilesWriteThem() throws {
        let adjustment = AAEAdjustment(identifier: "X", settings: [
            "a": .string("0.25"), "b": .bool(true), "c": .number(0), "d": .string("yes"), "e": .string("soft")])
        XCTAssertEqual(try adjustment.optionalNumber("a"), 0.25)
        XCTAssertThrowsError(try adjustment.optionalNumber("b"), "a boolean is not a number")
        XCTAssertEqual(try adjustment.optionalFlag("c"), false)
        XCTAssertEqual(try adjustment.optionalFlag("d"), true)
        XCTAssertThrowsError(try adjustment.optionalNumber("e"))
    }

    /// `isDefaults: true` is a no-op; a setting of the wrong type makes that one adjustment "not
    /// replayed" with the reason, never the whole edit a failure.
    func testDefaultsAreNoOpsAndABadSettingCostsOnlyItsAdjustment() throws {
        for format in [AAEBuilder.Format.xml, .binary] {
            let file = try write([
                AAEBuilder.adjustment("SmartTone", settings: #"{"inputLight":0.6,"isDefaults":true}"#),
                AAEBuilder.adjustment("SmartColor", settings: #"{"inputColor":"lots"}"#),
                AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":"100","yOrigin":0,"width":800,"height":600}"#),
            ], orientation: 0, format: format, name: "lenient-\(format).aae")
            let chain = try EditSource().load(editFile: file).chain
            XCTAssertNil(chain[SmartTone.self], "isDefaults: true changes nothing")
            XCTAssertEqual(chain.photosCrop?.x, 100, "a number written as a string is read")
            XCTAssertEqual(chain.notReplayed, [#"SmartColor (setting "inputColor" must be a number, got a string)"#])
        }
    }

    // MARK: scope 3: what cannot be replayed no longer costs the photo

    func testUnsupportedAdjustmentsAreLeftOutUnlessStrict() throws {
        for format in [AAEBuilder.Format.xml, .binary] {
            let file = try write([
                AAEBuilder.adjustment("RKRetouchOperation", settings: "{}"),
                AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":100,"yOrigin":0,"width":800,"height":600}"#),
            ], orientation: 0, format: format, name: "retouch-\(format).aae")
            let out = path("retouch-\(format).jpg")
            let image = TestFixtures.image("Landscape_1.jpg")
            let lenient = try BinaryRun.run(Self.binary, ["render", image, "--edit", file, "-o", out], in: scratch)
            XCTAssertEqual(lenient.status, 0, lenient.stderr)
            XCTAssertTrue(lenient.stderr.contains("adjust: warning: \(image): not replayed: RKRetouchOperation (the rest of the edit is rendered; --strict refuses)\n"),
                          lenient.stderr)
            XCTAssertEqual(lenient.stderr.components(separatedBy: "not replayed").count, 2, "one line")
            XCTAssertEqual(try JPEGDecoder().header(of: TestFixtures.bytes(out)).size, PixelSize(width: 800, height: 600))

            try FileManager.default.removeItem(atPath: out)
            let strict = try BinaryRun.run(Self.binary, ["render", image, "--edit", file, "-o", out, "--strict"], in: scratch)
            XCTAssertEqual(strict.status, 69, strict.stderr)
            XCTAssertEqual(strict.stderr, "adjust: error: \(file): the edit uses adjustments this version cannot render: "
                           + "RKRetouchOperation (without --strict they are left out)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "no output on failure")
        }
    }

    /// An edit with nothing replayable renders the unedited photo: refused however lenient, one
    /// line, exit 69; so is another app's edit (only Apple's render holds it).
    func testAnEditWithNothingReplayableIsRefused() throws {
        let only = try write([AAEBuilder.adjustment("RKRetouchOperation", settings: "{}")], orientation: 0,
                             format: .binary, name: "only.aae")
        let out = path("only.jpg")
        let run = try BinaryRun.run(Self.binary, ["render", TestFixtures.image("Landscape_1.jpg"), "--edit", only, "-o", out],
                                    in: scratch)
        XCTAssertEqual(run.status, 69, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: error: \(only): nothing in this edit can be replayed (RKRetouchOperation): "
                       + "only Photos' own render shows it\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        let library = "Fixtures/photos-library/Test-10.15.7.photoslibrary"
        let external = TestFixtures.path("\(library)/resources/renders/D/DC99FBDD-7A52-4100-A5BB-344131646C30.plist")
        let photo = TestFixtures.path("\(library)/originals/D/DC99FBDD-7A52-4100-A5BB-344131646C30.jpeg")
        let refused = try BinaryRun.run(Self.binary, ["render", photo, "--edit", external, "-o", out], in: scratch)
        XCTAssertEqual(refused.status, 69, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix("adjust: error: \(external): AAE edit in format \"com.apple.Photos.externalEdit\""),
                      refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1)
    }

    /// The batch record names what was left out.
    func testBatchRecordsNotReplayed() throws {
        let input = scratch.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: input.appendingPathComponent("IMG_0001.jpg").path)
        try Data(AAEBuilder.aae([AAEBuilder.adjustment("RKRetouchOperation"), AAEBuilder.adjustment("SmartColor", settings: #"{"inputColor":0.3}"#)],
                                masterWidth: 1800, masterHeight: 1200))
            .write(to: input.appendingPathComponent("IMG_0001.AAE"))
        let run = try BinaryRun.run(Self.binary, ["batch", input.path, "--out", path("out"), "--json", "--max-size", "200"], in: scratch)
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.contains("IMG_0001") })
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
        XCTAssertEqual(object["status"] as? String, "ok")
        XCTAssertEqual(object["notReplayed"] as? [String], ["RKRetouchOperation"])
    }

    /// `--xmp-dir` finds a modern edit (`STEM.AAE`) as it finds an XMP (issue 20).
    func testXMPDirHoldsAAEEditsToo() throws {
        let input = scratch.appendingPathComponent("photos"), edits = scratch.appendingPathComponent("edits")
        for folder in [input, edits] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: input.appendingPathComponent("IMG_0001.jpg").path)
        try Data(AAEBuilder.aae([AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":100,"yOrigin":0,"width":800,"height":600}"#)],
                                masterWidth: 1800, masterHeight: 1200))
            .write(to: edits.appendingPathComponent("IMG_0001.AAE"))
        let run = try BinaryRun.run(Self.binary, ["batch", input.path, "--out", path("out"), "--xmp-dir", edits.path, "--json"], in: scratch)
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.contains("IMG_0001") })
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
        XCTAssertEqual(object["size"] as? [Int], [800, 600])
        XCTAssertEqual(object["edit"] as? String, "aae")
    }

    // MARK: scope 6: HEIC as iPhones write it now

    /// The portrait HEIC (depth and HDR gain-map auxiliary images) and Photos' own HEIC render of it,
    /// which libheif 1.15 refused, open; the edit's B&W and its depth blur are replayed.
    func testCurrentIPhoneHEICsOpen() throws {
        let folder = TestFixtures.path("Fixtures/apple-renders/portrait-heic")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(LibheifVersion.loaded), LibheifVersion.required, "the README installs 1.19")
        for name in ["IMG_3582.HEIC", "IMG_E3582.heic"] {
            guard case .heic(_, let header) = try OriginalImage(path: "\(folder)/\(name)") else { return XCTFail(name) }
            XCTAssertEqual(Set([header.size.width, header.size.height]), [4284, 5712], name)
        }
        let out = path("portrait.jpg")
        let run = try BinaryRun.run(Self.binary, ["render", "\(folder)/IMG_3582.HEIC", "-o", out, "--max-size", "512"], in: scratch)
        XCTAssertEqual(run.status, 0, run.stderr)
        // Issue 23: the depth blur is replayed (approximate) from the depth image, which is then used.
        XCTAssertTrue(run.stderr.contains("approximate filters used: DepthEffect (approximation"), run.stderr)
        // The depth image is used, and the HDR gain map is not news (issue 29): nothing is said of either.
        XCTAssertFalse(run.stderr.contains("auxiliary images not used"), run.stderr)
        XCTAssertFalse(run.stderr.contains("not replayed"), run.stderr)
        XCTAssertEqual(try JPEGDecoder().header(of: TestFixtures.bytes(out)).size, PixelSize(width: 384, height: 512), "EXIF 6, upright")
    }

    /// With a libheif older than 1.19, a file it refuses is reported as the library's fault —
    /// the version found, the one needed, how to install it — exit 69, never "corrupt".
    func testAnOldLibheifIsNamedNotTheFile() throws {
        let old = LibheifVersion(major: 1, minor: 15, patch: 1)
        let error = HEIFFile.refusal("Metadata not correctly assigned to image", loaded: old)
        XCTAssertEqual(error.description, "libheif 1.15.1 cannot open this HEIC (Metadata not correctly assigned to image); "
                       + "it needs libheif 1.19.0 or later (Debian 12: apt-get install -t bookworm-backports libheif1 "
                       + "libheif-plugin-libde265)")
        XCTAssertTrue(error.isMissingSupport, "reported as unsupported (exit 69), not invalid content (65)")
        XCTAssertEqual(HEIFFile.refusal("x", loaded: LibheifVersion(major: 1, minor: 19, patch: 7)), .malformed("x"))
        XCTAssertFalse(HEICError.malformed("x").isMissingSupport)
    }
}
