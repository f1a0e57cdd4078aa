import AdjustKit
import Foundation
import XCTest

/// Issues 28 (scope 1) and 29 (scopes 2, 5): a batch over a real Photos library with the defaults
/// gives the whole library as Photos shows it — Photos' own render wherever the replay would be
/// approximate, videos and Live Photo motion copied beside their stills, every asset without
/// its original named — and stops cleanly on a full disk. Expected names and files come from the
/// database through Python's sqlite3 (its own query), never through the walker under test.
final class LibraryBatchTests: XCTestCase {
    private var scratch: URL!
    private static func library(_ name: String) -> String { TestFixtures.path("Fixtures/photos-library/\(name).photoslibrary") }

    override func setUpWithError() throws { scratch = try ScratchFolder.make("library-batch") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// Runs batch with --json; the records by output file name (a record without output: by input).
    private func batch(_ arguments: [String], status: Int32 = 0, line: UInt = #line) throws
        -> (records: [String: [String: Any]], all: [[String: Any]], summary: [String: Any], stderr: String) {
        let run = try BinaryRun.run(BatchTests.binary, ["batch"] + arguments + ["--json"], in: scratch)
        XCTAssertEqual(run.status, status, run.stderr, line: line)
        var records: [String: [String: Any]] = [:], all: [[String: Any]] = [], summary: [String: Any] = [:]
        for text in run.stdout.split(separator: "\n") {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            if let found = object["summary"] as? [String: Any] { summary = found; continue }
            all.append(object)
            let key = (object["output"] as? String).map { ($0 as NSString).lastPathComponent } ?? (object["input"] as? String ?? "?")
            records[key] = object
        }
        return (records, all, summary, run.stderr)
    }

    /// The assets of the library's database, read with Python's sqlite3 from a private copy (the
    /// WAL holds recent rows): uuid → (original file name, kind, trashed, directory, file name).
    private func assets(_ library: String) throws -> [String: (name: String, kind: Int, trashed: Bool, file: String)] {
        let copy = path("db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: library + "/database/Photos.sqlite" + suffix) {
            try FileManager.default.copyItem(atPath: library + "/database/Photos.sqlite" + suffix, toPath: copy + "/Photos.sqlite" + suffix)
        }
        let script = """
        import sqlite3, sys
        c = sqlite3.connect(sys.argv[1])
        t = "ZASSET" if c.execute("select count(*) from sqlite_master where name='ZASSET'").fetchone()[0] else "ZGENERICASSET"
        for r in c.execute(f"select a.ZUUID, b.ZORIGINALFILENAME, a.ZKIND, a.ZTRASHEDSTATE, a.ZDIRECTORY, a.ZFILENAME from {t} a left join ZADDITIONALASSETATTRIBUTES b on b.ZASSET = a.Z_PK"):
            print("\\t".join("" if v is None else str(v) for v in r))
        """
        let run = try BinaryRun.run("/usr/bin/env", ["python3", "-c", script, copy + "/Photos.sqlite"])
        XCTAssertEqual(run.status, 0, run.stderr)
        var result: [String: (name: String, kind: Int, trashed: Bool, file: String)] = [:]
        for line in run.stdout.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            result[f[0]] = (f[1], Int(f[2]) ?? -1, f[3] == "1", "originals/\(f[4])/\(f[5])")
        }
        return result
    }

    /// Every non-trashed asset with an original comes out under its Photos name (a video as a
    /// byte copy); every one without is named in a `missing` record; the library is untouched.
    func testEveryAssetOfEachSharedLibraryComesOutOrIsNamed() throws {
        for name in ["Test-10.15.7", "Test-14.6.0", "Test-Media-Types-15.7.2", "TestTimeWarp-13.1.0"] {
            let library = Self.library(name), out = path("out-" + name)
            let before = try PhotoLayoutTestHelpers.digestTree(library)
            let result = try batch([library, "--out", out, "--max-size", "64"])
            XCTAssertEqual(try PhotoLayoutTestHelpers.digestTree(library), before, "\(name): the library is never written")
            let outputs = Set(try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }
                .map { ($0 as NSString).deletingPathExtension })
            let missingRecords = result.all.filter { $0["status"] as? String == "missing" }.compactMap { $0["input"] as? String }
            for (uuid, asset) in try assets(library) where !asset.trashed {
                let stem = (asset.name as NSString).deletingPathExtension
                if FileManager.default.fileExists(atPath: library + "/" + asset.file) {
                    // The plain name, or the name with its UUID's first 8 digits where names collide.
                    XCTAssertTrue(outputs.contains(stem) || outputs.contains("\(stem) (\(uuid.prefix(8)))"),
                                  "\(name): \(asset.name) (\(uuid)) has no output among \(outputs.sorted())")
                } else {
                    XCTAssertTrue(missingRecords.contains("\(asset.name) (\(uuid))"), "\(name): \(asset.name) (\(uuid)) is not named")
                }
            }
            XCTAssertEqual(result.summary["missing"] as? Int, missingRecords.isEmpty ? nil : missingRecords.count, name)
        }
    }

    /// Live Photos: the motion beside its still under the same stem, byte for byte; a video as
    /// it is; a screenshot PNG copied; an unedited HEIC stays HEIC; the portrait's camera-time
    /// adjustments (`UUID_5.aae`) are its edit.
    func testLivePhotosVideosAndScreenshotsComeOutWhole() throws {
        let library = Self.library("Test-Media-Types-15.7.2"), out = path("media")
        let result = try batch([library, "--out", out])
        let motion = try XCTUnwrap(result.records["IMG_4580.mov"], "\(result.records.keys.sorted())")
        XCTAssertEqual(try TestFixtures.bytes(out + "/IMG_4580.mov"),
                       try TestFixtures.bytes(library + "/originals/D/D562F353-7A22-4367-9A7F-153A4D9F149C_3.mov"))
        XCTAssertEqual(motion["source"] as? String, "copy")
        XCTAssertEqual(try TestFixtures.bytes(out + "/IMG_4580.heic"),
                       try TestFixtures.bytes(library + "/originals/D/D562F353-7A22-4367-9A7F-153A4D9F149C.heic"),
                       "an unedited HEIC, nothing asked: copied as HEIC")
        XCTAssertEqual(try TestFixtures.bytes(out + "/IMG_3539.mov"),
                       try TestFixtures.bytes(library + "/originals/4/420451DF-5299-41C1-8B71-83E1598D6F5C.mov"), "a time-lapse video")
        XCTAssertEqual(try TestFixtures.bytes(out + "/IMG_2908.png"),
                       try TestFixtures.bytes(library + "/originals/A/A344F711-313A-4D64-AA6D-108013A43DD4.png"), "a screenshot")
        let portrait = try XCTUnwrap(result.records["IMG_3582.jpg"], "\(result.records.keys.sorted())")
        XCTAssertEqual(portrait["editFile"] as? String, library + "/originals/E/EC19EA1A-FC91-449C-8925-B13D863E2EDB_5.aae")
        XCTAssertEqual(portrait["chain"] as? [String], ["DepthEffect"])
        XCTAssertNotNil(result.records["IMG_3582.mov"], "the portrait is a Live Photo too")

        let skipped = try batch([library, "--out", path("no-videos"), "--videos", "skip"])
        XCTAssertFalse(skipped.records.keys.contains { $0.hasSuffix(".mov") })
        XCTAssertEqual((skipped.summary["ignored"] as? [String: Int])?["videos"], 3, "2 Live Photo motions, 1 time-lapse")
    }

    /// `--apple-render auto`: Photos' render wherever a step is approximate (byte for byte, a
    /// HEIC render as HEIC); an exact crop replayed; the run says how many and why.
    func testApproximateEditsComeFromApplesRenders() throws {
        let library = Self.library("Test-14.6.0"), out = path("looks")
        let result = try batch([library, "--out", out])
        let tulips = try XCTUnwrap(result.records["Tulips.jpg"], "\(result.records.keys.sorted())")
        XCTAssertEqual(tulips["source"] as? String, "apple-render")
        XCTAssertEqual(tulips["sourceReason"] as? String, "approximate")
        // Apple's render copied: its picture byte for byte, its XMP carrying what the user set in Photos.
        XCTAssertEqual(LibraryMetadataTests.entropyCodedData(try TestFixtures.bytes(out + "/Tulips.jpg")),
                       LibraryMetadataTests.entropyCodedData(try TestFixtures.bytes(
                        library + "/resources/renders/6/6191423D-8DB8-4D4C-92BE-9BBBA308AAC4_1_201_a.jpeg")))
        let heic = try XCTUnwrap(result.records["IMG_3092.heic"], "\(result.records.keys.sorted())")
        XCTAssertEqual(heic["sourceReason"] as? String, "approximate")
        XCTAssertEqual(try TestFixtures.bytes(out + "/IMG_3092.heic"),
                       try TestFixtures.bytes(library + "/resources/renders/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266_1_201_a.heic"),
                       "Apple's HEIC render, copied as HEIC")
        XCTAssertEqual(result.records["St James Park.jpg"]?["sourceReason"] as? String, "cannot-replay")
        let crop = try XCTUnwrap(result.records["wedding.jpg"])
        XCTAssertEqual(crop["source"] as? String, "replay", "a crop is exact: replayed from the original")
        let compare = try BinaryRun.run(BatchTests.binary, ["compare", out + "/wedding.jpg",
                                                            library + "/resources/renders/E/E9BC5C36-7CD1-40A1-A72B-8B8FAC227D51_1_201_a.jpeg",
                                                            "--min-psnr", "30"])
        XCTAssertEqual(compare.status, 0, compare.stdout + compare.stderr)
        XCTAssertEqual(result.summary["fromAppleRenders"] as? [String: Int], ["approximate": 2, "cannot-replay": 1])
        XCTAssertTrue(result.stderr.contains("adjust: 3 photos from Apple's renders: 2 approximate replay, 1 edit not replayable"),
                      result.stderr)

        let never = try batch([library, "--out", path("never"), "--apple-render", "never"])
        XCTAssertEqual(never.records["Tulips.jpg"]?["source"] as? String, "replay")
        XCTAssertEqual(never.records["St James Park.jpg"]?["source"] as? String, "copy", "another app's edit: the original, said")
        XCTAssertNil(never.summary["fromAppleRenders"])
    }

    /// An edit of which nothing can be replayed, with no render beside it: the original with a
    /// warning, not a failure; `--strict` fails it.
    func testAnUnreplayableEditWithoutARenderGivesTheOriginal() throws {
        let folder = path("dcim")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: folder + "/IMG_0001.JPG")
        let foreign = AAEBuilder.plist(data: [1, 2, 3], format: .xml, identifier: "com.example.editor", editor: "com.example.Editor")
        try Data(foreign).write(to: URL(fileURLWithPath: folder + "/IMG_0001.AAE"))
        let result = try batch([folder, "--out", path("o1")])
        let record = try XCTUnwrap(result.records["IMG_0001.jpg"], "\(result.records.keys)")
        XCTAssertEqual(record["source"] as? String, "copy")
        XCTAssertTrue(result.stderr.contains("the original is written (--strict refuses)"), result.stderr)
        XCTAssertEqual(try TestFixtures.bytes(path("o1/IMG_0001.jpg")), try TestFixtures.bytes(folder + "/IMG_0001.JPG"))
        let strict = try batch([folder, "--out", path("o2"), "--strict"], status: 65)
        XCTAssertEqual(strict.records["IMG_0001.JPG"]?["status"] as? String ?? strict.all.first?["status"] as? String, "failed")
    }

    /// A copied video whose original is gone is an orphan like any output: `--prune` removes it.
    func testACopiedVideoWhoseOriginalIsGoneIsPruned() throws {
        let folder = path("roll")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: folder + "/IMG_0001.JPG")
        try Data((0..<4096).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: folder + "/IMG_0002.MOV"))   // copied, never decoded
        _ = try batch([folder, "--out", path("roll-out")])
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("roll-out/IMG_0002.mov")))
        try FileManager.default.removeItem(atPath: folder + "/IMG_0002.MOV")
        let pruned = try batch([folder, "--out", path("roll-out"), "--update", "--prune"])
        XCTAssertEqual(pruned.records["IMG_0002.mov"]?["status"] as? String, "pruned", "\(pruned.records)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("roll-out/IMG_0002.mov")))
        XCTAssertEqual(pruned.records["IMG_0001.jpg"]?["status"] as? String, "current")
    }

    /// A full disk stops the run at the first failure with one line and the summary (exit 73),
    /// leaving no partial file; the next run with --update finishes once there is room.
    func testAFullDiskStopsTheRunCleanly() throws {
        let disk = path("small")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mount = try BinaryRun.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1200k", "tmpfs", disk])
        XCTAssertEqual(mount.status, 0, "a 1.2 MB tmpfs for the test (the tests run as root): \(mount.stderr)")
        guard mount.status == 0 else { return }
        defer { _ = try? BinaryRun.run("/bin/umount", [disk]) }
        let photos = path("photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for index in 1...8 {
            try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_\(index).jpg"), toPath: photos + "/p\(index).jpg")
        }
        let result = try batch([photos, "--out", disk + "/out", "-j", "1"], status: 73)
        let stops = result.stderr.split(separator: "\n").filter { $0.hasPrefix("adjust: stopped:") }
        XCTAssertEqual(stops.count, 1, result.stderr)
        XCTAssertTrue(stops.first?.contains(String(cString: strerror(ENOSPC))) == true, result.stderr)
        XCTAssertTrue(result.stderr.contains("files: "), "the summary is printed: \(result.stderr)")
        XCTAssertLessThan(result.all.count, 8, "the run stopped before the end")
        let left = try FileManager.default.contentsOfDirectory(atPath: disk + "/out")
        XCTAssertFalse(left.contains { $0.hasPrefix(".adjust-tmp-") }, "no partial file: \(left)")
        for name in left where name.hasSuffix(".jpg") {
            XCTAssertEqual(try TestFixtures.bytes(disk + "/out/" + name), try TestFixtures.bytes(photos + "/" + name), name)
        }
    }
}

/// Small file-system helpers of these tests.
enum PhotoLayoutTestHelpers {
    /// Every file under `folder` (relative path → SHA-256): a library compared before and after a run.
    static func digestTree(_ folder: String) throws -> [String: String] {
        var digests: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: folder)
        while let relative = walker?.nextObject() as? String {
            let full = folder + "/" + relative
            guard !isFolder(full) else { continue }
            digests[relative] = try SHA256.hex(ofFileAt: full)
        }
        return digests
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// Issue 29 scope 5 and 6: a run that says what happened, in the user's names; `render -o -`.
final class BatchSaysWhatHappenedTests: XCTestCase {
    private var scratch: URL!
    private static let library = TestFixtures.path("Fixtures/photos-library/Test-10.15.7.photoslibrary")

    override func setUpWithError() throws { scratch = try ScratchFolder.make("says") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }
    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    func testMessagesUseTheUsersNamesAndEndWithASummaryInPlainWords() throws {
        let run = try BinaryRun.run(BatchTests.binary, ["batch", Self.library, "--out", path("out")])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("adjust: ok Tulips.jpg -> \(path("out"))/Tulips.jpg"), run.stderr)
        XCTAssertFalse(lines.contains { $0.hasPrefix("adjust: ok ") && $0.contains("6191423D") }, "no UUID where a name is known")
        // The missing assets of the trimmed fixture, counted with Python's own query would be
        // LibraryBatchTests' job; here: the plain-words line names what was made from what.
        XCTAssertTrue(lines.contains { $0.hasPrefix("adjust: replayed 1 edit and used 4 of Photos' renders; copied 2 photos and 1 video; ")
            && $0.contains("assets have no original on disk") }, run.stderr)
        XCTAssertTrue(lines.last?.hasPrefix("adjust: 8 files: ") == true, "the counts last: \(run.stderr)")
        for line in lines where line.hasPrefix("adjust: note: ") && !line.contains("no original on disk") && !line.contains("are named") {
            XCTAssertLessThan(line.count, 200, "a note is one short line: \(line)")
        }
    }

    func testQuietSaysOnlyWarningsFailuresAndTheSummary() throws {
        let run = try BinaryRun.run(BatchTests.binary, ["batch", Self.library, "--out", path("q"), "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertFalse(lines.contains { $0.hasPrefix("adjust: ok ") || $0.hasPrefix("adjust: no-edit ") || $0.hasPrefix("adjust: note:") },
                       run.stderr)
        XCTAssertTrue(lines.last?.hasPrefix("adjust: 8 files: ") == true, run.stderr)
    }

    func testOutputBesideNamedInputsIsRefusedAndUneditedSkipSaysWhy() throws {
        let folder = path("photos")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: folder + "/IMG_0001.JPG")
        let glob = try BinaryRun.run(BatchTests.binary, ["batch", "IMG_0001.JPG", "--out", "."], in: URL(fileURLWithPath: folder))
        XCTAssertEqual(glob.status, 64, glob.stderr)
        XCTAssertTrue(glob.stderr.contains("--out . is the folder of the input IMG_0001.JPG"), glob.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["IMG_0001.JPG"], "nothing written")

        let skip = try BinaryRun.run(BatchTests.binary, ["batch", folder, "--out", path("s"), "--unedited", "skip"])
        XCTAssertEqual(skip.status, 0, skip.stderr)
        XCTAssertTrue(skip.stderr.contains("adjust: skipped \(folder)/IMG_0001.JPG: no edit (--unedited skip)"), skip.stderr)
        XCTAssertFalse(skip.stderr.contains("exists)"), "the output does not exist: \(skip.stderr)")
    }

    func testABrokenEditWithoutARenderGivesTheOriginalWithAWarning() throws {
        let folder = path("broken")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: folder + "/IMG_0001.JPG")
        try Data("not a property list".utf8).write(to: URL(fileURLWithPath: folder + "/IMG_0001.AAE"))
        let run = try BinaryRun.run(BatchTests.binary, ["batch", folder, "--out", path("b")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the original is written (--strict refuses)"), run.stderr)
        XCTAssertEqual(try TestFixtures.bytes(path("b/IMG_0001.jpg")), try TestFixtures.bytes(folder + "/IMG_0001.JPG"))
    }

    /// `render -o -`: the image on standard output, the same bytes as `-o FILE`; a failure writes
    /// nothing there and one line on standard error.
    func testRenderToStandardOutput() throws {
        let photo = TestFixtures.image("iphone4s-2592x1936.jpg"), edit = TestFixtures.xmp("ios5-crop.xmp")
        let file = try BinaryRun.run(BatchTests.binary, ["render", photo, "--xmp", edit, "-o", path("a.jpg")])
        XCTAssertEqual(file.status, 0, file.stderr)
        let piped = try BinaryRun.run(BatchTests.binary, ["render", photo, "--xmp", edit, "-o", "-"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual([UInt8](piped.output), try TestFixtures.bytes(path("a.jpg")))
        let failed = try BinaryRun.run(BatchTests.binary, ["render", path("nowhere.jpg"), "-o", "-"])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertTrue(failed.output.isEmpty, "nothing on standard output")
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
    }
}
