import XMPParse
import Foundation

/// The Adobe Camera Raw crop mirror (`crs:CropLeft/Top/Right/Bottom/Angle`), used only when the
/// packet has no aas affine or crop (xmp-format.md §4). Edges are fractions of the stored image,
/// measured from the top-left; the angle is in degrees.
package struct CameraRawCrop: Equatable, Sendable {
    /// The edges as fractions (0…1) of the stored width and height, measured from the top-left;
    /// `angle` in degrees (`crs:CropAngle`).
    package var left: Double, top: Double, right: Double, bottom: Double, angle: Double

    /// Defaults are Camera Raw's: the whole image (0, 0, 1, 1), angle 0.
    package init(left: Double = 0, top: Double = 0, right: Double = 1, bottom: Double = 1, angle: Double = 0) {
        (self.left, self.top, self.right, self.bottom, self.angle) = (left, top, right, bottom, angle)
    }

    /// The explicit affine + crop this fallback stands for on a stored image of `size`.
    ///
    /// With angle 0: l = W·left, r = W·right, t = H − H·top, b = H − H·bottom (y up);
    /// affine = translate(−l, −b), crop = (0, 0, r − l, t − b).
    /// A non-zero angle is [open] in the spec. Our choice: the kept region is the edge rectangle
    /// turned counter-clockwise (y up) by `angle` degrees about its centre; the affine turns it
    /// back by −angle so the output is upright, and the crop keeps the whole rectangle.
    package func geometry(storedSize size: PixelSize) -> (affine: AffineMap, crop: Crop) {
        let W = Double(size.width), H = Double(size.height)
        let l = W * left, r = W * right, t = H - H * top, b = H - H * bottom
        let w = r - l, h = t - b
        guard angle != 0 else {
            return (.translation(-l, -b), Crop(x: 0, y: 0, width: w, height: h))
        }
        let centre = Point(x: (l + r) / 2, y: (b + t) / 2)
        let toOrigin = AffineMap.translation(-centre.x, -centre.y)
        let unturn = AffineMap.rotation(radians: -angle * .pi / 180)
        let toCropFrame = AffineMap.translation(w / 2, h / 2)
        let affine = toCropFrame.concatenating(after: unturn.concatenating(after: toOrigin))
        return (affine, Crop(x: 0, y: 0, width: w, height: h))
    }
}

extension CameraRawCrop: SingleAdjustmentXMPFilter, StoredSizeGeometry, GeometryFilter {
    package static let filterName = "CameraRawCrop"
    /// None: its properties are Camera Raw's (crs), not aas.
    static let xmpPropertyNames: [String] = []
    private static let hasCrop = "HasCrop", alreadyApplied = "AlreadyApplied"
    private static let edgeNames = ["CropLeft", "CropTop", "CropRight", "CropBottom", "CropAngle"]

    package var parameterValues: [(String, ParameterValue)] {
        [("Left", .number(left)), ("Top", .number(top)), ("Right", .number(right)),
         ("Bottom", .number(bottom)), ("Angle", .number(angle))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .exact }

    /// Unchanged: the rescaler resolves it against the stored size into an affine + crop first
    /// (`EditChain.resolvingSizeDependentGeometry`), its only use of that size.
    package func rescaled(by factors: RescaleFactors) -> CameraRawCrop { self }

    /// Only when the packet has neither an aas affine nor an aas crop, `crs:HasCrop` is true and
    /// `crs:AlreadyApplied` is present and false (xmp-format.md §4).
    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> CameraRawCrop? {
        guard chain.affine == nil, chain.crop == nil else { return nil }
        let crs = AdjustmentProperties(packet: xmp.packet, namespace: AdjustmentNamespace.cameraRaw, prefix: "crs")
        guard let hasCrop = try crs.text(Self.hasCrop), XMPBool.parse(hasCrop),
              let applied = try crs.text(Self.alreadyApplied), !XMPBool.parse(applied) else { return nil }
        let edges = try edgeNames.map { name throws(ChainError) in try crs.number(name) }
        return CameraRawCrop(left: edges[0] ?? 0, top: edges[1] ?? 0, right: edges[2] ?? 1,
                             bottom: edges[3] ?? 1, angle: edges[4] ?? 0)
    }

    func write(to xmp: inout AdjustmentXMPWriter) {
        xmp.declare("crs", AdjustmentNamespace.cameraRaw)
        xmp.text(Self.hasCrop, "True", prefix: "crs")
        xmp.text(Self.alreadyApplied, "False", prefix: "crs")
        xmp.numbers(Self.edgeNames, [left, top, right, bottom, angle], prefix: "crs")
    }
}

extension EditChain {
    /// The Adobe Camera Raw crop fallback; only set when the packet had neither an aas affine
    /// nor an aas crop (xmp-format.md §4).
    package var cameraRawCrop: CameraRawCrop? {
        get { self[CameraRawCrop.self] }
        set { self[CameraRawCrop.self] = newValue }
    }
}
