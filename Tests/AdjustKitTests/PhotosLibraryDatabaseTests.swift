@testable import AdjustKit
import CSQLite
import Foundation
import XCTest

/// Issue 20, scope 1 (the database part): a Photos 5+ library's asset list, read from
/// `database/Photos.sqlite` and its WAL without writing inside the library; output names.
final class PhotosLibraryDatabaseTests: XCTestCase {
    private static let library = TestFixtures.path("Fixtures/photos-library/Test-10.15.7.photoslibrary")
    private var scratch: URL!

    override func setUpWithError() throws { scratch = try ScratchFolder.make("photos-library-db") }
    override func tearDownWithError() throws {
        // A test may have made its copy read-only.
        _ = try? BinaryRun.run("/bin/chmod", ["-R", "u+w", scratch.path], in: URL(fileURLWithPath: "/"))
        ScratchFolder.remove(scratch)
    }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    private func asset(_ assets: [PhotosLibraryAsset], _ prefix: String) throws -> PhotosLibraryAsset {
        try XCTUnwrap(assets.first { $0.uuid.hasPrefix(prefix) }, prefix)
    }

    // MARK: the fixture's assets (Fixtures/SOURCES.md, "photos-library/")

    func testFixtureAssets() throws {
        let database = try PhotosLibraryDatabase(libraryPath: Self.library)
        XCTAssertEqual(database.assetTable, "ZGENERICASSET")
        let assets = database.assets()
        XCTAssertEqual(assets.count, 29)
        XCTAssertEqual(Set(assets.map(\.uuid)).count, 29)
        let expected: [(String, String, Bool, Bool, PhotosLibraryAsset.Kind)] = [
            ("6191423D", "Tulips.jpg", true, false, .photo),
            ("E9BC5C36", "wedding.jpg", true, false, .photo),
            ("7783E8E6", "IMG_3092.heic", true, false, .photo),
            ("D1D4040D", "Frítest.jpg", true, false, .photo),
            ("DC99FBDD", "St James Park.jpg", true, false, .photo),
            ("1793FAAB", "Frítest.jpg", true, false, .photo),
            ("1EB2B765", "Pumpkins3.jpg", false, false, .photo),
            ("D79B8D77", "Pumkins2.jpg", false, false, .photo),
            ("6FD38366", "wedding_edited.jpg", false, true, .photo),
            ("D1359D09", "Jellyfish1.mp4", false, false, .video),
        ]
        for (prefix, name, edited, trashed, kind) in expected {
            let asset = try asset(assets, prefix)
            XCTAssertEqual(asset.originalFileName, name, prefix)
            XCTAssertEqual(asset.hasAdjustments, edited, prefix)
            XCTAssertEqual(asset.isTrashed, trashed, prefix)
            XCTAssertEqual(asset.kind, kind, prefix)
            let ext = (asset.fileName! as NSString).pathExtension
            XCTAssertEqual(asset.fileName, "\(asset.uuid).\(ext)", prefix)
            XCTAssertEqual(asset.original, .inLibrary(relativePath: "originals/\(prefix.prefix(1))/\(asset.uuid).\(ext)"), prefix)
            XCTAssertNotNil(asset.addedDate, prefix)
            // The originals Fixtures/SOURCES.md lists are where the database says (1793FAAB's was left out).
            if prefix != "1793FAAB" {
                XCTAssertTrue(FileManager.default.fileExists(atPath: asset.originalPath(inLibrary: Self.library)!), prefix)
            }
        }
        XCTAssertEqual(try asset(assets, "D1D4040D").uuid, "D1D4040D-D141-44E8-93EA-E403D9F63E07")
        XCTAssertEqual(try asset(assets, "D1D4040D").directory, "D")
        // Referenced files: an absolute ZDIRECTORY (ZSAVEDASSETTYPE 10).
        XCTAssertEqual(try asset(assets, "A1DD1F98").original, .referenced(path: "/Volumes/MacBook Mojave/Users/Shared/Pumpkins4.jpg"))
        XCTAssertEqual(try asset(assets, "8E1D7BC9").original, .referenced(path: "/Users/rhet/Downloads/IMG_2000.JPG"))
        XCTAssertEqual(assets.filter { if case .referenced = $0.original { true } else { false } }.count, 2)
        XCTAssertEqual(assets.filter(\.hasAdjustments).count, 6)
        XCTAssertEqual(assets.map(\.primaryKey), assets.map(\.primaryKey).sorted())
    }

    // MARK: output names

    /// The real duplicates: "Frítest.jpg" ×4, "[2020-08-29] AAF035.jpg" ×4, "winebottle.jpeg" ×2.
    func testCollisionRuleOnTheFixture() throws {
        let assets = try PhotosLibraryDatabase(libraryPath: Self.library).assets()
        let names = PhotosOutputNames(assets: assets)
        XCTAssertEqual(names.collisions, [
            .init(name: "winebottle", uuids: ["7F74DD34-5920-4DA3-B284-479887A34F66", "52083079-73D5-4921-AC1B-FE76F279133F"]),
            .init(name: "Frítest", uuids: ["A8266C97-9BAF-4AF4-99F3-0013832869B8", "B13F4485-94E0-41CD-AF71-913095D62E31",
                                          "1793FAAB-DE75-4E25-886C-2BD66C780D6A", "D1D4040D-D141-44E8-93EA-E403D9F63E07"]),
            .init(name: "[2020-08-29] AAF035", uuids: ["F207D5DE-EFAD-4217-8424-0764AAC971D0", "54E76FCB-D353-4557-9997-0A457BCB4D48",
                                                       "2DFD33F1-A5D8-486F-A3A9-98C07995535A", "7FD37B5F-6FAA-4DB1-8A29-BF9C37E38091"]),
        ])
        XCTAssertEqual(names.stem(forUUID: "A8266C97-9BAF-4AF4-99F3-0013832869B8"), "Frítest")
        XCTAssertEqual(names.stem(forUUID: "B13F4485-94E0-41CD-AF71-913095D62E31"), "Frítest (B13F4485)")
        XCTAssertEqual(names.stem(forUUID: "D1D4040D-D141-44E8-93EA-E403D9F63E07"), "Frítest (D1D4040D)")
        XCTAssertEqual(names.stem(forUUID: "6191423D-8DB8-4D4C-92BE-9BBBA308AAC4"), "Tulips")
        XCTAssertEqual(names.stem(forUUID: "DC99FBDD-7A52-4100-A5BB-344131646C30"), "St James Park")
        let all = assets.map { names.stem(forUUID: $0.uuid) }
        XCTAssertEqual(Set(all.map { $0.lowercased() }).count, assets.count, "collision-free")

        // Stable: the same in any order, when assets are added later, and without unrelated ones.
        XCTAssertEqual(PhotosOutputNames(assets: assets.reversed()).stems(of: assets), all)
        var grown = assets
        var newer = try asset(assets, "D1D4040D")
        (newer.uuid, newer.primaryKey, newer.addedDate) = ("00000000-0000-0000-0000-000000000001", 99, 700_000_000)
        grown.insert(newer, at: 0)
        XCTAssertEqual(PhotosOutputNames(assets: grown).stems(of: assets), all)
        XCTAssertEqual(PhotosOutputNames(assets: grown).stem(forUUID: newer.uuid), "Frítest (00000000)")
        let fewer = assets.filter { !$0.uuid.hasPrefix("2DFD33F1") }
        XCTAssertEqual(PhotosOutputNames(assets: fewer).stems(of: fewer), fewer.map { names.stem(forUUID: $0.uuid) })
    }

    func testCollisionRuleEdgeCases() throws {
        func make(_ uuid: String, _ name: String?, added: Double? = nil, file: String? = nil) -> PhotosLibraryAsset {
            PhotosLibraryAsset(uuid: uuid, primaryKey: 0, directory: "A", fileName: file, originalFileName: name,
                               hasAdjustments: true, isTrashed: false, kind: .photo, addedDate: added, original: .unknown)
        }
        let decomposed = "Fri\u{301}test.jpg", composed = "Frítest.JPG"
        let assets = [
            make("BBBBBBBB-0000", decomposed, added: 2), make("AAAAAAAA-0000", composed, added: 2),
            make("CCCCCCCC-0000", "FRÍTEST.heic", added: 1), make("DDDDDDDD-0000", "frítest.jpg"),
            // A literal name equal to another's suffixed one.
            make("EEEEEEEE-0000", "Frítest (AAAAAAAA).jpg", added: 0),
            // Two UUIDs sharing their first 8 digits.
            make("12345678-0001", "x.jpg", added: 1), make("12345678-0002", "x.jpg", added: 2), make("12345678-0003", "X.jpg", added: 3),
            // No original name: ZFILENAME; neither: the UUID; hostile characters.
            make("F1", nil, file: "F1.jpeg"), make("F2", nil), make("F3", "../a/b:c\u{1}.jpg"), make("F4", ".hidden"),
        ]
        let names = PhotosOutputNames(assets: assets)
        XCTAssertEqual(names.stem(forUUID: "CCCCCCCC-0000"), "FRÍTEST")
        XCTAssertEqual(names.stem(forUUID: "AAAAAAAA-0000"), "Frítest (AAAAAAAA-0000)")
        XCTAssertEqual(names.stem(forUUID: "BBBBBBBB-0000"), "Fri\u{301}test (BBBBBBBB)")
        XCTAssertEqual(names.stem(forUUID: "DDDDDDDD-0000"), "frítest (DDDDDDDD)")
        XCTAssertEqual(names.stem(forUUID: "EEEEEEEE-0000"), "Frítest (AAAAAAAA)")
        XCTAssertEqual(names.stem(forUUID: "12345678-0001"), "x")
        XCTAssertEqual(names.stem(forUUID: "12345678-0002"), "x (12345678)")
        XCTAssertEqual(names.stem(forUUID: "12345678-0003"), "X (12345678-0003)")
        XCTAssertEqual(names.stem(forUUID: "F1"), "F1")
        XCTAssertEqual(names.stem(forUUID: "F2"), "F2")
        XCTAssertEqual(names.stem(forUUID: "F3"), "_._a_b_c_")
        XCTAssertEqual(names.stem(forUUID: "F4"), "_hidden")
        XCTAssertEqual(names.collisions.map(\.uuids), [["CCCCCCCC-0000", "AAAAAAAA-0000", "BBBBBBBB-0000", "DDDDDDDD-0000"],
                                                      ["12345678-0001", "12345678-0002", "12345678-0003"]])
        let stems = assets.map { names.stem(forUUID: $0.uuid).precomposedStringWithCanonicalMapping.lowercased() }
        XCTAssertEqual(Set(stems).count, assets.count)
        XCTAssertEqual(PhotosOutputNames(assets: assets.shuffled()).stems(of: assets), names.stems(of: assets))
    }

    // MARK: read-only

    private struct FileState: Equatable {
        var attributes: String
        var content: Data?
    }

    /// Every file under `folder`: mode, size, mtime and content.
    private func snapshot(_ folder: String) throws -> [String: FileState] {
        var files: [String: FileState] = [:]
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder))
        while let relative = enumerator.nextObject() as? String {
            let full = (folder as NSString).appendingPathComponent(relative)
            var status = stat()
            XCTAssertEqual(lstat(full, &status), 0)
            let content = status.st_mode & S_IFMT == S_IFREG ? try Data(contentsOf: URL(fileURLWithPath: full)) : nil
            files[relative] = FileState(attributes: "\(status.st_mode) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)",
                                        content: content)
        }
        return files
    }

    private func temporaryCopies() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("adjust-photos-db.") })
    }

    /// Reading changes no file of the library (size, mtime, content) and creates none: with its
    /// `-shm` (which `mode=ro` would write), without it (which `mode=ro` would create), without a
    /// WAL (opened in place, `immutable`), and with the whole library made read-only. The private
    /// copy is gone afterwards.
    func testReadingWritesNothingInTheLibrary() throws {
        for variant in ["as-is", "no-shm", "no-wal", "read-only"] {
            let copy = path("\(variant).photoslibrary")
            try FileManager.default.copyItem(atPath: Self.library, toPath: copy)
            let database = "\(copy)/database/Photos.sqlite"
            if variant == "no-shm" { try FileManager.default.removeItem(atPath: database + "-shm") }
            if variant == "no-wal" {
                try FileManager.default.removeItem(atPath: database + "-shm")
                try FileManager.default.removeItem(atPath: database + "-wal")
            }
            if variant == "read-only" {
                let run = try BinaryRun.run("/bin/chmod", ["-R", "a-w", copy], in: scratch)
                XCTAssertEqual(run.status, 0, run.stderr)
            }
            let before = try snapshot(copy), copiesBefore = try temporaryCopies()
            let assets = try PhotosLibraryDatabase(libraryPath: copy).assets()
            XCTAssertEqual(assets.count, 29, variant)
            XCTAssertEqual(try PhotosLibraryDatabase(libraryPath: copy).outputNames().stem(forUUID: "D1D4040D-D141-44E8-93EA-E403D9F63E07"),
                           "Frítest (D1D4040D)", variant)
            XCTAssertEqual(try snapshot(copy), before, variant)
            XCTAssertEqual(try temporaryCopies(), copiesBefore, variant)
            if variant == "as-is" {
                // The control: SQLite's own `mode=ro` writes the -shm, and the snapshot sees it.
                var handle: OpaquePointer?
                XCTAssertEqual(sqlite3_open_v2("file:\(database)?mode=ro", &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil), SQLITE_OK)
                XCTAssertEqual(sqlite3_exec(handle, "SELECT count(*) FROM ZGENERICASSET", nil, nil, nil), SQLITE_OK)
                sqlite3_close_v2(handle)
                XCTAssertNotEqual(try snapshot(copy), before)
            }
        }
    }

    /// Rows only in the WAL are read; Photos 6+'s `ZASSET`; missing optional columns tolerated.
    func testWALRowsAndPhotos6Table() throws {
        let folder = path("p6.photoslibrary/database")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var writer: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(folder + "/Photos.sqlite", &writer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), SQLITE_OK)
        defer { sqlite3_close_v2(writer) }
        func exec(_ sql: String) { XCTAssertEqual(sqlite3_exec(writer, sql, nil, nil, nil), SQLITE_OK, String(cString: sqlite3_errmsg(writer))) }
        exec("PRAGMA journal_mode = WAL")
        exec("PRAGMA wal_autocheckpoint = 0")
        exec("CREATE TABLE ZASSET (Z_PK INTEGER PRIMARY KEY, ZUUID VARCHAR, ZDIRECTORY VARCHAR, ZFILENAME VARCHAR, ZKIND INTEGER)")
        exec("CREATE TABLE ZADDITIONALASSETATTRIBUTES (Z_PK INTEGER PRIMARY KEY, ZASSET INTEGER, ZORIGINALFILENAME VARCHAR)")
        exec("INSERT INTO ZASSET VALUES (1, 'U1', '1', 'U1.heic', 0)")
        exec("INSERT INTO ZADDITIONALASSETATTRIBUTES VALUES (1, 1, 'IMG_0001.HEIC')")
        exec("PRAGMA wal_checkpoint(TRUNCATE)")
        exec("INSERT INTO ZASSET VALUES (2, 'U2', '2', 'U2.mov', 1)")
        exec("INSERT INTO ZADDITIONALASSETATTRIBUTES VALUES (2, 2, 'IMG_0001.MOV')")
        // Row 2 is only in the WAL: the database file alone (immutable) does not hold it.
        var walStatus = stat()
        XCTAssertEqual(stat(folder + "/Photos.sqlite-wal", &walStatus), 0)
        XCTAssertGreaterThan(walStatus.st_size, 0)
        var alone: OpaquePointer?, statement: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2("file:\(folder)/Photos.sqlite?immutable=1", &alone, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil), SQLITE_OK)
        XCTAssertEqual(sqlite3_prepare_v2(alone, "SELECT count(*) FROM ZASSET", -1, &statement, nil), SQLITE_OK)
        XCTAssertEqual(sqlite3_step(statement), SQLITE_ROW)
        XCTAssertEqual(sqlite3_column_int(statement, 0), 1)
        sqlite3_finalize(statement)
        sqlite3_close_v2(alone)

        let database = try PhotosLibraryDatabase(libraryPath: path("p6.photoslibrary"))
        XCTAssertEqual(database.assetTable, "ZASSET")
        let assets = database.assets()
        XCTAssertEqual(assets.map(\.uuid), ["U1", "U2"])
        XCTAssertEqual(assets.map(\.originalFileName), ["IMG_0001.HEIC", "IMG_0001.MOV"])
        XCTAssertEqual(assets.map(\.kind), [.photo, .video])
        XCTAssertEqual(assets.map(\.hasAdjustments), [false, false])
        XCTAssertEqual(assets.map(\.addedDate), [nil, nil])
        XCTAssertEqual(assets[1].original, .inLibrary(relativePath: "originals/2/U2.mov"))
        let names = database.outputNames()
        XCTAssertEqual(names.stem(forUUID: "U1"), "IMG_0001")
        XCTAssertEqual(names.stem(forUUID: "U2"), "IMG_0001 (U2)")
        XCTAssertEqual(names.collisions, [.init(name: "IMG_0001", uuids: ["U1", "U2"])])
    }

    // MARK: failures

    private func expectOneLineError(_ library: String, _ problem: String, kind: FileError.Kind,
                                    file: StaticString = #filePath, line: UInt = #line) {
        do throws(FileError) {
            _ = try PhotosLibraryDatabase(libraryPath: library)
            XCTFail("read \(library)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.path, "\(library)/database/Photos.sqlite", file: file, line: line)
            XCTAssertEqual(error.kind, kind, file: file, line: line)
            XCTAssertEqual(error.description, "\(library)/database/Photos.sqlite: \(problem)", file: file, line: line)
            XCTAssertFalse(error.description.contains("\n"), file: file, line: line)
        }
    }

    private func library(_ name: String, database: Data?, wal: Data? = nil) throws -> String {
        let library = path(name)
        try FileManager.default.createDirectory(atPath: library + "/database", withIntermediateDirectories: true)
        try database?.write(to: URL(fileURLWithPath: library + "/database/Photos.sqlite"))
        try wal?.write(to: URL(fileURLWithPath: library + "/database/Photos.sqlite-wal"))
        return library
    }

    func testCorruptOrForeignDatabasesFailOnOneLine() throws {
        let real = try Data(contentsOf: URL(fileURLWithPath: Self.library + "/database/Photos.sqlite"))
        let realWAL = try Data(contentsOf: URL(fileURLWithPath: Self.library + "/database/Photos.sqlite-wal"))
        let garbage = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
        expectOneLineError(try library("garbage", database: garbage), "cannot read the Photos database: file is not a database",
                           kind: .invalidContent)
        expectOneLineError(try library("garbage-wal", database: garbage, wal: realWAL),
                           "cannot read the Photos database: database disk image is malformed", kind: .invalidContent)
        expectOneLineError(try library("truncated", database: real.prefix(200_000)),
                           "cannot read the Photos database: database disk image is malformed", kind: .invalidContent)
        // An empty file is an empty SQLite database; another program's database has no asset table.
        expectOneLineError(try library("empty", database: Data()),
                           "not a Photos library database (no ZASSET or ZGENERICASSET table)", kind: .invalidContent)
        let other = try library("other", database: nil)
        var writer: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(other + "/database/Photos.sqlite", &writer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(writer, "CREATE TABLE ZGENERICASSET (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR)", nil, nil, nil), SQLITE_OK)
        sqlite3_close_v2(writer)
        expectOneLineError(other, "not a Photos library database (ZGENERICASSET has no ZUUID)", kind: .invalidContent)
        // A WAL that is garbage is not applied (SQLite checks its header and checksums).
        let badWAL = try library("bad-wal", database: real, wal: garbage)
        XCTAssertEqual(try PhotosLibraryDatabase(libraryPath: badWAL).assets().count, 29)
    }

    /// No database (or no library): one line to say once, then UUID names.
    func testNoDatabaseLeavesTheCallerUUIDNames() throws {
        let empty = try library("empty.photoslibrary", database: nil)
        expectOneLineError(empty, "cannot read the Photos database: No such file or directory", kind: .unreadable)
        expectOneLineError(path("nowhere"), "cannot read the Photos database: No such file or directory", kind: .unreadable)
        try FileManager.default.createDirectory(atPath: empty + "/database/Photos.sqlite", withIntermediateDirectories: true)
        expectOneLineError(empty, "cannot read the Photos database: not a file", kind: .unreadable)

        // The caller's fallback, as `batch` will write it.
        let names: PhotosOutputNames
        do { names = try PhotosLibraryDatabase(libraryPath: path("nowhere")).outputNames() } catch { names = .uuidOnly }
        XCTAssertEqual(names.stem(forUUID: "D1D4040D-D141-44E8-93EA-E403D9F63E07"), "D1D4040D-D141-44E8-93EA-E403D9F63E07")
        XCTAssertEqual(names.collisions, [])
    }
}

private extension PhotosOutputNames {
    func stems(of assets: [PhotosLibraryAsset]) -> [String] { assets.map { stem(forUUID: $0.uuid) } }
}
