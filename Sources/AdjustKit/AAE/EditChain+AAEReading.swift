extension EditChain {
    /// The chain of a modern Photos edit (docs/spec/aae-format.md §3, §4): each enabled adjustment
    /// that a registered filter carries is read by that filter; an unsupported or unknown one
    /// becomes an `UnsupportedAdjustment` step (refused at render time unless skipped); a
    /// not-for-stills one is left out with a note. The JSON array's order does not matter: the
    /// chain keeps the registry's, which is Apple's.
    public init(aae document: AAEDocument, assumptions: AAEAssumptions = .default,
                notes: inout [String]) throws(AAEError) {
        self.init()
        for adjustment in document.adjustments {
            switch AAESupport.level(of: adjustment) {
            case .notForStills:
                notes.append(Self.notForStillsNote(adjustment.identifier))
            case .unsupported, .unknown:
                let isUnknown = AAESupport.entry(adjustment.identifier).level == .unknown
                insert(UnsupportedAdjustment(name: Self.unsupportedName(adjustment), isUnknown: isUnknown))
            case .exact, .strong, .approximate:
                guard let kind = FilterRegistry.aaeKinds[adjustment.identifier] else {
                    insert(UnsupportedAdjustment(name: adjustment.identifier))
                    continue
                }
                try Self.read(kind, adjustment, assumptions, into: &self)
            }
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

    private static func unsupportedName(_ adjustment: AAEAdjustment) -> String {
        guard adjustment.identifier == "Effect" || adjustment.identifier == "Effect3D",
              let name = adjustment.settings["effectName"]?.stringValue else { return adjustment.identifier }
        return "\(adjustment.identifier) (\(name.prefix(40)))"
    }

    private static func notForStillsNote(_ identifier: String) -> String {
        if identifier == "LivePhotoKeyFrame" {
            return "LivePhotoKeyFrame ignored: Photos shows another frame of the Live Photo's video as the still; "
                + "this render is of the photo's own still image, not that frame"
        }
        return "\(identifier) ignored: it concerns video or capture, not a still"
    }
}
