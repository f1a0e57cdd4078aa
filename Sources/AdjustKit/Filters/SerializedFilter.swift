/// One item of `aas:Filters`: a Core Image filter name followed by `,Key=Value` pairs
/// (xmp-format.md §6). Kept exactly as parsed so that unknown filters survive a round trip.
package struct SerializedFilter: Equatable, Sendable {
    /// A parameter value as written: a number, a `[x y …]` vector, a `"quoted"` string, or `nil`.
    package enum Value: Equatable, Sendable {
        case number(Double)
        case vector([Double])
        case text(String)
        case null
    }

    /// One `Key=Value` pair of the item.
    package struct Parameter: Equatable, Sendable {
        /// The Core Image input key without the `input` prefix, e.g. `EV`.
        package var key: String
        /// The parsed value.
        package var value: Value
        /// The pair `key`=`value`.
        package init(key: String, value: Value) { (self.key, self.value) = (key, value) }
    }

    /// What the renderer makes of an item.
    package enum Meaning: Equatable, Sendable {
        case photoEffect(PhotoEffect)
        case exposure(ExposureAdjust)
        /// A name this project does not know, or a known name with parameters it cannot use.
        case unsupported
    }

    /// The Core Image filter name, e.g. `CIPhotoEffectNoir`.
    package var name: String
    /// The `Key=Value` pairs in written order.
    package var parameters: [Parameter]

    /// An item named `name` with `parameters` in order (none by default).
    package init(name: String, parameters: [Parameter] = []) {
        (self.name, self.parameters) = (name, parameters)
    }

    /// The value of the first parameter whose key is exactly `key`, or nil.
    package func parameter(_ key: String) -> Value? {
        parameters.first { $0.key == key }?.value
    }

    /// A photo effect by name, `CIExposureAdjust` with a numeric `EV`, otherwise `.unsupported`.
    package var meaning: Meaning {
        if let effect = PhotoEffect(rawValue: name) { return .photoEffect(effect) }
        if let exposure = ExposureAdjust(serialized: self) { return .exposure(exposure) }
        return .unsupported
    }
}

extension SerializedFilter: AdjustmentXMPFilter, ColourFilter {
    package static let filterName = "aas:Filters item"
    static let xmpPropertyNames = ["Filters"]

    package var stepName: String { name }

    package var parameterValues: [(String, ParameterValue)] {
        parameters.map { parameter in
            switch parameter.value {
            case .number(let n): return (parameter.key, .number(n))
            case .vector(let v): return (parameter.key, .numbers(v))
            case .text(let t): return (parameter.key, .text(t))
            case .null: return (parameter.key, .text("nil"))
            }
        }
    }

    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport {
        switch meaning {
        case .exposure: return .exact
        case .photoEffect(let effect): return effect.support(exactEffects: exactEffects)
        case .unsupported: return .unknownFilter
        }
    }

    /// Unit-free (the known items; an unknown item is never rendered).
    package func rescaled(by factors: RescaleFactors) -> SerializedFilter { self }

    /// The `aas:Filters` array, item by item (xmp-format.md §6).
    static func readAll(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> [SerializedFilter] {
        let property = xmpPropertyNames[0]
        guard let filters = xmp.aas.value(property) else { return [] }
        guard case .array(_, let items) = filters else { throw .expectedArray(property: "aas:\(property)") }
        return try items.map { item throws(ChainError) in
            guard case .text(let text) = item else { throw .expectedSimpleValue(property: "aas:\(property) item") }
            return try SerializedFilterSyntax.parse(text)
        }
    }

    static func writeAll(_ steps: [SerializedFilter], to xmp: inout AdjustmentXMPWriter) {
        guard !steps.isEmpty else { return }
        xmp.textArray(xmpPropertyNames[0], steps.map { SerializedFilterSyntax.format($0, style: xmp.numberStyle) })
    }

    func colourStage(options: ColourOptions) throws(RenderError) -> ColourStage {
        switch meaning {
        case .exposure(let exposure): return .pixel(ExposureKernel(exposure))
        case .photoEffect(let effect): return effect.colourStage(options: options)
        case .unsupported:
            guard options.skipUnknownFilters else { throw .unknownFilter(name) }
            return ColourStage(skipped: "unknown filter \(name) skipped")
        }
    }
}

extension EditChain {
    /// The `aas:Filters` items in array order, applied after the geometry, to the output.
    package var serializedFilters: [SerializedFilter] {
        get { all(SerializedFilter.self) }
        set { setAll(SerializedFilter.self, newValue) }
    }
}
