/// How colour filters are rendered.
public struct ColourOptions: Sendable {
    public var workingSpace: WorkingSpace
    /// Exact tables supplied by the user; effects without one use `BuiltInPhotoEffects`.
    public var effectCubes: [PhotoEffect: ColourCube]
    /// Render past `aas:Filters` names this version does not know (with a warning) instead of failing.
    public var skipUnknownFilters: Bool

    public init(workingSpace: WorkingSpace = .linear, effectCubes: [PhotoEffect: ColourCube] = [:],
                skipUnknownFilters: Bool = false) {
        (self.workingSpace, self.effectCubes, self.skipUnknownFilters) = (workingSpace, effectCubes, skipUnknownFilters)
    }
}
