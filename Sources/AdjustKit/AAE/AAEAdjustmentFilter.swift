/// A filter that a modern Photos edit carries as one adjustment (docs/spec/aae-format.md §3):
/// it names its identifier and reads its own settings, so the AAE reader never names a filter.
protocol AAEAdjustmentFilter: EditFilter {
    /// The adjustment's `identifier`, e.g. `SmartTone`.
    static var aaeIdentifier: String { get }
    /// The step for `adjustment`'s settings; nil when it changes nothing. Settings of the wrong
    /// type, or out of their range, throw naming the adjustment and the key.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Self?
}
