/// A parsed AdjustmentXMP edit: at most one of each property-based filter (the format is a flat
/// bag of properties, xmp-format.md §1), the Camera Raw crop fallback, and the `aas:Filters` items.
///
/// The order in which they apply is not the order of these fields: it is `steps`, defined once.
public struct EditChain: Equatable, Sendable {
    /// `CIRedEyeCorrections`, applied first, to the stored image.
    public var redEye: RedEyeCorrections?
    /// `CIFaceBalance`, applied to the stored image.
    public var faceBalance: FaceBalance?
    /// `CIVibrance`, applied to the stored image.
    public var vibrance: Vibrance?
    /// `CIToneCurve`, applied to the stored image.
    public var toneCurve: ToneCurve?
    /// `CIHighlightShadowAdjust`, the last filter applied to the stored image.
    public var highlightShadow: HighlightShadow?
    /// `CIAffineTransform`, from the stored image into the output frame (CI frame, y up).
    public var affine: AffineTransform?
    /// `CICrop`, in the frame after `affine`.
    public var crop: Crop?
    /// Only set when the packet had neither an aas affine nor an aas crop (xmp-format.md §4).
    public var cameraRawCrop: CameraRawCrop?
    /// The `aas:Filters` items in array order, applied last, to the output.
    public var serializedFilters: [SerializedFilter]

    /// A chain of the given filters; every one defaults to absent, giving the empty chain.
    public init(redEye: RedEyeCorrections? = nil, faceBalance: FaceBalance? = nil,
                vibrance: Vibrance? = nil, toneCurve: ToneCurve? = nil,
                highlightShadow: HighlightShadow? = nil, affine: AffineTransform? = nil,
                crop: Crop? = nil, cameraRawCrop: CameraRawCrop? = nil,
                serializedFilters: [SerializedFilter] = []) {
        self.redEye = redEye
        self.faceBalance = faceBalance
        self.vibrance = vibrance
        self.toneCurve = toneCurve
        self.highlightShadow = highlightShadow
        self.affine = affine
        self.crop = crop
        self.cameraRawCrop = cameraRawCrop
        self.serializedFilters = serializedFilters
    }

    /// True when the chain has no step at all: the original is rendered unchanged, upright.
    public var isEmpty: Bool { steps.isEmpty }

    /// The chain in application order — this project's canonical order (xmp-format.md §7):
    /// RedEye, FaceBalance, Vibrance, ToneCurve, HighlightShadow, Affine, Crop, the Camera Raw
    /// crop fallback, then the `aas:Filters` items in array order.
    public var steps: [EditStep] {
        var steps: [EditStep] = []
        if let redEye { steps.append(.redEye(redEye)) }
        if let faceBalance { steps.append(.faceBalance(faceBalance)) }
        if let vibrance { steps.append(.vibrance(vibrance)) }
        if let toneCurve { steps.append(.toneCurve(toneCurve)) }
        if let highlightShadow { steps.append(.highlightShadow(highlightShadow)) }
        if let affine { steps.append(.affine(affine)) }
        if let crop { steps.append(.crop(crop)) }
        if let cameraRawCrop { steps.append(.cameraRawCrop(cameraRawCrop)) }
        steps += serializedFilters.map { EditStep.serialized($0) }
        return steps
    }

    /// The chain with the Camera Raw fallback replaced by the explicit affine + crop it stands
    /// for on a stored image of `storedSize` — the only step that depends on the image's size.
    public func resolvingCameraRawCrop(storedSize: PixelSize) -> EditChain {
        guard let cameraRawCrop else { return self }
        var resolved = self
        let geometry = cameraRawCrop.geometry(storedSize: storedSize)
        resolved.cameraRawCrop = nil
        resolved.affine = geometry.affine
        resolved.crop = geometry.crop
        return resolved
    }
}

/// One step of an `EditChain`, in application order.
public enum EditStep: Equatable, Sendable {
    case redEye(RedEyeCorrections)
    case faceBalance(FaceBalance)
    case vibrance(Vibrance)
    case toneCurve(ToneCurve)
    case highlightShadow(HighlightShadow)
    case affine(AffineTransform)
    case crop(Crop)
    case cameraRawCrop(CameraRawCrop)
    case serialized(SerializedFilter)

    /// The Core Image filter name (for the Camera Raw fallback, a descriptive name).
    public var filterName: String {
        switch self {
        case .redEye: return "CIRedEyeCorrections"
        case .faceBalance: return "CIFaceBalance"
        case .vibrance: return "CIVibrance"
        case .toneCurve: return "CIToneCurve"
        case .highlightShadow: return "CIHighlightShadowAdjust"
        case .affine: return "CIAffineTransform"
        case .crop: return "CICrop"
        case .cameraRawCrop: return "CameraRawCrop"
        case .serialized(let filter): return filter.name
        }
    }

    /// Geometry steps move pixels; every other step changes their colour.
    public var isGeometry: Bool {
        switch self {
        case .affine, .crop, .cameraRawCrop: return true
        default: return false
        }
    }
}
