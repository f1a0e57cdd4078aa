/// The eight iOS 7 photo effects, carried by name in `aas:Filters` (and, by their short names,
/// in a modern edit's `Effect` adjustment). Approximate with the built-in tables
/// (`BuiltInPhotoEffects`), exact with the user's `.cube`.
package enum PhotoEffect: String, CaseIterable, Sendable {
    case chrome = "CIPhotoEffectChrome", fade = "CIPhotoEffectFade"
    case instant = "CIPhotoEffectInstant", mono = "CIPhotoEffectMono"
    case noir = "CIPhotoEffectNoir", process = "CIPhotoEffectProcess"
    case tonal = "CIPhotoEffectTonal", transfer = "CIPhotoEffectTransfer"

    /// The one parser of effect names: the Core Image name (`CIPhotoEffectNoir`) or the short one
    /// (`noir`, `Noir`), any case.
    package init?(name: String) {
        let lowered = name.lowercased()
        guard let effect = Self.allCases.first(where: {
            $0.rawValue.lowercased() == lowered || $0.rawValue.lowercased() == "ciphotoeffect" + lowered
        }) else { return nil }
        self = effect
    }

    /// The short name, e.g. `noir`.
    package var shortName: String { String(rawValue.dropFirst("CIPhotoEffect".count)).lowercased() }

    /// Exact with the user's table, else approximate.
    func support(exactEffects: Set<PhotoEffect>) -> StepSupport { exactEffects.contains(self) ? .exact : .approximate }

    /// The effect's kernel: the user's table when `options` has one, else the built-in
    /// approximation, with a note saying so.
    func colourStage(options: ColourOptions) -> ColourStage {
        if let cube = options.effectCubes[self] {
            return .pixel(PhotoEffectKernel(cube: cube, space: options.workingSpace))
        }
        return .pixel(PhotoEffectKernel(cube: BuiltInPhotoEffects.cube(for: self), space: options.workingSpace),
                          approximation: "\(rawValue) (built-in approximation; --effect-lut gives the exact table)")
    }
}

/// A photo effect: a 3-D table on sRGB-encoded values (filters.md §6), either the user's exact
/// `.cube` or the built-in approximation.
struct PhotoEffectKernel: PixelKernel {
    let cube: ColourCube
    let space: WorkingSpace
    /// A table of greys (Mono, Noir, Tonal) makes greys: `apply` decodes the three channels alike.
    let greyEffect: GreyEffect

    init(cube: ColourCube, space: WorkingSpace) {
        (self.cube, self.space) = (cube, space)
        greyEffect = cube.isGrey ? .makesGrey : .mayColour
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let out = cube.apply(space.encoded(r), space.encoded(g), space.encoded(b))
        r = space.working(fromEncoded: out.0)
        g = space.working(fromEncoded: out.1)
        b = space.working(fromEncoded: out.2)
    }
}
