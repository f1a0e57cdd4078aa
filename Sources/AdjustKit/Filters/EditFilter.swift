/// One kind of edit step — a Core Image filter of AdjustmentXMP, or an adjustment of a modern
/// Photos edit — as a value. Each kind lives in one file of `Filters/`, named after it, holding
/// its values, its names in the edit formats (read and written), its rescale rule for reduced
/// decodes, its support level and its kernel; `FilterRegistry` lists the kinds in application
/// order, and everything that walks a chain (the XMP reader and writer, the rescaler, `inspect`,
/// the colour program) iterates over that list instead of naming filters.
package protocol EditFilter: Sendable {
    /// Core Image's name for the step (`CIVibrance`), or a descriptive one where there is none.
    static var filterName: String { get }
    /// Which part of the renderer runs the step. No filter writes this: it comes with conforming to
    /// `ColourFilter` or `GeometryFilter`, so a filter that conforms to neither does not compile,
    /// rather than being skipped by the renderer.
    static var renderedBy: RenderedBy { get }
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
    package var stepName: String { Self.filterName }
}

extension EditFilter where Self: Equatable {
    package func isEqual(to other: any EditFilter) -> Bool { (other as? Self) == self }
}

/// The part of the renderer that runs a kind of step; only `ColourFilter` and `GeometryFilter`
/// can make one (the initializer is private to this file).
package struct RenderedBy: Equatable, Sendable {
    private let isColour: Bool
    fileprivate init(isColour: Bool) { self.isColour = isColour }

    /// The colour program runs it (`ColourFilter.colourStage`).
    static let colourProgram = RenderedBy(isColour: true)
    /// The planner and the sampler run it (`GeometryFilter`).
    static let geometry = RenderedBy(isColour: false)
}

extension ColourFilter {
    package static var renderedBy: RenderedBy { .colourProgram }
}

/// A filter that moves pixels (affine maps, crops, orientations): the planner turns it into the
/// sampling grid and the decoded region; it has no kernel.
protocol GeometryFilter: EditFilter {}

extension GeometryFilter {
    package static var renderedBy: RenderedBy { .geometry }
}

/// Where a step runs: on the stored image before the geometry, as the geometry, or on the output
/// after it. It follows from the step's place in the application order (docs/spec/filters.md §0,
/// `FilterRegistry`: stored-frame colour, then the geometry, then the output-frame steps), not
/// from anything a filter declares; what a colour step's kernel reads (one pixel, a pixel and its
/// place, a neighbourhood, areas of the stored image) is the kernel's own business.
public enum FilterRole: String, Sendable {
    /// A colour change on the stored image, before the geometry.
    case storedColour
    /// Moves pixels: affine transforms and crops.
    case geometry
    /// A colour change on the output, after the geometry (the `aas:Filters` items, the vignette).
    case outputColour
}

/// A parameter's value, for display (`adjust inspect`) and JSON.
public enum ParameterValue: Equatable, Sendable {
    /// One number (an angle, an amount, a pixel length).
    case number(Double)
    /// A vector or a list of numbers (a colour, a point, a curve's control points).
    case numbers([Double])
    /// A name (a photo effect's, a colour space's).
    case text(String)
    /// A list of items, each its own named parameters (red-eye spots, selective-colour corrections).
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
