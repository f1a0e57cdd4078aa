extension EditChain {
    /// The chain of a modern Photos edit (docs/spec/aae-format.md §3, §4, §5.4): each enabled
    /// adjustment that a registered filter carries is read by that filter; an unsupported or
    /// unknown one, or one whose settings cannot be read (a wrong type, a value out of range),
    /// becomes an `UnsupportedAdjustment` step — not replayed, named in the render's warning —
    /// so that one unreadable adjustment never costs the whole photo; a not-for-stills one is
    /// left out with a note; one marked `isDefaults: true` changes nothing and is left out.
    /// `metadata.orientation` (1–8), the user's rotate and flip, becomes a `PhotosOrientation`
    /// step that replaces the file's own orientation (§5.4); an `Orientation` adjustment entry,
    /// should one appear, means the same and wins. The JSON array's order does not matter: the
    /// chain keeps the registry's, which is Apple's.
    package init(aae document: AAEDocument, assumptions: AAEAssumptions = .default,
                notes: inout [String]) throws(AAEError) {
        self.init()
        for adjustment in document.adjustments where !adjustment.isAtDefaults {
            let kind = FilterRegistry.aaeKinds[adjustment.identifier]
            let name = kind?.notReplayedName(adjustment) ?? adjustment.identifier
            switch FilterRegistry.aaeSupport(of: adjustment) {
            case .notForStills:
                notes.append(FilterRegistry.notForStillsAAENotes[adjustment.identifier] ?? name)
            case .unsupported, .unknown:
                insert(UnsupportedAdjustment(name: name, isUnknown: kind == nil
                                                && !FilterRegistry.unsupportedAAEIdentifiers.contains(adjustment.identifier)))
            case .exact, .strong, .approximate:
                guard let kind else { continue }   // a replayed level comes only from a filter
                do {
                    try Self.read(kind, adjustment, assumptions, into: &self)
                } catch {
                    insert(UnsupportedAdjustment(name: name, reason: error.settingProblem))
                }
            }
        }
        if self[PhotosOrientation.self] == nil, let orientation = Orientation(rawValue: document.metadata.orientation) {
            self[PhotosOrientation.self] = PhotosOrientation(orientation, meaning: assumptions.orientation)
        }
        if !document.disabledAdjustments.isEmpty {
            notes.append("disabled adjustments ignored: " + document.disabledAdjustments.joined(separator: ", "))
        }
    }

    private static func read<Kind: AAEAdjustmentFilter>(_ kind: Kind.Type, _ adjustment: AAEAdjustment,
                                                       _ assumptions: AAEAssumptions,
                                                       into chain: inout EditChain) throws(AAEError) {
        if let step = try kind.read(aae: adjustment, assumptions: assumptions) { chain[kind] = step }
    }

}

extension AAEAdjustment {
    /// Photos marks an adjustment left at its defaults with `isDefaults: true` (aae-format.md
    /// §10): it changes nothing, whatever its other settings say.
    var isAtDefaults: Bool { settings["isDefaults"]?.flagValue == true }
}

extension AAEError {
    /// What is wrong with one adjustment's settings, for the "not replayed" line.
    var settingProblem: String {
        switch self {
        case .missingSetting(_, let key):
            return "no setting \(Self.quoted(key))"
        case .wrongSettingType(_, let key, let expected, let found):
            return "setting \(Self.quoted(key)) must be \(expected), got \(found)"
        case .pixelValueOutOfRange(_, let key, let value, let limit):
            return "setting \(Self.quoted(key)) is \(value), beyond ±\(limit)"
        default:
            return Self.shortened(description)
        }
    }
}
