/// An edit that cannot be rendered on this image, found from sizes alone.
package enum PlanError: Error, Equatable, CustomStringConvertible {
    case nonFiniteGeometry(String)
    case singularAffine(AffineMap)
    case emptyOutput(String)
    case outputTooLarge(PixelSize, maxPixels: Int, maxSide: Int)
    case invalidMaxSize(Int)

    /// One line, without the file name.
    package var description: String {
        switch self {
        case .nonFiniteGeometry(let what):
            return "the edit's \(what) is not finite"
        case .singularAffine(let t):
            return "the affine transform [\(t.a) \(t.b) \(t.c) \(t.d)] cannot be inverted (determinant \(t.determinant))"
        case .emptyOutput(let why):
            return "the edit keeps no pixels: \(why)"
        case let .outputTooLarge(size, maxPixels, maxSide):
            return "the output would be \(size) pixels, over the limit of \(maxSide) per side and \(maxPixels) in all"
        case .invalidMaxSize(let value):
            return "the longest-side limit must be at least 1, got \(value)"
        }
    }
}
