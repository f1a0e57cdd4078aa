import Foundation

/// A 2-D affine map in Core Image's frame (origin bottom-left, y up):
/// x′ = a·x + c·y + tx, y′ = b·x + d·y + ty — the layout of `CGAffineTransform`.
///
/// As a chain step it is `CIAffineTransform` (Filters/AffineTransform.swift); its translation is
/// in pixels of the stored image.
package struct AffineMap: Equatable, Sendable {
    /// The linear part: x′ = a·x + c·y, y′ = b·x + d·y (CI frame, y up).
    package var a: Double, b: Double, c: Double, d: Double
    /// The translation in pixels, CI frame (y up); for a chain step, pixels of the stored image.
    package var tx: Double, ty: Double

    /// The map with these coefficients, in `CGAffineTransform` order.
    package init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The map that leaves every point where it is.
    package static let identity = AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A pure shift by (`tx`, `ty`) pixels, y up.
    package static func translation(_ tx: Double, _ ty: Double) -> AffineMap {
        AffineMap(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// Counter-clockwise rotation (y up) by `radians` about the origin.
    package static func rotation(radians: Double) -> AffineMap {
        let (s, c) = (sin(radians), cos(radians))
        return AffineMap(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// a·d − b·c: the factor by which areas scale; negative for a mirroring map, 0 when singular.
    package var determinant: Double { a * d - b * c }

    /// True when all six coefficients are exactly those of `identity`.
    package var isIdentity: Bool { self == .identity }

    /// Maps `p`.
    package func apply(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// `self` applied after `first`: p ↦ self(first(p)).
    package func concatenating(after first: AffineMap) -> AffineMap {
        AffineMap(
            a: a * first.a + c * first.b, b: b * first.a + d * first.b,
            c: a * first.c + c * first.d, d: b * first.c + d * first.d,
            tx: a * first.tx + c * first.ty + tx, ty: b * first.tx + d * first.ty + ty)
    }

    /// The inverse map, or nil when the matrix is singular or not finite.
    package var inverted: AffineMap? {
        let det = determinant
        guard det.isFinite, det != 0, abs(det) > 1e-12 else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        let inv = AffineMap(a: ia, b: ib, c: ic, d: id,
                                  tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
        return inv.isFinite ? inv : nil
    }

    /// True when no coefficient is NaN or infinite.
    package var isFinite: Bool {
        [a, b, c, d, tx, ty].allSatisfy(\.isFinite)
    }

    /// The image of `rect`'s four corners, bounded.
    package func boundingBox(of rect: Rect) -> Rect {
        let corners = rect.corners.map(apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return Rect(x: minX, y: minY, width: xs.max()! - minX, height: ys.max()! - minY)
    }
}
