import CSQLite
import Foundation

/// One asset of a macOS Photos 5+ library, as its `database/Photos.sqlite` describes it.
package struct PhotosLibraryAsset: Sendable, Equatable {
    /// Photo or video (`ZKIND`).
    package enum Kind: Sendable, Equatable {
        case photo
        case video
        /// A `ZKIND` other than 0 or 1 (or none).
        case other(Int)
    }

    /// Where the original is.
    package enum Original: Sendable, Equatable {
        /// Inside the library: `originals/ZDIRECTORY/ZFILENAME`, relative to the library folder.
        case inLibrary(relativePath: String)
        /// A "referenced" file, never copied into the library: `ZDIRECTORY` is an absolute path
        /// (Photos 5) or `ZSAVEDASSETTYPE` is 10. The path, when the database gives one.
        case referenced(path: String?)
        /// The database names no file (`ZFILENAME` or `ZDIRECTORY` empty).
        case unknown
    }

    /// `ZUUID`, e.g. `D1D4040D-D141-44E8-93EA-E403D9F63E07`: the stem of the original's and of
    /// the edit's file names inside the library (`resources/renders/D/UUID.plist`).
    package var uuid: String
    /// `Z_PK` of the asset row.
    package var primaryKey: Int64
    /// `ZDIRECTORY`: one hex digit for an original inside the library, an absolute folder for a
    /// referenced one.
    package var directory: String?
    /// `ZFILENAME`: the original's name inside the library (`UUID.jpeg`), or a referenced file's.
    package var fileName: String?
    /// `ZADDITIONALASSETATTRIBUTES.ZORIGINALFILENAME`: the name the file had when it was imported.
    package var originalFileName: String?
    /// `ZHASADJUSTMENTS` (Photos 5–9) or `ZADJUSTMENTSSTATE` (Photos 10+) is non-zero: Photos
    /// holds an edit of it.
    package var hasAdjustments: Bool
    /// `ZTRASHEDSTATE` is non-zero: it is in Photos' "Recently Deleted".
    package var isTrashed: Bool
    package var kind: Kind
    /// `ZADDEDDATE`: seconds since 2001-01-01 00:00 UTC (Core Data's reference date); nil if absent.
    package var addedDate: Double?
    package var original: Original
    /// What the user set in Photos (date, place, title, caption, keywords, favourite, albums);
    /// nil when the database could not say (`PhotosLibraryDatabase.metadataNote`).
    package var metadata: PhotosAssetMetadata?

    /// The original's path under `libraryPath`, or a referenced file's own path; nil if unknown.
    package func originalPath(inLibrary libraryPath: String) -> String? {
        switch original {
        case .inLibrary(let relative): return (libraryPath as NSString).appendingPathComponent(relative)
        case .referenced(let path): return path
        case .unknown: return nil
        }
    }
}

/// The asset list of a macOS Photos 5+ library (`Library.photoslibrary/database/Photos.sqlite`),
/// read without writing anything inside the library.
///
/// **Read-only.** Photos keeps the database in WAL mode and the newest rows are often only in
/// `Photos.sqlite-wal`. SQLite cannot read a WAL database with the guarantee that nothing in its
/// folder is written: `mode=ro` maps `Photos.sqlite-shm` read-write and writes its read marks (or
/// creates it when it is missing), `immutable=1` ignores the WAL. So:
///
/// * no `-wal` (or an empty one): the database is opened in place with `immutable=1` (SQLite takes
///   no lock, reads no journal, creates no file);
/// * a `-wal`: `Photos.sqlite` and `Photos.sqlite-wal` are copied (opened `O_RDONLY`) into a
///   private temporary folder (mode 0700), the copy is opened there (its `-shm` is created there),
///   and the folder is removed once the assets are read — all within `init`. If either file
///   changes while it is copied, the copy is made once more, then refused.
///
/// SQLite's undocumented `readonly_shm=1` would read in place too, but it is not part of SQLite's
/// documented interface and its handling of an existing `-shm` was fixed as late as 3.38; the copy
/// relies on nothing but `open(O_RDONLY)`. `PhotosLibraryDatabaseTests` checks that no file in the
/// library changes (size, mtime, content) and none is created, also with the library made
/// read-only.
///
/// **Versions.** Photos 5 (macOS 10.15) names the asset table `ZGENERICASSET`, Photos 6 and later
/// `ZASSET`; the table is found in `sqlite_master`. Columns are found by name
/// (`PRAGMA table_info`): only `ZUUID` is required, a missing optional column reads as NULL, a
/// missing `ZADDITIONALASSETATTRIBUTES` as no original file names.
///
/// **Failures** (a missing, unreadable, corrupt or non-Photos database) throw one `FileError`
/// naming `database/Photos.sqlite`, to be said once: the caller then names outputs by UUID
/// (`PhotosOutputNames.uuidOnly`).
package struct PhotosLibraryDatabase: Sendable {
    /// The `.photoslibrary` folder, as given.
    package let libraryPath: String
    /// `libraryPath/database/Photos.sqlite`.
    package let databasePath: String
    /// `ZASSET` or `ZGENERICASSET`.
    package let assetTable: String
    private let rows: [PhotosLibraryAsset]
    /// One line when the database lacks some of what the user sets in Photos (a table or column
    /// of docs/spec/photos-library.md §2 missing, or unreadable): outputs go without it.
    package let metadataNote: String?

    /// Reads the asset list of the library at `libraryPath` (the `.photoslibrary` folder).
    package init(libraryPath: String) throws(FileError) {
        self.libraryPath = libraryPath
        let database = ((libraryPath as NSString).appendingPathComponent("database") as NSString)
            .appendingPathComponent("Photos.sqlite")
        databasePath = database
        (assetTable, rows, metadataNote) = try PhotosSQLiteReader.readAssets(database: database)
    }

    /// Every asset row, in `Z_PK` order (trashed ones included: see `isTrashed`).
    package func assets() -> [PhotosLibraryAsset] { rows }

    /// The output stems of every asset in the database (`PhotosOutputNames` gives the rule).
    package func outputNames() -> PhotosOutputNames { PhotosOutputNames(assets: rows) }
}

/// Stable, collision-free output file stems for a library's assets, from their original file names.
///
/// The rule, over **every** asset row of the database (trashed ones, videos and unedited ones
/// included, so that what a run renders does not change any name):
///
/// 1. An asset's name is its original file name (`ZORIGINALFILENAME`, else `ZFILENAME`, else its
///    UUID) without the extension; `/`, `:`, control characters and a leading `.` become `_`.
/// 2. Assets whose names are equal ignoring case (and Unicode normalization: `Frítest` composed
///    or decomposed) collide: the outputs may land on a case-insensitive file system, and
///    `IMG_1.jpg` and `IMG_1.heic` both render to `IMG_1.jpg`.
/// 3. In a collision the assets are ordered by date added (`ZADDEDDATE`, none last), then UUID:
///    the first keeps the plain name, each other one gets ` (` + the first 8 hex digits of its
///    UUID + `)`: `Frítest (B13F4485)`.
/// 4. Should a name made so still equal another (two UUIDs sharing their first 8 digits, or an
///    original literally named `Frítest (B13F4485).jpg`), the later one by the order of step 3
///    takes its whole UUID instead of the 8 digits, and a number after that.
///
/// An asset's name so depends only on its own file name and UUID and on which assets sharing its
/// name were added before it: a library that gains assets keeps every name it had; a name changes
/// only when the asset holding the plain name leaves the database (removed from "Recently
/// Deleted").
package struct PhotosOutputNames: Sendable {
    /// Assets sharing one name, for the caller to report.
    package struct Collision: Sendable, Equatable {
        /// The shared name (the first asset's, without extension).
        package var name: String
        /// UUIDs in the rule's order: the first keeps `name`.
        package var uuids: [String]
    }

    private let stems: [String: String]
    /// Every name shared by several assets, in order of the name's first asset (`Z_PK`).
    package let collisions: [Collision]

    /// No database: every asset is named by its UUID.
    package static let uuidOnly = PhotosOutputNames(stems: [:], collisions: [])

    private init(stems: [String: String], collisions: [Collision]) {
        (self.stems, self.collisions) = (stems, collisions)
    }

    /// Applies the rule to `assets` (all of a database's rows: see the type's comment).
    package init(assets: [PhotosLibraryAsset]) {
        typealias Entry = (asset: PhotosLibraryAsset, base: String)
        let entries: [Entry] = assets.map { ($0, Self.baseName(of: $0)) }
        var groups: [String: [Entry]] = [:]
        var keyOrder: [String] = []
        for entry in entries {
            let key = Self.key(entry.base)
            if groups[key] == nil { keyOrder.append(key) }
            groups[key, default: []].append(entry)
        }
        let before: (Entry, Entry) -> Bool = { a, b in
            switch (a.asset.addedDate, b.asset.addedDate) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.asset.uuid < b.asset.uuid
            }
        }
        var stems: [String: String] = [:]
        var taken: Set<String> = []
        var collisions: [Collision] = []
        var suffixed: [(Entry, String)] = []
        // Plain names first, so that a suffixed name never takes a plain one's place.
        for key in keyOrder {
            let group = groups[key]!.sorted(by: before)
            if group.count > 1 { collisions.append(Collision(name: group[0].base, uuids: group.map(\.asset.uuid))) }
            stems[group[0].asset.uuid] = group[0].base
            taken.insert(key)
            for entry in group.dropFirst() { suffixed.append((entry, entry.base)) }
        }
        for (entry, base) in suffixed.sorted(by: { before($0.0, $1.0) }) {
            let uuid = entry.asset.uuid
            var candidates = ["\(base) (\(uuid.prefix(8)))", "\(base) (\(uuid))"]
            var number = 2
            while true {
                let stem: String
                if candidates.isEmpty {
                    stem = "\(base) (\(uuid)) \(number)"
                    number += 1
                } else {
                    stem = candidates.removeFirst()
                }
                if taken.insert(Self.key(stem)).inserted {
                    stems[uuid] = stem
                    break
                }
            }
        }
        self.init(stems: stems, collisions: collisions)
    }

    /// The output stem (no extension) of the asset `uuid`: its UUID when the asset is unknown
    /// (`uuidOnly`, or not in the database).
    package func stem(forUUID uuid: String) -> String { stems[uuid] ?? uuid }

    /// The comparison key of step 2.
    private static func key(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Step 1.
    static func baseName(of asset: PhotosLibraryAsset) -> String {
        let file = [asset.originalFileName, asset.fileName].compactMap { $0 }.first { !$0.isEmpty } ?? asset.uuid
        var stem = file
        if let dot = file.lastIndex(of: "."), dot != file.startIndex { stem = String(file[..<dot]) }
        var cleaned = String(String.UnicodeScalarView(stem.unicodeScalars.map {
            $0 == "/" || $0 == ":" || $0.value < 0x20 || $0.value == 0x7F ? "_" : $0
        }))
        if cleaned.hasPrefix(".") { cleaned = "_" + cleaned.dropFirst() }
        return cleaned.isEmpty ? asset.uuid : cleaned
    }
}

/// The SQLite side of `PhotosLibraryDatabase`.
enum PhotosSQLiteReader {
    static func readAssets(database: String) throws(FileError)
        -> (table: String, assets: [PhotosLibraryAsset], metadataNote: String?) {
        func fail(_ problem: String, kind: FileError.Kind = .unreadable) -> FileError {
            FileError(path: database, kind: kind, problem: problem)
        }
        var status = stat()
        guard stat(database, &status) == 0 else {
            throw fail("cannot read the Photos database: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw fail("cannot read the Photos database: not a file") }
        guard access(database, R_OK) == 0 else {
            throw fail("cannot read the Photos database: \(String(cString: strerror(errno)))")
        }
        var walStatus = stat()
        let hasWAL = stat(database + "-wal", &walStatus) == 0 && walStatus.st_size > 0

        let connection: Connection
        var scratch: String?
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        if hasWAL {
            let folder: String
            do throws(PhotosSQLiteError) { folder = try privateFolder() } catch { throw fail(error.message) }
            scratch = folder
            let copy = (folder as NSString).appendingPathComponent("Photos.sqlite")
            do throws(PhotosSQLiteError) { try copyStable([(database, copy), (database + "-wal", copy + "-wal")]) } catch {
                throw fail(error.message)
            }
            connection = try openConnection(copy, flags: SQLITE_OPEN_READONLY, database: database)
        } else {
            connection = try openConnection("file:" + uriPath(database) + "?immutable=1",
                                  flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, database: database)
        }
        defer { sqlite3_close_v2(connection.handle) }
        do throws(PhotosSQLiteError) {
            try connection.execute("PRAGMA query_only = 1")
            try connection.execute("PRAGMA trusted_schema = 0")
            let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].text })
            guard let table = ["ZASSET", "ZGENERICASSET"].first(where: tables.contains) else {
                throw PhotosSQLiteError("not a Photos library database (no ZASSET or ZGENERICASSET table)", kind: .invalidContent)
            }
            let assetColumns = try connection.columns(of: table)
            guard assetColumns.contains("ZUUID"), assetColumns.contains("Z_PK") else {
                throw PhotosSQLiteError("not a Photos library database (\(table) has no ZUUID)", kind: .invalidContent)
            }
            let attributes = tables.contains("ZADDITIONALASSETATTRIBUTES")
                ? try connection.columns(of: "ZADDITIONALASSETATTRIBUTES") : []
            let joined = attributes.contains("ZASSET") && attributes.contains("ZORIGINALFILENAME")
            func column(_ name: String) -> String { assetColumns.contains(name) ? "a.\(name)" : "NULL" }
            // Photos 10 (macOS 15) replaced ZHASADJUSTMENTS by ZADJUSTMENTSSTATE (0: none, 2: edited
            // with a render, 3: a slow-motion video's plist only): docs/spec/photos-library.md §1.
            let adjusted = assetColumns.contains("ZHASADJUSTMENTS") ? "a.ZHASADJUSTMENTS" : column("ZADJUSTMENTSSTATE")
            let select = [column("Z_PK"), column("ZUUID"), column("ZDIRECTORY"), column("ZFILENAME"),
                          joined ? "b.ZORIGINALFILENAME" : "NULL", adjusted, column("ZTRASHEDSTATE"),
                          column("ZKIND"), column("ZADDEDDATE"), column("ZSAVEDASSETTYPE")].joined(separator: ", ")
            let from = joined ? "\(table) a LEFT JOIN ZADDITIONALASSETATTRIBUTES b ON b.ZASSET = a.Z_PK" : "\(table) a"
            // The LEFT JOIN could repeat an asset with two attribute rows: the first row is kept.
            var seen: Set<String> = []
            var assets: [PhotosLibraryAsset] = []
            for row in try connection.rows("SELECT \(select) FROM \(from) ORDER BY a.Z_PK") {
                guard let uuid = row[1].text, !uuid.isEmpty, seen.insert(uuid).inserted else { continue }
                let directory = row[2].text, fileName = row[3].text
                let referenced = directory?.hasPrefix("/") == true || row[9].integer == 10
                let original: PhotosLibraryAsset.Original
                if let directory, !directory.isEmpty, let fileName, !fileName.isEmpty {
                    original = referenced
                        ? .referenced(path: directory.hasPrefix("/") ? (directory as NSString).appendingPathComponent(fileName) : nil)
                        : .inLibrary(relativePath: "originals/\(directory)/\(fileName)")
                } else {
                    original = referenced ? .referenced(path: nil) : .unknown
                }
                let kind: PhotosLibraryAsset.Kind = switch row[7].integer {
                case 0: .photo
                case 1: .video
                case let other: .other(Int(other ?? -1))
                }
                assets.append(PhotosLibraryAsset(
                    uuid: uuid, primaryKey: row[0].integer ?? 0, directory: directory, fileName: fileName,
                    originalFileName: row[4].text, hasAdjustments: (row[5].integer ?? 0) != 0,
                    isTrashed: (row[6].integer ?? 0) != 0, kind: kind, addedDate: row[8].real, original: original))
            }
            // What the user set in Photos: never worth an asset. Whatever cannot be read is said once.
            var note: String?
            do throws(PhotosSQLiteError) {
                let metadata = try PhotosLibraryMetadataReader.read(connection, assetTable: table, assetColumns: assetColumns,
                                                                    tables: tables)
                for index in assets.indices { assets[index].metadata = metadata.byAsset[assets[index].primaryKey] }
                if !metadata.missing.isEmpty {
                    note = "the Photos database holds no " + metadata.missing.joined(separator: ", ")
                        + "; outputs go without them"
                }
            } catch {
                note = "\(error.message); outputs go without the dates, places, titles and keywords set in Photos"
            }
            return (table, assets, note)
        } catch {
            throw fail(error.message, kind: error.kind)
        }
    }

    // MARK: SQLite

    struct Value {
        var text: String?
        var integer: Int64?
        var real: Double?
    }

    final class Connection {
        let handle: OpaquePointer
        init(_ handle: OpaquePointer) { self.handle = handle }

        func error(_ code: Int32) -> PhotosSQLiteError {
            let message = String(cString: sqlite3_errmsg(handle))
            let corrupt = [SQLITE_CORRUPT, SQLITE_NOTADB].contains(code & 0xFF)
            return PhotosSQLiteError("cannot read the Photos database: " + (message.isEmpty ? String(cString: sqlite3_errstr(code)) : message),
                                     kind: corrupt ? .invalidContent : .unreadable)
        }

        func execute(_ sql: String) throws(PhotosSQLiteError) {
            let code = sqlite3_exec(handle, sql, nil, nil, nil)
            guard code == SQLITE_OK else { throw error(code) }
        }

        func rows(_ sql: String) throws(PhotosSQLiteError) -> [[Value]] {
            var statement: OpaquePointer?
            let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            guard prepared == SQLITE_OK, let statement else { throw error(prepared) }
            var rows: [[Value]] = []
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { return rows }
                guard step == SQLITE_ROW else { throw error(step) }
                rows.append((0..<sqlite3_column_count(statement)).map { index in
                    switch sqlite3_column_type(statement, index) {
                    case SQLITE_INTEGER:
                        let value = sqlite3_column_int64(statement, index)
                        return Value(text: String(value), integer: value, real: Double(value))
                    case SQLITE_FLOAT:
                        let value = sqlite3_column_double(statement, index)
                        return Value(text: nil, integer: Int64(exactly: value), real: value)
                    case SQLITE_TEXT:
                        let text = sqlite3_column_text(statement, index).map { String(cString: $0) }
                        return Value(text: text, integer: text.flatMap { Int64($0) }, real: text.flatMap { Double($0) })
                    default:
                        return Value()
                    }
                })
            }
        }

        func columns(of table: String) throws(PhotosSQLiteError) -> Set<String> {
            Set(try rows("PRAGMA table_info(\"\(table)\")").compactMap { $0.count > 1 ? $0[1].text : nil })
        }
    }

    static func openConnection(_ filename: String, flags: Int32, database: String) throws(FileError) -> Connection {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(filename, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw FileError(path: database, kind: .unreadable, problem: "cannot read the Photos database: \(message)")
        }
        return Connection(handle)
    }

    /// `path` for an SQLite `file:` URI: every byte but unreserved ones and `/` percent-encoded.
    static func uriPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var out = ""
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                 UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    // MARK: the private copy

    /// A new folder only this user can enter, under the temporary folder.
    static func privateFolder() throws(PhotosSQLiteError) -> String {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("adjust-photos-db.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw PhotosSQLiteError("cannot read the Photos database: cannot make a temporary folder: \(String(cString: strerror(errno)))", kind: .unreadable)
        }
        return String(cString: made)
    }

    /// Copies each pair's first file to its second; again once if a source changed meanwhile.
    static func copyStable(_ pairs: [(String, String)]) throws(PhotosSQLiteError) {
        func identity(_ path: String) -> [Int] {
            var status = stat()
            guard stat(path, &status) == 0 else { return [] }
            return [Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_ino)]
        }
        for attempt in 1...2 {
            let before = pairs.map { identity($0.0) }
            for (source, destination) in pairs { try copy(source, to: destination) }
            if pairs.map({ identity($0.0) }) == before { return }
            if attempt == 2 { throw PhotosSQLiteError("cannot read the Photos database: it changed while it was read (is Photos using it?)", kind: .unreadable) }
        }
    }

    /// Copies `source` (opened read-only) to a new file `destination` (mode 0600).
    static func copy(_ source: String, to destination: String) throws(PhotosSQLiteError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw PhotosSQLiteError("cannot read the Photos database: \(source): \(String(cString: strerror(errno)))", kind: .unreadable) }
        defer { close(input) }
        unlink(destination)
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw PhotosSQLiteError("cannot read the Photos database: cannot copy it: \(String(cString: strerror(errno)))", kind: .unreadable)
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw PhotosSQLiteError("cannot read the Photos database: \(source): \(String(cString: strerror(errno)))", kind: .unreadable)
            }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0 {
                    if errno == EINTR { continue }
                    throw PhotosSQLiteError("cannot read the Photos database: cannot copy it: \(String(cString: strerror(errno)))", kind: .unreadable)
                }
                written += step
            }
        }
    }
}

/// An SQLite or copying failure, before it is tied to the database's path.
struct PhotosSQLiteError: Error {
    var message: String
    var kind: FileError.Kind
    init(_ message: String, kind: FileError.Kind) { (self.message, self.kind) = (message, kind) }
}
