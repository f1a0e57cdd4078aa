/// A modern Photos adjustment this version cannot replay (docs/spec/aae-format.md §3: the
/// unsupported rows, any identifier not in the table, and an adjustment whose settings cannot be
/// read). It is kept in the chain so that `inspect` shows it; a render leaves it out and names it
/// (`Rendering.notReplayed`), or refuses the edit when asked to be strict
/// (`ColourOptions.skipUnknownFilters` false, the CLI's `--strict`).
package struct UnsupportedAdjustment: Equatable, Sendable {
    /// The adjustment's identifier, with what makes it unsupported where the identifier alone
    /// does not say (e.g. `Effect (Vivid)`).
    package var name: String
    /// True when the identifier is not in the spec's table at all.
    package var isUnknown: Bool
    /// Why a supported adjustment could not be read (a setting's type or range), or nil.
    package var reason: String?

    package init(name: String, isUnknown: Bool = false, reason: String? = nil) {
        (self.name, self.isUnknown, self.reason) = (name, isUnknown, reason)
    }

    /// The name, with the reason when there is one: what the "not replayed" line says.
    package var description: String { reason.map { "\(name) (\($0))" } ?? name }
}

extension UnsupportedAdjustment: EditFilter, ColourFilter {
    package static let filterName = "unsupported adjustment"
    /// Where Apple's pipeline runs most of them: on the stored image, before the geometry.

    package var stepName: String { name }
    package var parameterValues: [(String, ParameterValue)] {
        (isUnknown ? [("Known", .text("no"))] : []) + (reason.map { [("Reason", .text($0))] } ?? [])
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .unsupported }
    package func rescaled(by factors: RescaleFactors) -> UnsupportedAdjustment { self }

    func colourStage(options: ColourOptions) throws(RenderError) -> ColourStage {
        guard options.skipUnknownFilters else { throw .unsupportedAdjustments([description]) }
        return .identity   // named once for the whole edit, by `EditChain.notReplayed`
    }
}

extension EditChain {
    /// The modern Photos adjustments this chain holds but a render leaves out (not strict), one
    /// entry each, as the warning line and the batch record's `notReplayed` name them.
    package var notReplayed: [String] { all(UnsupportedAdjustment.self).map(\.description) }

    /// True when every step is one that is not replayed: rendering would give the unedited photo.
    package var replaysNothing: Bool { !isEmpty && filters.allSatisfy { $0 is UnsupportedAdjustment } }
}
