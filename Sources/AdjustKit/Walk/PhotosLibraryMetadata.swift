import Foundation

/// What the user set in Photos for one asset, as `database/Photos.sqlite` holds it
/// (docs/spec/photos-library.md §2): the values Photos shows, which the original file does not
/// carry when they were changed in Photos (the original is never rewritten).
package struct PhotosAssetMetadata: Sendable, Equatable {
    /// `asset.ZDATECREATED`: the capture time, seconds since 2001-01-01 00:00 UTC.
    package var created: Double?
    /// `AAA.ZTIMEZONEOFFSET`: seconds east of UTC of the place it was taken.
    package var timeZoneOffset: Int?
    /// `AAA.ZTIMEZONENAME`: `America/New_York`, `GMT-0400`.
    package var timeZoneName: String?
    /// `asset.ZLATITUDE`, `asset.ZLONGITUDE`; nil when Photos holds none (−180, −180).
    package var latitude: Double?
    package var longitude: Double?
    /// `AAA.ZTITLE`; nil when empty.
    package var title: String?
    /// `ZASSETDESCRIPTION.ZLONGDESCRIPTION`; nil when empty.
    package var caption: String?
    /// `ZKEYWORD.ZTITLE` of the keyword join, sorted, each once.
    package var keywords: [String] = []
    /// `asset.ZFAVORITE`.
    package var isFavorite = false
    /// The user albums holding it (not in the trash), each as its folder path ending in the
    /// album's title (`["Folder1", "SubFolder2", "AlbumInFolder"]`), sorted.
    package var albums: [[String]] = []

    package init() {}

    /// The capture time as Photos shows it, in the place's time zone, to the second (Photos shows
    /// seconds; the fraction ZDATECREATED may hold is dropped): `local` is "YYYY-MM-DDTHH:MM:SS",
    /// `offset` "+HH:MM", or "Z" where the database holds no offset (the time is then UTC). Nil
    /// without a date, or one outside years 1–9999 (a corrupt value).
    package var captureTime: (local: String, offset: String)? {
        guard let created, created.isFinite else { return nil }
        let offset = timeZoneOffset ?? 0
        let seconds = (created.rounded(.down) + Double(offset))
        // Year 1 to 9999 around the 2001 reference date, so the arithmetic below stays exact.
        guard seconds > -63_113_904_000, seconds < 252_423_993_600 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSinceReferenceDate: seconds))
        guard let year = parts.year, (1...9999).contains(year), let month = parts.month, let day = parts.day,
              let hour = parts.hour, let minute = parts.minute, let second = parts.second else { return nil }
        let local = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
        guard timeZoneOffset != nil else { return (local, "Z") }
        let sign = offset < 0 ? "-" : "+"
        return (local, String(format: "%@%02d:%02d", sign, abs(offset) / 3600, abs(offset) % 3600 / 60))
    }

    /// True when Photos holds nothing of this set for the asset.
    package var isEmpty: Bool {
        captureTime == nil && latitude == nil && title == nil && caption == nil && keywords.isEmpty && !isFavorite
            && albums.isEmpty
    }

    /// A canonical text of every value, for the provenance (`--update` writes again when it
    /// changes): one field a line, in a fixed order.
    package var canonicalText: String {
        let time = captureTime.map { $0.local + $0.offset } ?? "-"
        let place = latitude.flatMap { lat in longitude.map { "\(lat),\($0)" } } ?? "-"
        return ["date=\(time)", "zone=\(timeZoneName ?? "-")", "place=\(place)", "title=\(title ?? "")",
                "caption=\(caption ?? "")", "keywords=\(keywords.joined(separator: "\u{1F}"))",
                "favorite=\(isFavorite)", "albums=\(albums.map { $0.joined(separator: "\u{1F}") }.joined(separator: "\u{1E}"))"]
            .joined(separator: "\n")
    }
}

/// Reads `PhotosAssetMetadata` for every asset, on the connection `PhotosSQLiteReader` opened.
///
/// **Versions** (docs/spec/photos-library.md §1): columns are found with `PRAGMA table_info` and
/// a missing one reads as none; the keyword and album join tables are named by entity numbers
/// read from `Z_PRIMARYKEY` (`Z_<AdditionalAssetAttributes>KEYWORDS`, `Z_<Album>ASSETS`), never
/// from a table of versions. Whatever is missing is left out and named once in `missing`.
enum PhotosLibraryMetadataReader {
    struct Result {
        /// By the asset's `Z_PK`.
        var byAsset: [Int64: PhotosAssetMetadata] = [:]
        /// What the database lacks ("keywords", "albums"…), for one note.
        var missing: [String] = []
    }

    static func read(_ connection: PhotosSQLiteReader.Connection, assetTable table: String, assetColumns: Set<String>,
                     tables: Set<String>) throws(PhotosSQLiteError) -> Result {
        var result = Result()
        let attributes = tables.contains("ZADDITIONALASSETATTRIBUTES")
            ? try connection.columns(of: "ZADDITIONALASSETATTRIBUTES") : []
        let joined = attributes.contains("ZASSET")
        func asset(_ name: String) -> String { assetColumns.contains(name) ? "a.\(name)" : "NULL" }
        func extra(_ name: String) -> String { joined && attributes.contains(name) ? "b.\(name)" : "NULL" }
        let descriptions = tables.contains("ZASSETDESCRIPTION") ? try connection.columns(of: "ZASSETDESCRIPTION") : []
        let hasCaptions = joined && attributes.contains("ZASSETDESCRIPTION") && descriptions.contains("ZLONGDESCRIPTION")
        if !assetColumns.contains("ZDATECREATED") { result.missing.append("dates") }
        if !joined || !attributes.contains("ZTIMEZONEOFFSET") { result.missing.append("time zones") }
        if !assetColumns.contains("ZLATITUDE") || !assetColumns.contains("ZLONGITUDE") { result.missing.append("places") }
        if !joined || !attributes.contains("ZTITLE") { result.missing.append("titles") }
        if !hasCaptions { result.missing.append("captions") }
        if !assetColumns.contains("ZFAVORITE") { result.missing.append("favourites") }

        let select = [asset("Z_PK"), asset("ZDATECREATED"), extra("ZTIMEZONEOFFSET"), extra("ZTIMEZONENAME"),
                      asset("ZLATITUDE"), asset("ZLONGITUDE"), extra("ZTITLE"), asset("ZFAVORITE"),
                      hasCaptions ? "d.ZLONGDESCRIPTION" : "NULL", joined ? "b.Z_PK" : "NULL"].joined(separator: ", ")
        var from = "\(table) a"
        if joined { from += " LEFT JOIN ZADDITIONALASSETATTRIBUTES b ON b.ZASSET = a.Z_PK" }
        if hasCaptions { from += " LEFT JOIN ZASSETDESCRIPTION d ON d.Z_PK = b.ZASSETDESCRIPTION" }
        var assetOfAttributes: [Int64: Int64] = [:]
        for row in try connection.rows("SELECT \(select) FROM \(from) ORDER BY a.Z_PK") {
            guard let key = row[0].integer, result.byAsset[key] == nil else { continue }
            var metadata = PhotosAssetMetadata()
            metadata.created = row[1].real
            metadata.timeZoneOffset = row[2].integer.map { Int($0) }
            metadata.timeZoneName = row[3].text.flatMap { $0.isEmpty ? nil : $0 }
            // −180 (either) is Photos' "no place"; anything outside the globe is none too.
            if let latitude = row[4].real, let longitude = row[5].real, abs(latitude) <= 90, abs(longitude) <= 180,
               latitude != -180, longitude != -180 {
                (metadata.latitude, metadata.longitude) = (latitude, longitude)
            }
            metadata.title = row[6].text.flatMap { $0.isEmpty ? nil : $0 }
            metadata.isFavorite = (row[7].integer ?? 0) != 0
            metadata.caption = row[8].text.flatMap { $0.isEmpty ? nil : $0 }
            if let attributesKey = row[9].integer { assetOfAttributes[attributesKey] = key }
            result.byAsset[key] = metadata
        }

        let entities = try entityNumbers(connection, tables: tables)
        if let keywords = try keywords(connection, entities: entities, tables: tables) {
            for (attributesKey, names) in keywords {
                guard let key = assetOfAttributes[attributesKey] else { continue }
                result.byAsset[key]?.keywords = Array(Set(names)).sorted()
            }
        } else {
            result.missing.append("keywords")
        }
        if let albums = try albums(connection, entities: entities, tables: tables) {
            for (key, paths) in albums { result.byAsset[key]?.albums = paths.sorted { $0.lexicographicallyPrecedes($1) } }
        } else {
            result.missing.append("albums")
        }
        return result
    }

    /// `Z_PRIMARYKEY`: entity name → number; empty when the table is missing.
    private static func entityNumbers(_ connection: PhotosSQLiteReader.Connection,
                                      tables: Set<String>) throws(PhotosSQLiteError) -> [String: Int64] {
        guard tables.contains("Z_PRIMARYKEY") else { return [:] }
        let columns = try connection.columns(of: "Z_PRIMARYKEY")
        guard columns.contains("Z_ENT"), columns.contains("Z_NAME") else { return [:] }
        var numbers: [String: Int64] = [:]
        for row in try connection.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY") {
            if let name = row[0].text, let number = row[1].integer { numbers[name] = number }
        }
        return numbers
    }

    /// Keyword names by `ZADDITIONALASSETATTRIBUTES.Z_PK`; nil when the tables are not there.
    private static func keywords(_ connection: PhotosSQLiteReader.Connection, entities: [String: Int64],
                                 tables: Set<String>) throws(PhotosSQLiteError) -> [Int64: [String]]? {
        guard let attributesEntity = entities["AdditionalAssetAttributes"], let keywordEntity = entities["Keyword"],
              tables.contains("ZKEYWORD") else { return nil }
        let join = "Z_\(attributesEntity)KEYWORDS"
        let owner = "Z_\(attributesEntity)ASSETATTRIBUTES", keyword = "Z_\(keywordEntity)KEYWORDS"
        guard tables.contains(join) else { return nil }
        let columns = try connection.columns(of: join), keywordColumns = try connection.columns(of: "ZKEYWORD")
        guard columns.contains(owner), columns.contains(keyword), keywordColumns.contains("ZTITLE") else { return nil }
        var names: [Int64: [String]] = [:]
        for row in try connection.rows("SELECT j.\(owner), k.ZTITLE FROM \(join) j JOIN ZKEYWORD k ON k.Z_PK = j.\(keyword)") {
            guard let owner = row[0].integer, let name = row[1].text, !name.isEmpty else { continue }
            names[owner, default: []].append(name)
        }
        return names
    }

    /// The user albums (folder path + title) by the asset's `Z_PK`; nil when the tables are not
    /// there. Only user albums (`ZKIND` 2) not in the trash; folders (4000) make the path, up to
    /// the root folder (3999).
    private static func albums(_ connection: PhotosSQLiteReader.Connection, entities: [String: Int64],
                               tables: Set<String>) throws(PhotosSQLiteError) -> [Int64: [[String]]]? {
        guard let albumEntity = entities["Album"], tables.contains("ZGENERICALBUM") else { return nil }
        let join = "Z_\(albumEntity)ASSETS", album = "Z_\(albumEntity)ALBUMS"
        guard tables.contains(join) else { return nil }
        let columns = try connection.columns(of: join)
        // The asset side is named for the asset table's entity: GenericAsset (Photos 5) or Asset.
        guard columns.contains(album), let assetColumn = ["Asset", "GenericAsset"].compactMap({ entities[$0] })
                .map({ "Z_\($0)ASSETS" }).first(where: columns.contains) else { return nil }
        let albumColumns = try connection.columns(of: "ZGENERICALBUM")
        guard ["Z_PK", "ZKIND", "ZTITLE"].allSatisfy(albumColumns.contains) else { return nil }
        let parent = albumColumns.contains("ZPARENTFOLDER") ? "ZPARENTFOLDER" : "NULL"
        let trashed = albumColumns.contains("ZTRASHEDSTATE") ? "ZTRASHEDSTATE" : "0"
        struct Node { var kind: Int64?; var title: String?; var parent: Int64?; var trashed: Bool }
        var nodes: [Int64: Node] = [:]
        for row in try connection.rows("SELECT Z_PK, ZKIND, ZTITLE, \(parent), \(trashed) FROM ZGENERICALBUM") {
            guard let key = row[0].integer else { continue }
            nodes[key] = Node(kind: row[1].integer, title: row[2].text, parent: row[3].integer, trashed: (row[4].integer ?? 0) != 0)
        }
        func path(of key: Int64) -> [String]? {
            guard let node = nodes[key], node.kind == 2, !node.trashed, let title = node.title, !title.isEmpty else { return nil }
            var path = [title], next = node.parent, seen: Set<Int64> = [key]
            while let current = next, seen.insert(current).inserted, let folder = nodes[current], folder.kind == 4000 {
                if let name = folder.title, !name.isEmpty { path.insert(name, at: 0) }
                next = folder.parent
            }
            return path
        }
        var albums: [Int64: [[String]]] = [:]
        var paths: [Int64: [String]?] = [:]
        for row in try connection.rows("SELECT \(album), \(assetColumn) FROM \(join)") {
            guard let albumKey = row[0].integer, let assetKey = row[1].integer else { continue }
            if paths[albumKey] == nil { paths[albumKey] = .some(path(of: albumKey)) }
            guard let found = paths[albumKey] ?? nil, !(albums[assetKey]?.contains(found) ?? false) else { continue }
            albums[assetKey, default: []].append(found)
        }
        return albums
    }
}
