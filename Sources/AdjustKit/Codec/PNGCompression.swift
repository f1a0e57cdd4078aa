import CPNGRows

/// How hard a PNG output is deflated: zlib's level (0 stored … 9 smallest), and the row filter
/// libpng puts before it. Only the compressed bytes depend on it, never the pixels.
///
/// The default is chosen by measurement (docs/benchmark.md, "PNG output: zlib level and row
/// filter", `scripts/png-tradeoff`): on the 16 MP bench photo the Up filter made every level
/// smaller than no filter, and faster at levels 1 to 4; level 3 with Up is the knee of size
/// against time there — within 3 % of the size libpng's defaults (level 6, its adaptive filter
/// choice) give, in 0.28× their time, and 0.65× the size of level 6 unfiltered (`vips copy`'s)
/// in 0.63× its time. On a second 16 MP photo the filters rank differently (Sub best, Up 4 %
/// behind) and level 3 with Up is within 6 % of level 6 unfiltered's size in 0.45× its time.
/// The user chooses the level (`--png-compression`); the filter stays Up.
package struct PNGCompression: Equatable, Sendable {
    /// zlib's compression level, 0…9.
    package let level: Int
    /// libpng's filter flags (`PR_FILTER_*`): one filter, or several for libpng to choose among per row.
    package let filters: Int

    /// The levels zlib takes.
    package static let levels = 0...9

    /// `level` with the default filter, Up; nil outside 0…9.
    package init?(level: Int) {
        guard Self.levels.contains(level) else { return nil }
        self.init(level: level, filters: Int(PR_FILTER_UP))
    }

    private init(level: Int, filters: Int) {
        (self.level, self.filters) = (level, filters)
    }

    /// What a PNG is written with unless the user asks otherwise.
    package static let `default` = PNGCompression(level: 3)!
}
