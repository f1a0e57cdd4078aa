import AdjustKit
import Foundation
import XCTest

/// Issue 29, scopes 3 and 4: what the user set in Photos (capture date with its time zone, place,
/// title, caption, keywords, favourite, albums) goes with every output of the four shared
/// libraries (Photos 5, 8, 9 and 10), read back with exiftool from the output or its
/// `NAME.EXT.xmp` sidecar. The expected values come from each database through Python's sqlite3
/// with this test's own query, on a private copy — never through the code under test.
final class LibraryMetadataTests: XCTestCase {
    private var scratch: URL!
    private static let libraries = ["Test-10.15.7", "TestTimeWarp-13.1.0", "Test-14.6.0", "Test-Media-Types-15.7.2"]
    private static func library(_ name: String) -> String { TestFixtures.path("Fixtures/photos-library/\(name).photoslibrary") }

    override func setUpWithError() throws { scratch = try ScratchFolder.make("library-metadata") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }
    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// What Photos holds for one asset, as the test's own query reads it.
    struct Expected: Decodable {
        var date: String?          // "2021:10:02 15:15:00-04:00", exiftool's form
        var latitude: Double?
        var longitude: Double?
        var title: String?
        var caption: String?
        var keywords: [String]
        var favorite: Bool
        var albums: [[String]]
        var isEmpty: Bool { date == nil && latitude == nil && title == nil && caption == nil && keywords.isEmpty && !favorite && albums.isEmpty }
    }

    /// uuid → what Photos holds, from a private copy of `library`'s database (the WAL too).
    private func expected(_ library: String) throws -> [String: Expected] {
        let copy = path("db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: library + "/database/Photos.sqlite" + suffix) {
            try FileManager.default.copyItem(atPath: library + "/database/Photos.sqlite" + suffix, toPath: copy + "/Photos.sqlite" + suffix)
        }
        // Photos' capture time is ZDATECREATED (UTC, from 2001) shifted by ZTIMEZONEOFFSET, to the
        // second; −180 is "no place"; the join tables are numbered by Z_PRIMARYKEY's entities.
        let script = #"""
        import sqlite3, sys, json, datetime
        c = sqlite3.connect(sys.argv[1])
        t = "ZASSET" if c.execute("select count(*) from sqlite_master where name='ZASSET'").fetchone()[0] else "ZGENERICASSET"
        ent = dict(c.execute("select Z_NAME, Z_ENT from Z_PRIMARYKEY"))
        aaa, kw, alb = ent["AdditionalAssetAttributes"], ent["Keyword"], ent["Album"]
        asset_ent = ent.get("GenericAsset") if t == "ZGENERICASSET" else ent["Asset"]
        out = {}
        rows = c.execute(f"""select a.Z_PK, a.ZUUID, a.ZDATECREATED, b.ZTIMEZONEOFFSET, a.ZLATITUDE, a.ZLONGITUDE, b.ZTITLE,
            d.ZLONGDESCRIPTION, a.ZFAVORITE, b.Z_PK from {t} a left join ZADDITIONALASSETATTRIBUTES b on b.ZASSET = a.Z_PK
            left join ZASSETDESCRIPTION d on d.Z_PK = b.ZASSETDESCRIPTION""").fetchall()
        folders = {r[0]: r[1:] for r in c.execute("select Z_PK, ZKIND, ZTITLE, ZPARENTFOLDER, ZTRASHEDSTATE from ZGENERICALBUM")}
        def album_path(pk):
            kind, title, parent, trashed = folders[pk]
            if kind != 2 or trashed or not title: return None
            path = [title]
            while parent in folders and folders[parent][0] == 4000:
                if folders[parent][1]: path.insert(0, folders[parent][1])
                parent = folders[parent][2]
            return path
        for pk, uuid, created, offset, lat, lon, title, caption, fav, attributes in rows:
            date = None
            if created is not None:
                try:
                    local = datetime.datetime(2001, 1, 1) + datetime.timedelta(seconds=int(created // 1) + (offset or 0))
                    if offset is None: zone = "Z"
                    else: zone = ("-" if offset < 0 else "+") + "%02d:%02d" % (abs(offset) // 3600, abs(offset) % 3600 // 60)
                    date = local.strftime("%Y:%m:%d %H:%M:%S") + zone
                except OverflowError:
                    date = None
            keywords = sorted(set(r[0] for r in c.execute(
                f"select k.ZTITLE from Z_{aaa}KEYWORDS j join ZKEYWORD k on k.Z_PK = j.Z_{kw}KEYWORDS where j.Z_{aaa}ASSETATTRIBUTES = ?",
                (attributes,)) if r[0]))
            albums = []
            for (album,) in c.execute(f"select Z_{alb}ALBUMS from Z_{alb}ASSETS where Z_{asset_ent}ASSETS = ?", (pk,)):
                p = album_path(album)
                if p and p not in albums: albums.append(p)
            place = lat is not None and lon is not None and lat != -180 and lon != -180
            out[uuid] = dict(date=date, latitude=lat if place else None, longitude=lon if place else None,
                             title=title or None, caption=caption or None, keywords=keywords, favorite=bool(fav), albums=sorted(albums))
        print(json.dumps(out))
        """#
        let run = try BinaryRun.run("/usr/bin/env", ["python3", "-c", script, copy + "/Photos.sqlite"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try JSONDecoder().decode([String: Expected].self, from: Data(run.stdout.utf8))
    }

    /// exiftool's reading of each file (`-j -G1 -n`: numbers as numbers), by path.
    private func exiftool(_ files: [String]) throws -> [String: [String: Any]] {
        guard !files.isEmpty else { return [:] }
        let run = try BinaryRun.run("/usr/bin/env", ["exiftool", "-j", "-G1", "-n", "-charset", "utf8"] + files)
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stderr)
        return Dictionary(objects.compactMap { object in (object["SourceFile"] as? String).map { ($0, object) } },
                          uniquingKeysWith: { first, _ in first })
    }

    private func batch(_ arguments: [String]) throws -> (records: [[String: Any]], stderr: String) {
        let run = try BinaryRun.run(BatchTests.binary, ["batch"] + arguments + ["--json"], in: scratch)
        XCTAssertEqual(run.status, 0, run.stderr)
        let records = try run.stdout.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        return (records.filter { $0["summary"] == nil }, run.stderr)
    }

    /// A JPEG's bytes from its SOS marker to the end (the entropy-coded picture and EOI), found by
    /// walking the header's marker segments.
    static func entropyCodedData(_ jpeg: [UInt8]) -> ArraySlice<UInt8>? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            if jpeg[at + 1] == 0xDA { return jpeg[at...] }
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        return nil
    }

    /// The values exiftool read, as strings/numbers comparable with `Expected`.
    private func strings(_ value: Any?) -> [String] {
        switch value {
        case let list as [Any]: list.map { "\($0)" }
        case nil: []
        case let one?: ["\(one)"]
        }
    }

    func testEveryOutputOfTheFourLibrariesCarriesWhatPhotosHolds() throws {
        var checked = 0, copiesCompared = 0, exifDatesChecked = 0, exifOffsetsChecked = 0
        for name in Self.libraries {
            let library = Self.library(name), out = path("out-" + name)
            let before = try PhotoLayoutTestHelpers.digestTree(library)
            let (records, _) = try batch([library, "--out", out])
            XCTAssertEqual(try PhotoLayoutTestHelpers.digestTree(library), before, "\(name): the library is never written")
            let expected = try expected(library)
            // Each written output, with the asset it is of (the UUID of its original's file name).
            var outputs: [(output: String, uuid: String, record: [String: Any])] = []
            for record in records {
                guard let output = record["output"] as? String, let input = record["input"] as? String,
                      ["ok", "no-edit"].contains(record["status"] as? String ?? "") else { continue }
                let uuid = String((input as NSString).lastPathComponent.prefix(36))
                guard expected[uuid] != nil else { continue }
                outputs.append((output, uuid, record))
            }
            XCTAssertFalse(outputs.isEmpty, name)
            let readable = outputs.flatMap { [$0.output, $0.output + ".xmp"] }.filter { FileManager.default.fileExists(atPath: $0) }
            let read = try exiftool(readable)
            for (output, uuid, record) in outputs {
                let want = expected[uuid]!
                let isJPEG = ["jpg", "jpeg"].contains((output as NSString).pathExtension.lowercased())
                let sidecar = output + ".xmp"
                if want.isEmpty {
                    XCTAssertFalse(FileManager.default.fileExists(atPath: sidecar), "\(name): \(output): nothing to carry")
                    continue
                }
                // A JPEG carries it in its XMP; anything else beside it.
                XCTAssertEqual(FileManager.default.fileExists(atPath: sidecar), !isJPEG, "\(name): \(output): sidecar")
                let tags = try XCTUnwrap(read[isJPEG ? output : sidecar], "\(name): exiftool read \(isJPEG ? output : sidecar)")
                let label = "\(name): \((output as NSString).lastPathComponent)"
                XCTAssertEqual(tags["XMP-photoshop:DateCreated"].map { "\($0)" }, want.date, "\(label): date and offset")
                XCTAssertEqual(tags["XMP-exif:DateTimeOriginal"].map { "\($0)" }, want.date, "\(label): exif:DateTimeOriginal")
                // A JPEG's own EXIF date (where the camera wrote one) says the same, in EXIF's form.
                if isJPEG, let date = want.date, !date.hasSuffix("Z"), let exifDate = tags["ExifIFD:DateTimeOriginal"] {
                    XCTAssertEqual("\(exifDate)", String(date.prefix(19)), "\(label): EXIF DateTimeOriginal")
                    if let exifOffset = tags["ExifIFD:OffsetTimeOriginal"] {
                        XCTAssertEqual("\(exifOffset)", String(date.dropFirst(19)), "\(label): EXIF OffsetTimeOriginal")
                        exifOffsetsChecked += 1
                    }
                    exifDatesChecked += 1
                }
                if let latitude = want.latitude, let longitude = want.longitude {
                    XCTAssertEqual(tags["XMP-exif:GPSLatitude"] as? Double ?? .nan, latitude, accuracy: 1e-7, "\(label): latitude")
                    XCTAssertEqual(tags["XMP-exif:GPSLongitude"] as? Double ?? .nan, longitude, accuracy: 1e-7, "\(label): longitude")
                } else {
                    XCTAssertNil(tags["XMP-exif:GPSLatitude"], "\(label): no place in Photos")
                }
                if let title = want.title { XCTAssertEqual(tags["XMP-dc:Title"].map { "\($0)" }, title, "\(label): title") }
                if let caption = want.caption {
                    XCTAssertEqual(tags["XMP-dc:Description"].map { "\($0)" }, caption, "\(label): caption")
                }
                if !want.keywords.isEmpty { XCTAssertEqual(strings(tags["XMP-dc:Subject"]).sorted(), want.keywords, "\(label): keywords") }
                if want.favorite { XCTAssertEqual(tags["XMP-xmp:Rating"] as? Int, 5, "\(label): favourite") }
                XCTAssertEqual(strings(tags["XMP-lr:HierarchicalSubject"]).sorted(),
                               want.albums.map { $0.joined(separator: "|") }.sorted(), "\(label): albums")
                XCTAssertEqual((record["albums"] as? [[String]]) ?? [], want.albums, "\(label): the record's albums")
                checked += 1

                // A copy keeps the picture's bytes: SOS to EOI as the original's (or Apple's render's).
                if isJPEG, record["source"] as? String == "copy" || record["source"] as? String == "apple-render",
                   let source = record["source"] as? String == "copy" ? record["input"] as? String : record["appleRender"] as? String,
                   ["jpg", "jpeg"].contains((source as NSString).pathExtension.lowercased()) {
                    let original = try TestFixtures.bytes(source), written = try TestFixtures.bytes(output)
                    XCTAssertNotNil(Self.entropyCodedData(written), label)
                    XCTAssertNotEqual(written, original, "\(label): the XMP was rewritten")
                    XCTAssertEqual(Self.entropyCodedData(written), Self.entropyCodedData(original), "\(label): SOS to EOI unchanged")
                    copiesCompared += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 30, "outputs compared with Photos.sqlite")
        XCTAssertGreaterThanOrEqual(copiesCompared, 5, "byte copies compared")
        XCTAssertGreaterThanOrEqual(exifDatesChecked, 10, "EXIF dates compared")
        XCTAssertGreaterThanOrEqual(exifOffsetsChecked, 1, "EXIF offsets compared")
    }

    /// The issue's named values: TestTimeWarp's adjusted date, Test-14.6.0's Tulips.
    func testTheAdjustedDateAndTheTulipsTitleCaptionAndKeywords() throws {
        let warp = Self.library("TestTimeWarp-13.1.0"), tulipsLibrary = Self.library("Test-14.6.0")
        _ = try batch([warp, "--out", path("warp")])
        _ = try batch([tulipsLibrary, "--out", path("tulips")])
        let read = try exiftool([path("warp/IMG_6526.jpg"), path("tulips/Tulips.jpg")])
        let warped = try XCTUnwrap(read[path("warp/IMG_6526.jpg")])
        XCTAssertEqual(warped["XMP-photoshop:DateCreated"] as? String, "2021:10:02 15:15:00-04:00")
        XCTAssertEqual(warped["ExifIFD:OffsetTimeOriginal"] as? String, "-04:00", "the camera's -07:00 replaced in place")
        let tulips = try XCTUnwrap(read[path("tulips/Tulips.jpg")])
        XCTAssertEqual(tulips["XMP-dc:Title"] as? String, "Tulips tied together at a flower shop")
        XCTAssertEqual(tulips["XMP-dc:Description"] as? String, "Wedding tulips")
        XCTAssertEqual(strings(tulips["XMP-dc:Subject"]).sorted(), ["flowers", "wedding"])
    }

    /// `--metadata file`: today's behaviour, a copy is the original byte for byte, no sidecar;
    /// `--sidecar xmp`: a sidecar beside every output, JPEGs too.
    func testMetadataFileKeepsCopiesWholeAndSidecarXMPWritesOneEverywhere() throws {
        let library = Self.library("TestTimeWarp-13.1.0")
        let (records, _) = try batch([library, "--out", path("file"), "--metadata", "file"])
        let copies = records.filter { $0["source"] as? String == "copy" }
        XCTAssertFalse(copies.isEmpty)
        for record in copies {
            let output = try XCTUnwrap(record["output"] as? String), input = try XCTUnwrap(record["input"] as? String)
            XCTAssertEqual(try TestFixtures.bytes(output), try TestFixtures.bytes(input), output)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output + ".xmp"), output)
        }
        let (all, _) = try batch([library, "--out", path("xmp"), "--sidecar", "xmp"])
        let written = all.compactMap { $0["output"] as? String }
        XCTAssertFalse(written.isEmpty)
        for output in written { XCTAssertTrue(FileManager.default.fileExists(atPath: output + ".xmp"), output) }
    }

    /// A value changed in Photos makes `--update` write that output again, and only that one; a
    /// change of --metadata or --sidecar writes every output again.
    func testUpdateWritesAgainWhatPhotosChanged() throws {
        let library = path("Warp.photoslibrary")
        try FileManager.default.copyItem(atPath: Self.library("TestTimeWarp-13.1.0"), toPath: library)
        let out = path("out")
        _ = try batch([library, "--out", out])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/IMG_6551.mov.xmp"), "a video's values beside it")
        let same = try batch([library, "--out", out, "--update"]).records.filter { $0["output"] is String }
        XCTAssertTrue(same.allSatisfy { $0["status"] as? String == "current" }, "\(same)")
        // The user gives IMG_6526 a title in Photos.
        let script = """
        import sqlite3, sys
        c = sqlite3.connect(sys.argv[1])
        c.execute("update ZADDITIONALASSETATTRIBUTES set ZTITLE = 'Fixed in Photos' where ZORIGINALFILENAME = 'IMG_6526.jpeg'")
        c.commit()
        """
        let edit = try BinaryRun.run("/usr/bin/env", ["python3", "-c", script, library + "/database/Photos.sqlite"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        let again = try batch([library, "--out", out, "--update"]).records.filter { $0["output"] is String }
        let rewritten = again.filter { $0["status"] as? String != "current" }
        XCTAssertEqual(rewritten.compactMap { ($0["output"] as? String).map { ($0 as NSString).lastPathComponent } }, ["IMG_6526.jpg"])
        XCTAssertEqual(rewritten.first?["reason"] as? String, "Photos metadata changed")
        let read = try exiftool([out + "/IMG_6526.jpg"])
        XCTAssertEqual(read[out + "/IMG_6526.jpg"]?["XMP-dc:Title"] as? String, "Fixed in Photos")
        let options = try batch([library, "--out", out, "--update", "--metadata", "file"]).records.filter { $0["output"] is String }
        XCTAssertTrue(options.allSatisfy { $0["reason"] as? String == "options changed" }, "\(options)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/IMG_6551.mov.xmp"),
                       "the sidecar adjust wrote goes once it no longer applies")
    }

    /// A database without the keyword, album and caption tables: every output still comes out,
    /// with what there is, and one note says what is missing.
    func testADatabaseWithoutTheTablesCostsNoPhoto() throws {
        let library = path("Bare.photoslibrary")
        try FileManager.default.copyItem(atPath: Self.library("TestTimeWarp-13.1.0"), toPath: library)
        let script = """
        import sqlite3, sys
        c = sqlite3.connect(sys.argv[1])
        for t in ["Z_PRIMARYKEY", "ZASSETDESCRIPTION"]: c.execute(f"drop table {t}")
        c.commit()
        """
        let edit = try BinaryRun.run("/usr/bin/env", ["python3", "-c", script, library + "/database/Photos.sqlite"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        let (records, stderr) = try batch([library, "--out", path("bare")])
        XCTAssertFalse(records.contains { $0["status"] as? String == "failed" }, "\(records)")
        let notes = stderr.split(separator: "\n").filter { $0.contains("holds no") }
        XCTAssertEqual(notes.count, 1, stderr)
        XCTAssertTrue(notes.first?.contains("captions, keywords, albums") == true, stderr)
        let read = try exiftool([path("bare/IMG_6526.jpg")])
        XCTAssertEqual(read[path("bare/IMG_6526.jpg")]?["XMP-photoshop:DateCreated"] as? String, "2021:10:02 15:15:00-04:00",
                       "the date is still carried")
    }
}
