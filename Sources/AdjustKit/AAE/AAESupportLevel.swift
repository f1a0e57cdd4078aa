/// How faithfully this version replays one modern Photos adjustment (docs/spec/aae-format.md §3,
/// filters.md's marks). Each filter that reads an adjustment states its own
/// (`AAEAdjustmentFilter.aaeSupport`); `FilterRegistry` names the identifiers no filter reads.
package enum AAESupportLevel: String, Sendable, Equatable, CaseIterable {
    /// The formula is public.
    case exact
    /// The formula is known; a constant or version is uncertain.
    case strong
    /// A documented stand-in, flagged.
    case approximate
    /// Cannot be rendered: left out and named in the render's warning (refused under `--strict`).
    case unsupported
    /// Nothing to do to a still; a note says what was ignored.
    case notForStills = "not-for-stills"
    /// An identifier this version has never heard of: treated as unsupported and named.
    case unknown

    /// True for the levels that are replayed.
    var isReplayed: Bool { self == .exact || self == .strong || self == .approximate }
}
