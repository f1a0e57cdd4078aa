/// A parsed edit: its steps, kept in application order (`FilterRegistry`'s order; the
/// `aas:Filters` items, which may repeat, in their array order among themselves). The edit
/// formats are flat bags of properties, so every other kind occurs at most once.
public struct EditChain: Equatable, Sendable {
    /// The steps in application order.
    package private(set) var filters: [any EditFilter] = []

    /// The empty chain.
    package init() {}

    /// A chain of the given steps, put in application order.
    package init(_ filters: [any EditFilter]) {
        for filter in filters { insert(filter) }
    }

    /// A chain of the iOS 5–7 AdjustmentXMP filters; every one defaults to absent.
    package init(redEye: RedEyeCorrections? = nil, faceBalance: FaceBalance? = nil,
                vibrance: Vibrance? = nil, toneCurve: ToneCurve? = nil,
                highlightShadow: HighlightShadow? = nil, affine: AffineMap? = nil,
                crop: Crop? = nil, cameraRawCrop: CameraRawCrop? = nil,
                serializedFilters: [SerializedFilter] = []) {
        let single: [(any EditFilter)?] = [redEye, faceBalance, vibrance, toneCurve, highlightShadow,
                                           affine, crop, cameraRawCrop]
        self.init(single.compactMap { $0 } + serializedFilters)
    }

    /// True when the chain has no step at all: the original is rendered unchanged, upright.
    public var isEmpty: Bool { filters.isEmpty }

    /// The chain in application order.
    public var steps: [EditStep] { filters.map(EditStep.init) }

    /// The step of kind `kind`, for kinds that occur at most once; setting nil removes it.
    package subscript<Filter: EditFilter>(kind: Filter.Type) -> Filter? {
        get { filters.lazy.compactMap { $0 as? Filter }.first }
        set {
            filters.removeAll { $0 is Filter }
            if let newValue { insert(newValue) }
        }
    }

    /// Every step of kind `kind`, in order (for kinds that may repeat).
    package func all<Filter: EditFilter>(_ kind: Filter.Type) -> [Filter] { filters.compactMap { $0 as? Filter } }

    /// Replaces every step of kind `kind` by `steps`, in their order.
    package mutating func setAll<Filter: EditFilter>(_ kind: Filter.Type, _ steps: [Filter]) {
        filters.removeAll { $0 is Filter }
        for step in steps { insert(step) }
    }

    /// Each step replaced by `transform` of it (the rescaler's walk).
    package func mapFilters(_ transform: (any EditFilter) -> any EditFilter) -> EditChain {
        var chain = EditChain()
        for filter in filters { chain.insert(transform(filter)) }
        return chain
    }

    /// Inserts after every step of the same or an earlier kind: kinds keep the registry's order,
    /// repeated kinds their insertion order.
    mutating func insert(_ filter: any EditFilter) {
        guard let position = FilterRegistry.position(of: type(of: filter)) else {
            preconditionFailure("\(type(of: filter)) is not listed in FilterRegistry.kinds")
        }
        let index = filters.firstIndex { FilterRegistry.position(of: type(of: $0))! > position } ?? filters.endIndex
        filters.insert(filter, at: index)
    }

    public static func == (lhs: EditChain, rhs: EditChain) -> Bool {
        lhs.filters.count == rhs.filters.count && zip(lhs.filters, rhs.filters).allSatisfy { $0.isEqual(to: $1) }
    }

    /// The chain with a step whose geometry depends on the image's size (the Camera Raw crop
    /// fallback, a modern Photos crop) replaced by the explicit affine + crop it stands for on a
    /// stored image of `storedSize`.
    package func resolvingSizeDependentGeometry(storedSize: PixelSize) -> EditChain {
        guard let index = filters.firstIndex(where: { $0 is any StoredSizeGeometry }),
              let step = filters[index] as? any StoredSizeGeometry else { return self }
        var resolved = self
        let geometry = step.geometry(storedSize: storedSize)
        resolved.filters.remove(at: index)
        resolved[AffineMap.self] = geometry.affine
        resolved[Crop.self] = geometry.crop
        return resolved
    }
}

/// A geometry step defined relative to the stored image's size: it stands for an affine + crop
/// once that size is known.
package protocol StoredSizeGeometry: EditFilter {
    /// The affine + crop this step stands for on a stored image of `storedSize`.
    func geometry(storedSize: PixelSize) -> (affine: AffineMap, crop: Crop)
}

/// One step of an `EditChain`, in application order.
public struct EditStep: Equatable, Sendable {
    /// The step's values.
    package let filter: any EditFilter

    /// Wraps `filter`.
    package init(_ filter: any EditFilter) { self.filter = filter }

    /// The Core Image filter name (for the Camera Raw fallback, a descriptive name).
    public var filterName: String { filter.stepName }

    /// Where the step runs: before the geometry, as the geometry, or after it.
    public var role: FilterRole { FilterRegistry.role(of: type(of: filter)) }

    /// Geometry steps move pixels; every other step changes their colour.
    public var isGeometry: Bool { role == .geometry }

    /// The step's parameters, named as Core Image names its inputs (less the `input` prefix).
    public var parameters: [(String, ParameterValue)] { filter.parameterValues }

    /// How faithfully this version renders the step. Photo effects are approximate unless the
    /// caller supplies their exact table.
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport {
        filter.support(exactEffects: exactEffects)
    }

    /// How faithfully this version renders the step, with the built-in photo-effect tables
    /// (`adjust render` without `--effect-cube`).
    public var support: StepSupport { filter.support(exactEffects: []) }

    /// Equal when both steps are the same filter with equal values.
    public static func == (lhs: EditStep, rhs: EditStep) -> Bool { lhs.filter.isEqual(to: rhs.filter) }
}
