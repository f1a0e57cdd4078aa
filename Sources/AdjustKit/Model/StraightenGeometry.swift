import Foundation

/// The affine + crop of a straightened crop, as adjust's own edits are authored (`adjust xmp
/// --straighten`): keep a region of the stored image turned about its centre, at the largest
/// size (same aspect, same centre) whose turned rectangle stays inside the image, so the result
/// has no transparent corners.
package enum StraightenGeometry {
    /// The affine + crop that keep `region` (Core Image frame, y up) of a `storedSize` image,
    /// turned `degrees` counter-clockwise about the region's centre. At 0° it is iOS's
    /// translate-and-crop; otherwise the kept size is the region's, shrunk (same aspect, same
    /// centre) until the turned rectangle lies 0.5 px inside the image, rounded down to whole
    /// pixels, and the region's centre lands on the kept rectangle's centre.
    package static func keeping(_ region: Rect, turnedBy degrees: Double, storedSize: PixelSize)
        -> (affine: AffineMap, crop: Crop) {
        if degrees == 0 {
            return (.translation(-region.x, -region.y), Crop(x: 0, y: 0, width: region.width, height: region.height))
        }
        let radians = degrees * .pi / 180
        let (cosA, sinA) = (abs(cos(radians)), abs(sin(radians)))
        let centre = Point(x: region.x + region.width / 2, y: region.y + region.height / 2)
        let (w, h) = (region.width, region.height)
        let roomX = min(centre.x, Double(storedSize.width) - centre.x) - 0.5
        let roomY = min(centre.y, Double(storedSize.height) - centre.y) - 0.5
        let scale = max(0, min(1, 2 * roomX / (w * cosA + h * sinA), 2 * roomY / (w * sinA + h * cosA)))
        let keptW = max(1, (w * scale).rounded(.down)), keptH = max(1, (h * scale).rounded(.down))
        // p ↦ R·p + t, with the region's centre landing on the kept rectangle's centre.
        let rotation = AffineMap.rotation(radians: radians)
        let turnedCentre = rotation.apply(centre)
        var affine = rotation
        affine.tx = keptW / 2 - turnedCentre.x
        affine.ty = keptH / 2 - turnedCentre.y
        return (affine, Crop(x: 0, y: 0, width: keptW, height: keptH))
    }
}
