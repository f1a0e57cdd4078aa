import AdjustKit
import Foundation
import XCTest

/// `adjust batch`, end to end with the built binary: a folder of fixture copies with one
/// truncated JPEG mixed in.
final class BatchTests: XCTestCase {
    typealias Run = BinaryRun

    static var binary: String {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("adjust").path
    }

    private var scratch: URL!
    private var photos: String { scratch.appendingPathComponent("photos").path }
    private var out: String { scratch.appendingPathComponent("out").path }

    /// photos/: four good JPEGs (one with a sidecar, one in a subfolder), bad.jpg, and a hidden file.
    /// The upright size each good one has at 1/8.
    private let expected: [String: (size: [Int], status: String, edit: String)] = [
        "Landscape_1.jpg": ([225, 150], "no-edit", "none"),
        "Landscape_6.jpg": ([225, 150], "no-edit", "none"),
        "iphone4s-2592x1936.jpg": ([178, 242], "ok", "sidecar"),          // 1420 × 1938 / 8
        "nested/deeper/progressive-960x1280.jpg": ([120, 160], "no-edit", "none"),
    ]

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-batch")
        let fm = FileManager.default
        try fm.createDirectory(atPath: photos + "/nested/deeper", withIntermediateDirectories: true)
        XCTAssertTrue(fm.isExecutableFile(atPath: Self.binary), "build the adjust product first")
        for name in ["Landscape_1.jpg", "Landscape_6.jpg", "iphone4s-2592x1936.jpg"] {
            try fm.copyItem(atPath: TestFixtures.image(name), toPath: photos + "/" + name)
        }
        try fm.copyItem(atPath: TestFixtures.xmp("ios5-crop.xmp"), toPath: photos + "/iphone4s-2592x1936.xmp")
        try fm.copyItem(atPath: TestFixtures.image("progressive-960x1280.jpg"),
                        toPath: photos + "/nested/deeper/progressive-960x1280.jpg")
        let good = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        try Data(good.prefix(good.count / 3)).write(to: URL(fileURLWithPath: photos + "/bad.jpg"))
        try Data(good).write(to: URL(fileURLWithPath: photos + "/.hidden.jpg"))
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: photos + "/notes.txt"))
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func adjust(_ arguments: [String]) throws -> Run {
        try BinaryRun.run(Self.binary, arguments, in: scratch)
    }

    /// Every stdout line parsed: the per-file records by input path, and the summary.
    private func records(_ run: Run, line: UInt = #line) throws -> (files: [String: [String: Any]], summary: [String: Any]?) {
        var files: [String: [String: Any]] = [:]
        var summary: [String: Any]?
        for text in run.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            guard let dictionary = object as? [String: Any] else { XCTFail("not an object: \(text)", line: line); continue }
            if let s = dictionary["summary"] as? [String: Any] { summary = s; continue }
            let input = try XCTUnwrap(dictionary["input"] as? String, line: line)
            XCTAssertNil(files[input], "\(input) reported twice", line: line)
            files[input] = dictionary
        }
        return (files, summary)
    }

    private func size(_ path: String) throws -> [Int] {
        let decoded = try JPEGDecoder().decode(TestFixtures.bytes(path), scale: .full)   // decodable, whole
        return [decoded.size.width, decoded.size.height]
    }

    // MARK: -

    func testRendersEveryGoodFileReportsTheBadOneAndFails() throws {
        let run = try adjust(["batch", photos, "--out", out, "--scale", "1/8", "--json", "-j", "2"])
        XCTAssertEqual(run.status, 65, run.stderr)
        let (files, summary) = try records(run)
        XCTAssertEqual(Set(files.keys), Set((Array(expected.keys) + ["bad.jpg"]).map { photos + "/" + $0 }),
                       "the hidden file, the .txt and the sidecar are not inputs")

        for (name, want) in expected {
            let record = try XCTUnwrap(files[photos + "/" + name])
            let output = out + "/" + name
            XCTAssertEqual(record["output"] as? String, output)
            XCTAssertEqual(record["status"] as? String, want.status, name)
            XCTAssertEqual(record["edit"] as? String, want.edit, name)
            XCTAssertEqual(record["size"] as? [Int], want.size, name)
            XCTAssertNil(record["error"])
            XCTAssertNotNil(record["totalMs"] as? Double)
            XCTAssertNotNil(record["renderMs"] as? Double)
            XCTAssertEqual(try size(output), want.size, name)
        }
        let sidecar = try XCTUnwrap(files[photos + "/iphone4s-2592x1936.jpg"])
        XCTAssertEqual(sidecar["chain"] as? [String], ["CIAffineTransform", "CICrop"])
        XCTAssertEqual(sidecar["editFile"] as? String, photos + "/iphone4s-2592x1936.xmp")

        let bad = try XCTUnwrap(files[photos + "/bad.jpg"])
        XCTAssertEqual(bad["status"] as? String, "failed")
        let error = try XCTUnwrap(bad["error"] as? String)
        XCTAssertTrue(error.hasPrefix(photos + "/bad.jpg: "), error)
        XCTAssertFalse(error.contains("\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/bad.jpg"), "no output for the bad file")

        XCTAssertEqual(summary?["files"] as? Int, 5)
        XCTAssertEqual(summary?["ok"] as? Int, 1)
        XCTAssertEqual(summary?["noEdit"] as? Int, 3)
        XCTAssertEqual(summary?["skipped"] as? Int, 0)
        XCTAssertEqual(summary?["failed"] as? Int, 1)

        // Not a terminal: one plain line per file, then the summary.
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("adjust: error: \(photos)/bad.jpg: ") }, run.stderr)
        XCTAssertTrue(lines.contains("adjust: ok \(photos)/iphone4s-2592x1936.jpg -> \(out)/iphone4s-2592x1936.jpg"), run.stderr)
        XCTAssertEqual(lines.last, "adjust: 5 files: 1 ok, 3 without edits, 0 skipped, 1 failed; 1 other file ignored")
        XCTAssertFalse(run.stderr.contains("\r"))
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.contains("/.") || $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary files left")
    }

    func testSkipExistingLeavesRenderedFilesAlone() throws {
        _ = try adjust(["batch", photos, "--out", out, "--scale", "1/8"])
        let target = out + "/Landscape_1.jpg"
        let before = try FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as? Date
        let run = try adjust(["batch", photos, "--out", out, "--scale", "1/8", "--json", "--skip-existing"])
        XCTAssertEqual(run.status, 65, "the bad file still fails")
        let (files, summary) = try records(run)
        for name in expected.keys {
            XCTAssertEqual(files[photos + "/" + name]?["status"] as? String, "skipped", name)
        }
        XCTAssertEqual(files[photos + "/bad.jpg"]?["status"] as? String, "failed")
        XCTAssertEqual(summary?["skipped"] as? Int, 4)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as? Date, before)
        XCTAssertTrue(run.stderr.contains("adjust: 5 files: 0 ok, 0 without edits, 4 skipped, 1 failed"), run.stderr)
    }

    /// Issue 20 scope 5: an output folder equal to an input folder or inside one is refused
    /// before anything is written (its outputs would be the next run's inputs), with a next step.
    func testAnOutputFolderInsideOrEqualToTheInputIsRefused() throws {
        for target in [photos + "/rendered", photos, photos + "/"] {
            let run = try adjust(["batch", photos, "--out", target, "--scale", "1/8"])
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertTrue(run.stderr.contains("choose a folder outside it, e.g. --out photos-edited"), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: photos + "/rendered"), "nothing created")
        }
    }

    /// A mistyped input: exit 66, one line, and no output folder made for it.
    func testAMissingInputCreatesNothing() throws {
        let missing = scratch.appendingPathComponent("nope").path
        let run = try adjust(["batch", missing, "--out", out])
        XCTAssertEqual(run.status, 66, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: error: \(missing): no such file or folder; nothing was written\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testAFileGivenTwiceIsRenderedOnce() throws {
        let photo = photos + "/Landscape_6.jpg"
        let run = try adjust(["batch", photo, photos + "/nested", photo, photos + "/./Landscape_6.jpg",
                              "--out", out, "--scale", "1/8", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let (files, summary) = try records(run)
        XCTAssertEqual(Set(files.keys), [photo, photos + "/nested/deeper/progressive-960x1280.jpg"])
        XCTAssertEqual(summary?["files"] as? Int, 2)
        // A file named directly goes to DIR/name; a folder's photos keep their path below it.
        XCTAssertEqual(try size(out + "/Landscape_6.jpg"), [225, 150])
        XCTAssertEqual(try size(out + "/deeper/progressive-960x1280.jpg"), [120, 160])
    }

    func testNeverWritesOverAnInput() throws {
        let photo = photos + "/Landscape_1.jpg"
        let original = try TestFixtures.bytes(photo)
        // The output folder is the named photo's own folder: refused before anything is written
        // (issue 29: outputs among the inputs would be taken for originals by the next run).
        let run = try adjust(["batch", photo, "--out", photos, "--scale", "1/8", "--json"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("is the folder of the input \(photo)"), run.stderr)
        XCTAssertEqual(try TestFixtures.bytes(photo), original)
    }

    func testXMPDirGivesTheEdit() throws {
        let edits = scratch.appendingPathComponent("edits").path
        try FileManager.default.createDirectory(atPath: edits, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.xmp("translate-crop.xmp"), toPath: edits + "/Landscape_1.xmp")
        let run = try adjust(["batch", photos + "/Landscape_1.jpg", "--out", out, "--xmp-dir", edits,
                              "--format", "png", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try XCTUnwrap(try records(run).files[photos + "/Landscape_1.jpg"])
        XCTAssertEqual(record["edit"] as? String, "xmp-dir")
        XCTAssertEqual(record["status"] as? String, "ok")
        XCTAssertEqual(record["output"] as? String, out + "/Landscape_1.png")
        XCTAssertEqual(try PNGCodec.decode(TestFixtures.bytes(out + "/Landscape_1.png")).size, PixelSize(width: 640, height: 410))
    }

    func testBadCommandLines() throws {
        XCTAssertEqual(try adjust(["batch", photos, "--out", out, "-j", "0"]).status, 64)
        XCTAssertEqual(try adjust(["batch", "--out", out]).status, 64)
        XCTAssertEqual(try adjust(["batch", photos, "--out", out, "--format", "gif"]).status, 64)
        XCTAssertEqual(try adjust(["batch", photos]).status, 64, "--out is required")
        let missing = try adjust(["batch", scratch.appendingPathComponent("nope").path, "--out", out])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("adjust: error: \(scratch.appendingPathComponent("nope").path): "), missing.stderr)
    }

    /// On a terminal the progress is one bar redrawn with \r, checked under a pseudo-terminal.
    func testProgressBarOnATerminal() throws {
        let command = [Self.binary, "batch", photos, "--out", out, "--scale", "1/8", "-j", "2"].joined(separator: " ")
        let process = Process()
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/script") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", """
                import pty, sys, os
                status = pty.spawn(sys.argv[1:])
                sys.exit(os.waitstatus_to_exitcode(status))
                """, Self.binary, "batch", photos, "--out", out, "--scale", "1/8", "-j", "2"]
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "100"   // the pseudo-terminal may have no size
        process.environment = environment
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 65, text)
        XCTAssertTrue(text.contains("\r["), text)
        XCTAssertTrue(text.contains("] 5/5"), text)
        XCTAssertTrue(text.contains("[" + String(repeating: "#", count: 20) + "]"), "a full bar at the end: \(text)")
        XCTAssertTrue(text.contains("failed 1"), text)
        XCTAssertTrue(text.contains("adjust: error: \(photos)/bad.jpg: "), "failures still get a line: \(text)")
        XCTAssertFalse(text.contains("adjust: ok "), "no per-file lines on a terminal: \(text)")
        XCTAssertTrue(text.contains("adjust: 5 files: 1 ok, 3 without edits, 0 skipped, 1 failed"), text)
    }
}
