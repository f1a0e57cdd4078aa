import AdjustKit
import Foundation
import XCTest

/// `adjust fidelity` end to end on folders built here: an original (Landscape_1.jpg as
/// IMG_0001.JPG), an AAE written by `AAEBuilder`, and "Apple's render" made by rendering the same
/// edit under one reading of an unknown. The command must find the three, match the size, find
/// no shift, and name that reading best.
final class FidelityCommandTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-fidelity")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: CLITests.binary), "build the adjust product first")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// `IMG_<number>.JPG` (a copy of `image`) and `IMG_<number>.AAE` holding `adjustments`;
    /// with `appleReading`, also `IMG_E<number>.JPG` rendered by the library under it.
    private func makePhoto(_ number: String, image: String = "Landscape_1.jpg", adjustments: [String],
                           appleReading: AAEAssumptions?, aaeName: String? = nil) throws {
        let original = path("IMG_\(number).JPG")
        try FileManager.default.copyItem(atPath: TestFixtures.image(image), toPath: original)
        let aae = path(aaeName ?? "IMG_\(number).AAE")
        try Data(AAEBuilder.aae(adjustments, masterWidth: 1800, masterHeight: 1200)).write(to: URL(fileURLWithPath: aae))
        guard let appleReading else { return }
        let photo = try PhotoEdit(imagePath: original, editPath: aae, editSource: EditSource(assumptions: appleReading))
        try photo.write(try photo.render().encoded(as: .jpeg, quality: 95), to: path("IMG_E\(number).JPG"))
    }

    private func crop(x: Int, y: Int, width: Int, height: Int, angle: Double = 0) -> String {
        AAEBuilder.adjustment("Crop", settings:
            #"{"xOrigin":\#(x),"yOrigin":\#(y),"width":\#(width),"height":\#(height),"straightenAngle":\#(angle)}"#)
    }

    private func fidelity(_ arguments: String...) throws -> BinaryRun {
        try BinaryRun.run(CLITests.binary, ["fidelity"] + arguments, in: scratch)
    }

    /// The JSON lines of standard output: the photos, then the summary.
    private func records(_ run: BinaryRun) throws -> (photos: [[String: Any]], summary: [String: Any]) {
        let objects = try run.stdout.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
        }
        let summary = try XCTUnwrap(objects.last?["summary"] as? [String: Any], run.stdout)
        return (Array(objects.dropLast()), summary)
    }

    private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    /// The checks every compared photo must pass: same size, no shift, the reading's PSNR highest.
    private func assertCompared(_ record: [String: Any], unknown: String, best: String, alternatives: Int,
                                line: UInt = #line) throws {
        XCTAssertEqual(record["status"] as? String, "ok", "\(record)", line: line)
        let size = try XCTUnwrap(record["size"] as? [String: Any], line: line)
        XCTAssertEqual(size["match"] as? Bool, true, "\(size)", line: line)
        XCTAssertEqual(size["ours"] as? [Int], size["apple"] as? [Int], line: line)
        let readings = try XCTUnwrap(record["alternatives"] as? [[String: Any]], line: line).filter { $0["unknown"] as? String == unknown }
        XCTAssertEqual(readings.count, alternatives, "\(record)", line: line)
        let winner = try XCTUnwrap(readings.first { $0["alternative"] as? String == best }, line: line)
        let winnerShift = try XCTUnwrap(winner["shift"] as? [String: Any], "\(winner)", line: line)
        XCTAssertEqual(try XCTUnwrap(number(winnerShift["dx"]), line: line), 0, accuracy: 0.25, "\(winner)", line: line)
        XCTAssertEqual(try XCTUnwrap(number(winnerShift["dy"]), line: line), 0, accuracy: 0.25, "\(winner)", line: line)
        let winnerPSNR = try XCTUnwrap(number(winner["psnr"]), "\(winner)", line: line)
        XCTAssertGreaterThan(winnerPSNR, 35, "a JPEG of the same render", line: line)
        for other in readings where other["alternative"] as? String != best {
            if let psnr = number(other["psnr"]) {
                XCTAssertLessThan(psnr, winnerPSNR - 5, "\(other) against \(winner)", line: line)
            }
        }
        XCTAssertEqual((record["best"] as? [String: String])?[unknown], best, "\(record)", line: line)
    }

    func testPicksTheStraightenSignApplesRenderWasMadeWith() throws {
        // A centred crop: only U1 is touched.
        try makePhoto("0001", adjustments: [crop(x: 150, y: 100, width: 1500, height: 1000, angle: 0.06)],
                      appleReading: AAEAssumptions(straightenSign: .stored))
        let run = try fidelity(scratch.path, "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: 1 photo: 1 compared, 0 without Apple's render, 0 without an edit, "
                       + "0 without the original, 0 in another format, 0 failed\n")
        let (photos, summary) = try records(run)
        XCTAssertEqual(photos.count, 1)
        let record = photos[0]
        XCTAssertEqual(record["original"] as? String, path("IMG_0001.JPG"))
        XCTAssertEqual(record["edit"] as? String, path("IMG_0001.AAE"))
        XCTAssertEqual(record["appleRender"] as? String, path("IMG_E0001.JPG"))
        try assertCompared(record, unknown: "U1", best: "plus-stored", alternatives: 2)
        XCTAssertNil((record["best"] as? [String: String])?["U2"], "a centred crop does not touch U2: \(record)")
        // The default reading is not Apple's here: its own PSNR is the worse one.
        let defaultPSNR = try XCTUnwrap(number(record["psnr"]), "\(record)")
        XCTAssertLessThan(defaultPSNR, 30)
        XCTAssertEqual(summary["compared"] as? Int, 1)
        XCTAssertEqual(summary["failed"] as? Int, 0)
    }

    func testPicksTheDefaultWhenApplesRenderWasMadeWithIt() throws {
        try makePhoto("0001", adjustments: [crop(x: 150, y: 100, width: 1500, height: 1000, angle: 0.06)],
                      appleReading: .default)
        let run = try fidelity(scratch.path, "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try records(run).photos[0]
        try assertCompared(record, unknown: "U1", best: "minus-stored", alternatives: 2)
        let shift = try XCTUnwrap(record["shift"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(number(shift["dx"])), 0, accuracy: 0.25)
        XCTAssertEqual(try XCTUnwrap(number(shift["dy"])), 0, accuracy: 0.25)
        XCTAssertGreaterThan(try XCTUnwrap(number(record["psnr"])), 35)
    }

    func testPicksTheCropOriginApplesRenderWasMadeWith() throws {
        // Not vertically centred (rows 100…799 from the top under one reading, 400…1099 under the other).
        try makePhoto("0001", adjustments: [crop(x: 200, y: 100, width: 1200, height: 700)],
                      appleReading: AAEAssumptions(cropOrigin: .top))
        let run = try fidelity(scratch.path, "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try records(run).photos[0]
        try assertCompared(record, unknown: "U2", best: "top", alternatives: 2)
        XCTAssertNil((record["best"] as? [String: String])?["U1"], "no angle: U1 untouched: \(record)")
    }

    func testAnOrientationReadingOfAnotherSizeHasNoPSNR() throws {
        // Landscape_6.jpg has EXIF orientation 6; an Orientation adjustment of 3 replaces it
        // (stored size) or composes with it (turned a quarter): the readings differ in size.
        try makePhoto("0001", image: "Landscape_6.jpg",
                      adjustments: [AAEBuilder.adjustment("Orientation", settings: #"{"value":3}"#)],
                      appleReading: AAEAssumptions(orientation: .composesWithFile))
        let run = try fidelity(scratch.path, "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try records(run).photos[0]
        XCTAssertEqual(record["status"] as? String, "ok")
        XCTAssertEqual((record["size"] as? [String: Any])?["match"] as? Bool, false, "\(record)")
        XCTAssertTrue(record["psnr"] is NSNull, "\(record)")
        let readings = try XCTUnwrap(record["alternatives"] as? [[String: Any]]).filter { $0["unknown"] as? String == "U4" }
        XCTAssertEqual(readings.map { $0["alternative"] as? String }, ["replaces", "composes"])
        XCTAssertTrue(readings[0]["psnr"] is NSNull)
        XCTAssertTrue((readings[0]["note"] as? String)?.contains("differs from Apple's") == true, "\(readings[0])")
        XCTAssertGreaterThan(try XCTUnwrap(number(readings[1]["psnr"])), 35)
        XCTAssertEqual((record["best"] as? [String: String])?["U4"], "composes")
    }

    func testSkipsPhotosWithoutARenderOrAnEditAndReportsFailures() throws {
        try makePhoto("0001", adjustments: [crop(x: 150, y: 100, width: 1500, height: 1000, angle: 0.06)],
                      appleReading: .default, aaeName: "img_0001.aae")   // any case
        try makePhoto("0002", adjustments: [crop(x: 0, y: 0, width: 900, height: 600)], appleReading: nil)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: path("IMG_0003.JPG"))
        try makePhoto("0004", adjustments: [crop(x: 0, y: 0, width: 900, height: 600)], appleReading: nil)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path("IMG_E0004.jpg")))

        let run = try fidelity(scratch.path, "--json", "-j", "2")
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n"), [
            "adjust: error: \(path("IMG_E0004.jpg")): not a PNG or JPEG (or HEIC) file",
            "adjust: 4 photos: 1 compared, 1 without Apple's render, 1 without an edit, 0 without the original, 0 in another format, 1 failed",
        ])
        let (photos, summary) = try records(run)
        XCTAssertEqual(photos.map { $0["original"] as? String }, ["0001", "0002", "0003", "0004"].map { path("IMG_\($0).JPG") },
                       "each original once, in name order; IMG_E files are not originals")
        XCTAssertEqual(photos.map { $0["status"] as? String }, ["ok", "no-render", "no-edit", "failed"])
        XCTAssertEqual(photos[0]["edit"] as? String, path("img_0001.aae"))
        XCTAssertEqual(photos[3]["error"] as? String, "\(path("IMG_E0004.jpg")): not a PNG or JPEG (or HEIC) file")
        XCTAssertEqual(summary["photos"] as? Int, 4)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["jobs"] as? Int, 2)
    }

    func testTheIPhoneAdjustmentsFolderLayout() throws {
        let folder = scratch.appendingPathComponent("Adjustments")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let original = folder.appendingPathComponent("IMG_0007.JPG").path
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: original)
        let plist = folder.appendingPathComponent("Adjustments.plist").path
        try Data(AAEBuilder.aae([crop(x: 150, y: 100, width: 1500, height: 1000, angle: 0.06)], format: .binary,
                                masterWidth: 1800, masterHeight: 1200)).write(to: URL(fileURLWithPath: plist))
        let photo = try PhotoEdit(imagePath: original, editPath: plist)
        try photo.write(try photo.render().encoded(as: .jpeg, quality: 95),
                        to: folder.appendingPathComponent("FullSizeRender.jpg").path)

        let run = try fidelity(folder.path, "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        let photos = try records(run).photos
        XCTAssertEqual(photos.count, 1, "FullSizeRender is not an original: \(photos)")
        XCTAssertEqual(photos[0]["edit"] as? String, plist)
        XCTAssertEqual(photos[0]["appleRender"] as? String, folder.appendingPathComponent("FullSizeRender.jpg").path)
        try assertCompared(photos[0], unknown: "U1", best: "minus-stored", alternatives: 2)

        // Without the original: reported, not failed.
        try FileManager.default.removeItem(atPath: original)
        let bare = try fidelity(folder.path, "--json")
        XCTAssertEqual(bare.status, 0, bare.stderr)
        XCTAssertEqual(try records(bare).photos.map { $0["status"] as? String }, ["no-original"])
    }

    /// `IMG_<number>.JPG` with an edit of `ours`, and "Apple's render" made by rendering the photo
    /// with `apples` instead: a render of a milder edit makes adjust's replay worse than unedited.
    private func makePhoto(_ number: String, ours: [String], apples: [String]) throws {
        try makePhoto(number, adjustments: ours, appleReading: nil)
        let appleEdit = path("apple-\(number).aae")
        try Data(AAEBuilder.aae(apples, masterWidth: 1800, masterHeight: 1200)).write(to: URL(fileURLWithPath: appleEdit))
        let photo = try PhotoEdit(imagePath: path("IMG_\(number).JPG"), editPath: appleEdit)
        try photo.write(try photo.render().encoded(as: .jpeg, quality: 95), to: path("IMG_E\(number).JPG"))
        try FileManager.default.removeItem(atPath: appleEdit)
    }

    private let blackAndWhite = AAEBuilder.adjustment("SmartBlackAndWhite", settings: #"{"inputBlackAndWhite":0.5}"#)
    private let slightLight = AAEBuilder.adjustment("SmartTone", settings: #"{"inputLight":0.05}"#)

    func testAPhotoWorseThanUneditedIsWorseAndFailsOnlyUnderStrict() throws {
        // 0001: ours is black and white, Apple's barely touched: far worse than leaving it alone.
        // 0002: Apple's render is ours: a large gain, "ok".
        try makePhoto("0001", ours: [blackAndWhite], apples: [slightLight])
        try makePhoto("0002", ours: [blackAndWhite], apples: [blackAndWhite])

        let run = try fidelity(scratch.path, "--json")
        XCTAssertEqual(run.status, 0, "worse alone does not fail without --strict: \(run.stderr)")
        let (photos, summary) = try records(run)
        XCTAssertEqual(photos.map { $0["status"] as? String }, ["worse", "ok"], "\(photos)")
        XCTAssertLessThan(try XCTUnwrap(number(photos[0]["gain"])), -3, "\(photos[0])")
        XCTAssertGreaterThan(try XCTUnwrap(number(photos[1]["gain"])), 3, "\(photos[1])")
        XCTAssertEqual(summary["compared"] as? Int, 2, "worse photos are compared photos")
        XCTAssertEqual(summary["worse"] as? Int, 1)

        let strict = try fidelity(scratch.path, "--json", "--strict")
        XCTAssertEqual(strict.status, 65, strict.stderr)
        XCTAssertEqual(try records(strict).summary["worse"] as? Int, 1)

        let text = try fidelity(scratch.path)
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("\(path("IMG_0001.JPG"))  worse  size ") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("\(path("IMG_0002.JPG"))  ok  size ") }, text.stdout)
        XCTAssertTrue(lines.last?.hasPrefix("summary  2 compared  1 worse  mean PSNR ") == true, text.stdout)

        // Without the worse photo, --strict passes.
        for name in ["IMG_0001.JPG", "IMG_0001.AAE", "IMG_E0001.JPG"] { try FileManager.default.removeItem(atPath: path(name)) }
        let clean = try fidelity(scratch.path, "--json", "--strict")
        XCTAssertEqual(clean.status, 0, clean.stderr)
        let cleanRecords = try records(clean)
        XCTAssertEqual(cleanRecords.photos.map { $0["status"] as? String }, ["ok"])
        XCTAssertEqual(cleanRecords.summary["worse"] as? Int, 0)
    }

    func testTextReportAndErrors() throws {
        try makePhoto("0001", adjustments: [crop(x: 150, y: 100, width: 1500, height: 1000, angle: 0.06)],
                      appleReading: AAEAssumptions(straightenSign: .stored))
        let run = try fidelity(scratch.path)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, run.stdout)
        XCTAssertTrue(lines[0].hasPrefix("\(path("IMG_0001.JPG"))  ok  size 1500×1000 = Apple's  shift "), run.stdout)
        XCTAssertTrue(lines[1].hasPrefix("    sidecar  adjustments: Crop  colour: "), run.stdout)
        XCTAssertTrue(lines[2].hasPrefix("    U1 minus-stored (default)  PSNR "), run.stdout)
        XCTAssertFalse(lines[2].hasSuffix("<- best"), run.stdout)
        XCTAssertTrue(lines[3].hasPrefix("    U1 plus-stored"), run.stdout)
        XCTAssertTrue(lines[3].hasSuffix("<- best"), run.stdout)
        XCTAssertTrue(lines[4].hasPrefix("summary  1 compared  0 worse  mean PSNR "), run.stdout)

        let missing = try fidelity(path("nowhere"))
        XCTAssertEqual(missing.status, 65)
        XCTAssertTrue(missing.stderr.hasPrefix("adjust: error: \(path("nowhere")): no such file or folder\n"), missing.stderr)

        let usage = try fidelity()
        XCTAssertEqual(usage.status, 64, usage.stderr)
        let badJobs = try fidelity(scratch.path, "-j", "0")
        XCTAssertEqual(badJobs.status, 64, badJobs.stderr)
    }
}
