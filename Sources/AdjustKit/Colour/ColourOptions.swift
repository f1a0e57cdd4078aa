/// How colour filters are rendered.
package struct ColourOptions: Sendable {
    /// Where the colour filters and the resampling compute: linear light (default) or sRGB-encoded values.
    package var workingSpace: WorkingSpace
    /// Exact tables supplied by the user; effects without one use `BuiltInPhotoEffects`.
    package var effectCubes: [PhotoEffect: ColourCube]
    /// Exact tables for the modern filters (`3DVivid`, …); the others use `ModernPhotoEffects`.
    package var modernEffectCubes: [ModernPhotoEffect: ColourCube]
    /// Render past `aas:Filters` names this version does not know (with a warning) instead of failing.
    package var skipUnknownFilters: Bool

    /// Defaults: linear working space, built-in effect approximations, unknown filters refused.
    package init(workingSpace: WorkingSpace = .linear, effectCubes: [PhotoEffect: ColourCube] = [:],
                modernEffectCubes: [ModernPhotoEffect: ColourCube] = [:], skipUnknownFilters: Bool = false) {
        (self.workingSpace, self.effectCubes, self.skipUnknownFilters) = (workingSpace, effectCubes, skipUnknownFilters)
        self.modernEffectCubes = modernEffectCubes
    }
}
