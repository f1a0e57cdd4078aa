/// A photo effect: a 3-D table on sRGB-encoded values (filters.md §6), either the user's exact
/// `.cube` or the built-in approximation.
struct PhotoEffectKernel: PixelKernel {
    let cube: ColourCube
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        let out = cube.apply(space.encoded(r), space.encoded(g), space.encoded(b))
        r = space.working(fromEncoded: out.0)
        g = space.working(fromEncoded: out.1)
        b = space.working(fromEncoded: out.2)
    }
}
