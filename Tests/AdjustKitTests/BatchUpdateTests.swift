import AdjustKit
import Foundation
import XCTest

/// `adjust batch --update` and `--prune`, end to end with the built binary: each output's
/// recorded provenance decides whether it is rendered again.
final class BatchUpdateTests: XCTestCase {
    private var scratch: URL!
    private var photos: String { scratch.appendingPathComponent("photos").path }
    private var out: String { scratch.appendingPathComponent("out").path }
    private let names = ["Landscape_1.jpg", "Landscape_3.jpg", "iphone4s-2592x1936.jpg", "sub/progressive-960x1280.jpg"]

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-update")
        let fm = FileManager.default
        try fm.createDirectory(atPath: photos + "/sub", withIntermediateDirectories: true)
        for name in names {
            try fm.copyItem(atPath: TestFixtures.image((name as NSString).lastPathComponent), toPath: photos + "/" + name)
        }
        try fm.copyItem(atPath: TestFixtures.xmp("ios5-crop.xmp"), toPath: photos + "/iphone4s-2592x1936.xmp")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    /// Runs `adjust batch photos --out out ARGS --json`; the records by input name (relative to
    /// photos/, or the output's for orphans), and the summary.
    private func batch(_ arguments: [String], status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line)
        throws -> (records: [String: [String: Any]], summary: [String: Any]) {
        let run = try BinaryRun.run(BatchTests.binary, ["batch", photos, "--out", out, "--json"] + arguments, in: scratch)
        XCTAssertEqual(run.status, status, run.stderr, file: file, line: line)
        var records: [String: [String: Any]] = [:]
        var summary: [String: Any] = [:]
        for text in run.stdout.split(separator: "\n") {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            if let found = object["summary"] as? [String: Any] { summary = found; continue }
            try checkAgainstSchema(object, file: file, line: line)
            let input = try XCTUnwrap(object["input"] as? String)
            records[String(input.dropFirst(photos.count + 1))] = object
        }
        return (records, summary)
    }

    /// Every field is one docs/batch-record.schema.json names, every required one is there, and the
    /// status is one of its values.
    private func checkAgainstSchema(_ record: [String: Any], file: StaticString, line: UInt) throws {
        let schemaData = try Data(contentsOf: URL(fileURLWithPath: TestFixtures.path("docs/batch-record.schema.json")))
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: schemaData) as? [String: Any])
        let definitions = try XCTUnwrap(schema["$defs"] as? [String: Any])
        let recordSchema = try XCTUnwrap(definitions["record"] as? [String: Any])
        let properties = try XCTUnwrap(recordSchema["properties"] as? [String: Any])
        let required = try XCTUnwrap(recordSchema["required"] as? [String])
        XCTAssertEqual(Set(record.keys).subtracting(properties.keys), [], file: file, line: line)
        XCTAssertEqual(Set(required).subtracting(record.keys), [], file: file, line: line)
        let statusValues = try XCTUnwrap((properties["status"] as? [String: Any])?["enum"] as? [String])
        XCTAssertTrue(statusValues.contains(record["status"] as? String ?? ""), "\(record)", file: file, line: line)
    }

    private func statuses(_ records: [String: [String: Any]]) -> [String: String] {
        records.mapValues { ($0["status"] as? String ?? "?") + " / " + ($0["reason"] as? String ?? "-") }
    }

    private func output(_ name: String, _ ext: String = "jpg") -> String {
        out + "/" + (name as NSString).deletingPathExtension + "." + ext
    }

    func testUpdateRendersExactlyWhatChanged() throws {
        let first = try batch(["--scale", "1/8"])
        XCTAssertEqual(Set(first.records.values.map { $0["status"] as? String }), ["ok", "no-edit"])
        XCTAssertNil(first.summary["current"], "no current count without --update")
        for (name, record) in first.records {
            let render = try XCTUnwrap(record["renderMs"] as? Double, name), decode = try XCTUnwrap(record["decodeMs"] as? Double, name)
            XCTAssertTrue(decode > 0 && decode <= render, "\(name): the decoder's share \(decode) ms of \(render) ms")
            XCTAssertNotNil(record["digestMs"] as? Double, name)
        }
        let written = try names.map { try TestFixtures.bytes(output($0)) }

        let unchanged = try batch(["--scale", "1/8", "--update"])
        XCTAssertEqual(statuses(unchanged.records), Dictionary(uniqueKeysWithValues: names.map { ($0, "current / output is current") }))
        XCTAssertEqual(unchanged.summary["current"] as? Int, 4)
        XCTAssertEqual(try names.map { try TestFixtures.bytes(output($0)) }, written, "current outputs are not rewritten")

        // One edit, one original, one output removed, one output truncated, one output replaced by a foreign JPEG.
        let sidecar = photos + "/iphone4s-2592x1936.xmp"
        try (String(contentsOfFile: sidecar, encoding: .utf8) + "\n<!-- touched -->\n").write(toFile: sidecar, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: photos + "/Landscape_3.jpg")
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_6.jpg"), toPath: photos + "/Landscape_3.jpg")
        let changed = try batch(["--scale", "1/8", "--update"])
        XCTAssertEqual(statuses(changed.records), [
            "Landscape_1.jpg": "current / output is current",
            "Landscape_3.jpg": "no-edit / original changed",
            "iphone4s-2592x1936.jpg": "ok / edit changed",
            "sub/progressive-960x1280.jpg": "current / output is current",
        ])

        try FileManager.default.removeItem(atPath: output("Landscape_1.jpg"))
        let progressive = try TestFixtures.bytes(output("sub/progressive-960x1280.jpg"))
        try Data(progressive.dropLast(100)).write(to: URL(fileURLWithPath: output("sub/progressive-960x1280.jpg")))
        try FileManager.default.removeItem(atPath: output("Landscape_3.jpg"))
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_6.jpg"), toPath: output("Landscape_3.jpg"))
        let repaired = try batch(["--scale", "1/8", "--update"])
        XCTAssertEqual(statuses(repaired.records), [
            "Landscape_1.jpg": "no-edit / no output yet",
            "Landscape_3.jpg": "no-edit / output has no provenance",
            "iphone4s-2592x1936.jpg": "current / output is current",
            "sub/progressive-960x1280.jpg": "no-edit / output is incomplete",
        ])

        let resized = try batch(["--scale", "1/4", "--update"])
        XCTAssertEqual(Set(resized.records.values.map { $0["reason"] as? String }), ["options changed"])
        XCTAssertEqual(resized.summary["current"] as? Int, 0)
        XCTAssertEqual(resized.records["Landscape_1.jpg"]?["size"] as? [Int], [450, 300])
    }

    func testPNGOutputsAreCurrentOnUpdateToo() throws {
        _ = try batch(["--scale", "1/8", "--format", "png"])
        let again = try batch(["--scale", "1/8", "--format", "png", "--update"])
        XCTAssertEqual(Set(again.records.values.map { $0["status"] as? String }), ["current"])
        let jpeg = try batch(["--scale", "1/8", "--update"])
        XCTAssertEqual(Set(jpeg.records.values.map { $0["reason"] as? String }), ["no output yet"],
                       "a JPEG output is another file than the PNG")
    }

    /// An output whose original is gone is reported by --update and removed only with --prune;
    /// a file adjust did not write is never touched, nor an output whose original is outside the batch.
    func testPruneRemovesOnlyOutputsWhoseOriginalIsGone() throws {
        // A photo named directly in the first run only: its output (out/canon-a85.jpg) is no output
        // of the later runs, but its original still exists.
        let outside = scratch.path + "/canon-a85.jpg"
        try FileManager.default.copyItem(atPath: TestFixtures.image("canon-a85.jpg"), toPath: outside)
        _ = try batch(["--scale", "1/8", outside])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/canon-a85.jpg"))
        let foreign = out + "/foreign.jpg"
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_6.jpg"), toPath: foreign)
        try FileManager.default.removeItem(atPath: photos + "/Landscape_1.jpg")
        let kept = try batch(["--scale", "1/8", "--update"], status: 0)
        XCTAssertEqual(Set(kept.records.keys), Set(names), "the orphan's record is under its original's name")
        let orphan = try XCTUnwrap(kept.records["Landscape_1.jpg"])
        XCTAssertEqual(orphan["status"] as? String, "orphaned")
        XCTAssertEqual(orphan["output"] as? String, output("Landscape_1.jpg"))
        XCTAssertEqual(kept.summary["orphaned"] as? Int, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output("Landscape_1.jpg")))

        let pruned = try batch(["--scale", "1/8", "--update", "--prune"])
        XCTAssertEqual(pruned.records["Landscape_1.jpg"]?["status"] as? String, "pruned")
        XCTAssertEqual(pruned.summary["pruned"] as? Int, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output("Landscape_1.jpg")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: foreign), "no provenance: not ours")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/canon-a85.jpg"), "its original still exists")
    }

    func testUpdateAndSkipExistingCannotBeCombined() throws {
        let run = try BinaryRun.run(BatchTests.binary, ["batch", photos, "--out", out, "--update", "--skip-existing"], in: scratch)
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("--update and --skip-existing cannot be used together"), run.stderr)
    }

    // MARK: issue 20, scopes 2 and 4

    /// `--unedited copy` (the default): a photo without an edit is copied byte for byte when
    /// nothing asked for changes it, its record kept beside it, so `--update` finds it current;
    /// `skip` writes nothing; a resize renders it.
    func testUneditedPhotosAreCopiedSkippedOrRendered() throws {
        let first = try batch([])
        XCTAssertEqual(first.records["Landscape_1.jpg"]?["source"] as? String, "copy")
        XCTAssertEqual(first.records["Landscape_1.jpg"]?["status"] as? String, "no-edit")
        XCTAssertEqual(first.records["iphone4s-2592x1936.jpg"]?["source"] as? String, "replay")
        XCTAssertEqual(try TestFixtures.bytes(output("Landscape_1.jpg")), try TestFixtures.bytes(photos + "/Landscape_1.jpg"),
                       "byte-identical")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/.Landscape_1.jpg.adjust.xmp"), "the record beside the copy")
        let again = try batch(["--update"])
        XCTAssertEqual(again.records["Landscape_1.jpg"]?["status"] as? String, "current")

        try FileManager.default.removeItem(atPath: out)
        let skipped = try batch(["--unedited", "skip"])
        XCTAssertEqual(skipped.records["Landscape_1.jpg"]?["status"] as? String, "skipped")
        XCTAssertEqual(skipped.records["Landscape_1.jpg"]?["reason"] as? String, "no edit (--unedited skip)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output("Landscape_1.jpg")))

        let previews = try batch(["--max-size", "100"])
        XCTAssertEqual(previews.records["Landscape_1.jpg"]?["source"] as? String, "original", "resized: rendered")
        XCTAssertEqual(previews.records["Landscape_1.jpg"]?["size"] as? [Int], [100, 67])
    }

    /// `--strip-metadata` puts nothing in the image, the provenance included; `--update` reads the
    /// record kept beside it.
    func testStripMetadataKeepsTheRecordOutsideTheImage() throws {
        _ = try batch(["--scale", "1/8", "--strip-metadata"])
        let edited = try TestFixtures.bytes(output("iphone4s-2592x1936.jpg"))
        XCTAssertNil(edited.firstRange(of: Array("adjust".utf8)), "no provenance in the image")
        XCTAssertNil(edited.firstRange(of: Array("Exif".utf8)), "no EXIF")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/.iphone4s-2592x1936.jpg.adjust.xmp"))
        let again = try batch(["--scale", "1/8", "--strip-metadata", "--update"])
        XCTAssertEqual(Set(again.records.values.map { $0["status"] as? String }), ["current"])
        // Kept again: the record moves back into the image, the sidecar goes.
        _ = try batch(["--scale", "1/8"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.iphone4s-2592x1936.jpg.adjust.xmp"))
    }
}
