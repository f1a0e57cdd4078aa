/// `CIVibrance`. `amount` is stored as written; the renderer clamps it to [−1, 1] (filters.md §1).
public struct Vibrance: Equatable, Sendable {
    /// `inputAmount` (`aas:Vibrance`), as written; rendered clamped to [−1, 1].
    public var amount: Double
    /// Stores `amount` unclamped.
    public init(amount: Double) { self.amount = amount }
}

/// `CIHighlightShadowAdjust`. Stored as written; the renderer clamps shadows to [−1, 1] and
/// highlights to [0, 1]. `radius` is pixel-valued; XMP never stores it (it stays 0).
public struct HighlightShadow: Equatable, Sendable {
    /// `inputShadowAmount` (`aas:Shadows`), as written; rendered clamped to [−1, 1].
    public var shadows: Double
    /// `inputHighlightAmount` (`aas:Highlights`), as written; rendered clamped to [0, 1].
    public var highlights: Double
    /// `inputRadius`, in pixels of the stored image (the rescaler scales it); 0 when read from XMP.
    public var radius: Double
    /// Stores the amounts unclamped; `radius` defaults to 0, as XMP never stores it.
    public init(shadows: Double, highlights: Double, radius: Double = 0) {
        (self.shadows, self.highlights, self.radius) = (shadows, highlights, radius)
    }
}

/// `CIFaceBalance`: the measured skin colour (YIQ `origI`, `origQ`), how strongly to move it to
/// the target, and the target's warmth (0 indoor, 1 outdoor).
public struct FaceBalance: Equatable, Sendable {
    /// `inputOrigI`, `inputOrigQ` (measured skin colour, YIQ), `inputStrength`, and `inputWarmth`
    /// (0 indoor target, 1 outdoor), as written in the `aas:FaceBalance…` properties.
    public var origI: Double, origQ: Double, strength: Double, warmth: Double
    /// Stores the four values as given.
    public init(origI: Double, origQ: Double, strength: Double, warmth: Double) {
        (self.origI, self.origQ, self.strength, self.warmth) = (origI, origQ, strength, warmth)
    }
}

/// `CIToneCurve`: five control points (inputPoint0…4), each in [0, 1].
public struct ToneCurve: Equatable, Sendable {
    /// `inputPoint0…4` as (input, output) pairs on sRGB-encoded values in [0, 1], as written;
    /// the renderer sorts them by x and drops a repeated x.
    public var points: [Point]
    /// Stores `points` as given, unsorted.
    public init(points: [Point]) { self.points = points }
}

/// `CIExposureAdjust`, as carried in `aas:Filters` (`EV=…`).
public struct ExposureAdjust: Equatable, Sendable {
    /// `inputEV`, in stops: working values are multiplied by 2^ev.
    public var ev: Double
    /// An exposure change of `ev` stops.
    public init(ev: Double) { self.ev = ev }
}

/// The eight iOS 7 photo effects, carried by name in `aas:Filters`.
public enum PhotoEffect: String, CaseIterable, Sendable {
    case chrome = "CIPhotoEffectChrome", fade = "CIPhotoEffectFade"
    case instant = "CIPhotoEffectInstant", mono = "CIPhotoEffectMono"
    case noir = "CIPhotoEffectNoir", process = "CIPhotoEffectProcess"
    case tonal = "CIPhotoEffectTonal", transfer = "CIPhotoEffectTransfer"
}
