import Foundation

/// The Adobe Camera Raw crop mirror (`crs:CropLeft/Top/Right/Bottom/Angle`), used only when the
/// packet has no aas affine or crop (xmp-format.md §4). Edges are fractions of the stored image,
/// measured from the top-left; the angle is in degrees.
public struct CameraRawCrop: Equatable, Sendable {
    /// The edges as fractions (0…1) of the stored width and height, measured from the top-left;
    /// `angle` in degrees (`crs:CropAngle`).
    public var left: Double, top: Double, right: Double, bottom: Double, angle: Double

    /// Defaults are Camera Raw's: the whole image (0, 0, 1, 1), angle 0.
    public init(left: Double = 0, top: Double = 0, right: Double = 1, bottom: Double = 1, angle: Double = 0) {
        (self.left, self.top, self.right, self.bottom, self.angle) = (left, top, right, bottom, angle)
    }

    /// The explicit affine + crop this fallback stands for on a stored image of `size`.
    ///
    /// With angle 0: l = W·left, r = W·right, t = H − H·top, b = H − H·bottom (y up);
    /// affine = translate(−l, −b), crop = (0, 0, r − l, t − b).
    /// A non-zero angle is [open] in the spec. Our choice: the kept region is the edge rectangle
    /// turned counter-clockwise (y up) by `angle` degrees about its centre; the affine turns it
    /// back by −angle so the output is upright, and the crop keeps the whole rectangle.
    public func geometry(storedSize size: PixelSize) -> (affine: AffineTransform, crop: Crop) {
        let W = Double(size.width), H = Double(size.height)
        let l = W * left, r = W * right, t = H - H * top, b = H - H * bottom
        let w = r - l, h = t - b
        guard angle != 0 else {
            return (.translation(-l, -b), Crop(x: 0, y: 0, width: w, height: h))
        }
        let centre = Point(x: (l + r) / 2, y: (b + t) / 2)
        let toOrigin = AffineTransform.translation(-centre.x, -centre.y)
        let unturn = AffineTransform.rotation(radians: -angle * .pi / 180)
        let toCropFrame = AffineTransform.translation(w / 2, h / 2)
        let affine = toCropFrame.concatenating(after: unturn.concatenating(after: toOrigin))
        return (affine, Crop(x: 0, y: 0, width: w, height: h))
    }
}
