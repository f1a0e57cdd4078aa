import AdjustKit
import Foundation
import XCTest

/// Issue 20 scopes 1–3: `batch` finds every edit where users keep them — a Photos library (named
/// by the original file names in its database), a DCIM copy, an extracted iPhone backup — never
/// renders Apple's renders or sidecars as photos, counts what it leaves, copies unedited photos,
/// and writes Apple's render where the replay falls short (`--apple-render`).
final class PhotosLayoutBatchTests: XCTestCase {
    private var scratch: URL!
    private static let library = TestFixtures.path("Fixtures/photos-library/Test-10.15.7.photoslibrary")

    override func setUpWithError() throws { scratch = try ScratchFolder.make("layout-batch") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// Runs batch with --json; the records by output name (or input), and the summary.
    private func batch(_ arguments: [String], in folder: URL? = nil, status: Int32 = 0,
                       line: UInt = #line) throws -> (records: [String: [String: Any]], summary: [String: Any], stderr: String) {
        let run = try BinaryRun.run(BatchTests.binary, ["batch"] + arguments + ["--json"], in: folder ?? scratch)
        XCTAssertEqual(run.status, status, run.stderr, line: line)
        var records: [String: [String: Any]] = [:], summary: [String: Any] = [:]
        for text in run.stdout.split(separator: "\n") {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            if let found = object["summary"] as? [String: Any] { summary = found; continue }
            let key = (object["output"] as? String).map { ($0 as NSString).lastPathComponent } ?? (object["input"] as? String ?? "?")
            records[key] = object
        }
        return (records, summary, run.stderr)
    }

    func testAPhotosLibraryIsRenderedUnderItsOriginalNames() throws {
        let result = try batch([Self.library, "--out", path("out")])
        // Names over every asset of the database (issue 29): "Frítest.jpg" belongs to an older asset
        // whose original is not downloaded, so this one is "Frítest (D1D4040D)" now and in every later run.
        let written = result.records.filter { $0.value["status"] as? String != "missing" }
        XCTAssertEqual(Set(written.keys), ["Tulips.jpg", "wedding.jpg", "IMG_3092.jpg", "Frítest (D1D4040D).jpg",
                                           "St James Park.jpg", "Pumpkins3.jpg", "Pumkins2.jpg", "Jellyfish1.mp4"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out"))
                        .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".xmp") }.count, 8,
                       "no output from a render or the trashed photo; the video copied (its Photos metadata beside it)")
        XCTAssertEqual(try TestFixtures.bytes(path("out/Jellyfish1.mp4")),
                       try TestFixtures.bytes(Self.library + "/originals/D/D1359D09-1373-4F3B-B0E3-1A4DE573E4A3.mp4"))
        XCTAssertEqual(result.records["St James Park.jpg"]?["source"] as? String, "apple-render", "another app's edit")
        XCTAssertEqual(result.records["wedding.jpg"]?["source"] as? String, "replay")
        XCTAssertEqual(result.records["Tulips.jpg"]?["source"] as? String, "apple-render", "3DDramaticCool is approximate")
        for name in ["Pumpkins3.jpg", "Pumkins2.jpg"] {
            XCTAssertEqual(result.records[name]?["source"] as? String, "copy", name)
            let input = try XCTUnwrap(result.records[name]?["input"] as? String)
            // The picture byte for byte; the XMP carries what the user set in Photos (LibraryMetadataTests).
            XCTAssertEqual(LibraryMetadataTests.entropyCodedData(try TestFixtures.bytes(path("out/" + name))),
                           LibraryMetadataTests.entropyCodedData(try TestFixtures.bytes(input)), "byte-identical picture: \(name)")
        }
        let ignored = try XCTUnwrap(result.summary["ignored"] as? [String: Int])
        XCTAssertEqual(ignored["videos"], 0, "copied, not ignored")
        XCTAssertEqual(ignored["trashed"], 1, "wedding_edited.jpg is in the trash")
        XCTAssertEqual(ignored["editsWithoutOriginal"], 1)
        XCTAssertTrue(result.stderr.contains("have no original on disk"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Frítest.jpg (1793FAAB-DE75-4E25-886C-2BD66C780D6A)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("; 6 Apple renders, 1 photo in the trash, 1 edit without its original ignored"),
                      result.stderr)
        let missing = result.records.values.filter { $0["status"] as? String == "missing" }.compactMap { $0["input"] as? String }
        XCTAssertTrue(missing.contains("Frítest.jpg (1793FAAB-DE75-4E25-886C-2BD66C780D6A)"), "\(missing)")

        let trashed = try batch([Self.library, "--out", path("all"), "--include-trashed"])
        XCTAssertNotNil(trashed.records["wedding_edited.jpg"], "\(trashed.records.keys)")
    }

    /// `--apple-render never` fails what cannot be replayed; `prefer` takes Apple's render wherever
    /// there is one, converted to the requested size.
    func testAppleRenderPolicies() throws {
        // Another app's edit, Apple's render refused: the original, with a warning (issue 29), not a failure.
        let never = try batch([Self.library, "--out", path("never"), "--apple-render", "never"])
        XCTAssertEqual(never.records["St James Park.jpg"]?["source"] as? String, "copy")
        XCTAssertTrue(never.stderr.contains("St James Park.jpg: "), never.stderr)
        XCTAssertTrue(never.stderr.contains("the original is written (--strict refuses)"), never.stderr)
        let strict = try batch([Self.library, "--out", path("strict"), "--apple-render", "never", "--strict"], status: 65)
        XCTAssertEqual(strict.records.values.first { ($0["input"] as? String ?? "").contains("DC99FBDD") }?["status"] as? String, "failed")
        let prefer = try batch([Self.library, "--out", path("prefer"), "--apple-render", "prefer", "--max-size", "300"])
        XCTAssertEqual(prefer.records["wedding.jpg"]?["source"] as? String, "apple-render")
        XCTAssertEqual(prefer.records["wedding.jpg"]?["size"] as? [Int], [300, 260], "Apple's 1526×1325 render, resized")
        XCTAssertEqual(prefer.records["Pumpkins3.jpg"]?["source"] as? String, "original", "no edit: resized, not a render")
    }

    /// An extracted iPhone backup: each photo's edit is in PhotoData/Mutations; the renders there
    /// are counted, not rendered.
    func testAnIPhoneBackupFindsItsMutations() throws {
        let media = TestFixtures.path("Fixtures/apple-renders/iphone-backup/Media")
        let result = try batch([media, "--out", path("backup"), "--apple-render", "never"])
        XCTAssertEqual(Set(result.records.keys), ["IMG_0002.jpg", "IMG_0004.jpg", "IMG_0005.jpg", "IMG_0007.jpg"])
        for record in result.records.values {
            XCTAssertEqual(record["source"] as? String, "replay")
            XCTAssertTrue((record["editFile"] as? String ?? "").hasSuffix("Adjustments/Adjustments.plist"), "\(record)")
        }
        XCTAssertEqual(result.records["IMG_0005.jpg"]?["size"] as? [Int], [1365, 2048], "the user's turn (orientation 5)")
        let ignored = try XCTUnwrap(result.summary["ignored"] as? [String: Int])
        XCTAssertEqual(ignored["appleRenders"], 4)
    }

    /// A DCIM folder with photos, their .AAE, Apple's IMG_E renders and a video: `batch *` inside
    /// it gives the same outputs as `batch .`; nothing but the photos takes an output name.
    func testBatchStarInADCIMFolderIsBatchDot() throws {
        let dcim = scratch.appendingPathComponent("DCIM/100APPLE")
        try FileManager.default.createDirectory(at: dcim, withIntermediateDirectories: true)
        for folder in ["export-macos13", "portrait-heic"] {
            let source = TestFixtures.path("Fixtures/apple-renders/\(folder)")
            for name in try FileManager.default.contentsOfDirectory(atPath: source) {
                try FileManager.default.copyItem(atPath: source + "/" + name, toPath: dcim.appendingPathComponent(name).path)
            }
        }
        try FileManager.default.copyItem(atPath: Self.library + "/originals/D/D1359D09-1373-4F3B-B0E3-1A4DE573E4A3.mp4",
                                        toPath: dcim.appendingPathComponent("IMG_0001.MOV").path)
        // A photo whose edit holds an adjustment this version cannot replay, with Apple's render
        // beside it: --apple-render auto writes the render.
        try FileManager.default.copyItem(atPath: dcim.appendingPathComponent("IMG_1994.JPG").path,
                                        toPath: dcim.appendingPathComponent("IMG_2000.JPG").path)
        try FileManager.default.copyItem(atPath: dcim.appendingPathComponent("IMG_E1994.jpeg").path,
                                        toPath: dcim.appendingPathComponent("IMG_E2000.jpeg").path)
        try Data(AAEBuilder.aae([AAEBuilder.adjustment("RKRetouchOperation"),
                                 AAEBuilder.adjustment("SmartColor", settings: #"{"inputColor":-0.5}"#)],
                                masterWidth: 4416, masterHeight: 3312))
            .write(to: dcim.appendingPathComponent("IMG_2000.AAE"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dcim.path).sorted()
        XCTAssertEqual(names.count, 11)
        let star = try batch(names + ["--out", path("star"), "--max-size", "256"], in: dcim)
        let dot = try batch([".", "--out", path("dot"), "--max-size", "256"], in: dcim)
        XCTAssertEqual(Set(star.records.keys), ["IMG_1994.jpg", "IMG_2000.jpg", "IMG_3582.jpg", "IMG_0001.mov"])
        XCTAssertEqual(Set(dot.records.keys), Set(star.records.keys))
        for name in star.records.keys {
            XCTAssertEqual(try TestFixtures.bytes(path("star/" + name)), try TestFixtures.bytes(path("dot/" + name)), name)
        }
        XCTAssertEqual(star.summary["ignored"] as? [String: Int], dot.summary["ignored"] as? [String: Int])
        XCTAssertEqual(star.summary["ignored"] as? [String: Int],
                       ["videos": 0, "edits": 4, "appleRenders": 3, "trashed": 0, "editsWithoutOriginal": 0, "other": 0],
                       "the video is copied (issue 29), not ignored")
        XCTAssertEqual(star.records["IMG_2000.jpg"]?["source"] as? String, "apple-render", "RKRetouchOperation is not replayed: auto")
        XCTAssertEqual(star.records["IMG_2000.jpg"]?["notReplayed"] as? [String], ["RKRetouchOperation"])
        // DepthEffect and the Smart adjustments are approximate: Photos' render is the output (issue 28).
        XCTAssertEqual(star.records["IMG_3582.jpg"]?["source"] as? String, "apple-render")
        XCTAssertEqual(star.records["IMG_3582.jpg"]?["sourceReason"] as? String, "approximate")
        XCTAssertEqual(star.records["IMG_1994.jpg"]?["sourceReason"] as? String, "approximate")
    }
}
