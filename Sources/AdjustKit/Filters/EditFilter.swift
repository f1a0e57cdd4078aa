/// One kind of edit step — a Core Image filter of AdjustmentXMP, or an adjustment of a modern
/// Photos edit — as a value. Each kind lives in one file of `Filters/`, named after it, holding
/// its values, its names in the edit formats (read and written), its rescale rule for reduced
/// decodes, its support level and its kernel; `FilterRegistry` lists the kinds in application
/// order, and everything that walks a chain (the XMP reader and writer, the rescaler, `inspect`,
/// the colour program) iterates over that list instead of naming filters.
public protocol EditFilter: Sendable {
    /// Core Image's name for the step (`CIVibrance`), or a descriptive one where there is none.
    static var filterName: String { get }
    /// Where the step works: what it sees and when it runs.
    static var role: FilterRole { get }
    /// This step's name: `filterName`, except for kinds whose steps carry their own (an
    /// `aas:Filters` item's Core Image name).
    var stepName: String { get }
    /// The step's parameters, named as Core Image names its inputs (less the `input` prefix).
    var parameterValues: [(String, ParameterValue)] { get }
    /// How faithfully this version renders the step (docs/spec/filters.md's marks).
    func support(exactEffects: Set<PhotoEffect>) -> StepSupport
    /// The same step in the frame of a reduced decode (docs/spec/geometry.md §2): every
    /// pixel-valued parameter scaled, everything else kept.
    func rescaled(by factors: RescaleFactors) -> Self
    /// Value equality across the existential (`EditChain` holds `any EditFilter`).
    func isEqual(to other: any EditFilter) -> Bool
}

extension EditFilter {
    public var stepName: String { Self.filterName }
}

extension EditFilter where Self: Equatable {
    public func isEqual(to other: any EditFilter) -> Bool { (other as? Self) == self }
}

/// What a step works on, which fixes where it runs (docs/spec/filters.md §0, the canonical order).
public enum FilterRole: String, Sendable {
    /// A colour change on the stored image, before the geometry (the pixel's position unused).
    case storedColour
    /// A colour change on the stored image that depends on where the pixel is (red-eye).
    case storedPositional
    /// Moves pixels: affine transforms and crops.
    case geometry
    /// A colour change on the output, after the geometry (the `aas:Filters` items).
    case outputColour
    /// A colour change on the output that depends on where the pixel is (vignette).
    case outputPositional
}

/// A parameter's value, for display (`adjust inspect`) and JSON.
public enum ParameterValue: Equatable, Sendable {
    case number(Double)
    case numbers([Double])
    case text(String)
    case list([[(String, ParameterValue)]])

    /// Equal when both are the same case with equal values; `list` items compare as
    /// (name, value) pairs in order.
    public static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
        switch (lhs, rhs) {
        case let (.number(a), .number(b)): return a == b
        case let (.numbers(a), .numbers(b)): return a == b
        case let (.text(a), .text(b)): return a == b
        case let (.list(a), .list(b)):
            return a.count == b.count && zip(a, b).allSatisfy { x, y in
                x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            }
        default: return false
        }
    }
}

/// How faithfully a step is rendered.
public enum StepSupport: String, Sendable {
    /// The formula is known and implemented.
    case exact
    /// The structure is known and a constant was inferred (filters.md [strong]).
    case strong
    /// No public formula: a documented approximation.
    case approximate
    /// An `aas:Filters` name this version does not know.
    case unknownFilter = "unknown filter"
    /// A modern Photos adjustment this version cannot render (or does not know).
    case unsupported
}
