/// A filter that a modern Photos edit carries as one adjustment (docs/spec/aae-format.md §3):
/// it names its identifier, states how well it replays it and reads its own settings, so the AAE
/// reader never names a filter and the support table is the filters themselves.
protocol AAEAdjustmentFilter: EditFilter {
    /// The adjustment's `identifier`, e.g. `SmartTone`.
    static var aaeIdentifier: String { get }
    /// How well this version replays `adjustment`, refined from its settings where §3 does;
    /// `hasUserCube` when the user gave an effect table (`--effect-cube`). Settings of the wrong
    /// type count as absent here: `read` reports them.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel
    /// The step for `adjustment`'s settings; nil when it changes nothing. Settings of the wrong
    /// type, or out of their range, throw naming the adjustment and the key.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Self?
    /// The adjustment's name in the "not replayed" line when it is left out.
    static func notReplayedName(_ adjustment: AAEAdjustment) -> String
    /// Refuses the whole file when a setting holds a hostile magnitude (checked as the document
    /// is read, before any chain is built); most filters have none to check.
    static func refuseHostileValues(in adjustment: AAEAdjustment, limits: AAELimits) throws(AAEError)
}

extension AAEAdjustmentFilter {
    static func notReplayedName(_ adjustment: AAEAdjustment) -> String { adjustment.identifier }
    static func refuseHostileValues(in adjustment: AAEAdjustment, limits: AAELimits) throws(AAEError) {}
}
