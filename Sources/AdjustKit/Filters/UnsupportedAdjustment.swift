/// A modern Photos adjustment this version cannot render (docs/spec/aae-format.md §3: the
/// unsupported rows, and any identifier not in the table). It is kept in the chain so that
/// `inspect` shows it; a render refuses the edit naming it, or leaves it out when asked to
/// (`ColourOptions.skipUnknownFilters`, the CLI's `--skip-unsupported`).
public struct UnsupportedAdjustment: Equatable, Sendable {
    /// The adjustment's identifier, with what makes it unsupported where the identifier alone
    /// does not say (e.g. `Effect (Vivid)`).
    public var name: String
    /// True when the identifier is not in the spec's table at all.
    public var isUnknown: Bool

    public init(name: String, isUnknown: Bool = false) { (self.name, self.isUnknown) = (name, isUnknown) }
}

extension UnsupportedAdjustment: EditFilter, ColourFilter {
    public static let filterName = "unsupported adjustment"
    /// Where Apple's pipeline runs most of them: on the stored image, before the geometry.
    public static let role = FilterRole.storedColour

    public var stepName: String { name }
    public var parameterValues: [(String, ParameterValue)] { isUnknown ? [("Known", .text("no"))] : [] }
    public func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .unsupported }
    public func rescaled(by factors: RescaleFactors) -> UnsupportedAdjustment { self }

    func colourStage(options: ColourOptions) throws(RenderError) -> ColourStage {
        guard options.skipUnknownFilters else { throw .unsupportedAdjustments([name]) }
        return ColourStage(skipped: "unsupported adjustment \(name) skipped")
    }
}
