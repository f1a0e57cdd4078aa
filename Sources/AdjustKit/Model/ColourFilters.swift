/// `CIVibrance`. `amount` is stored as written; the renderer clamps it to [−1, 1] (filters.md §1).
public struct Vibrance: Equatable, Sendable {
    public var amount: Double
    public init(amount: Double) { self.amount = amount }
}

/// `CIHighlightShadowAdjust`. Stored as written; the renderer clamps shadows to [−1, 1] and
/// highlights to [0, 1]. `radius` is pixel-valued; XMP never stores it (it stays 0).
public struct HighlightShadow: Equatable, Sendable {
    public var shadows: Double
    public var highlights: Double
    public var radius: Double
    public init(shadows: Double, highlights: Double, radius: Double = 0) {
        (self.shadows, self.highlights, self.radius) = (shadows, highlights, radius)
    }
}

/// `CIFaceBalance`: the measured skin colour (YIQ `origI`, `origQ`), how strongly to move it to
/// the target, and the target's warmth (0 indoor, 1 outdoor).
public struct FaceBalance: Equatable, Sendable {
    public var origI: Double, origQ: Double, strength: Double, warmth: Double
    public init(origI: Double, origQ: Double, strength: Double, warmth: Double) {
        (self.origI, self.origQ, self.strength, self.warmth) = (origI, origQ, strength, warmth)
    }
}

/// `CIToneCurve`: five control points (inputPoint0…4), each in [0, 1].
public struct ToneCurve: Equatable, Sendable {
    public var points: [Point]
    public init(points: [Point]) { self.points = points }
}

/// `CIExposureAdjust`, as carried in `aas:Filters` (`EV=…`).
public struct ExposureAdjust: Equatable, Sendable {
    public var ev: Double
    public init(ev: Double) { self.ev = ev }
}

/// The eight iOS 7 photo effects, carried by name in `aas:Filters`.
public enum PhotoEffect: String, CaseIterable, Sendable {
    case chrome = "CIPhotoEffectChrome", fade = "CIPhotoEffectFade"
    case instant = "CIPhotoEffectInstant", mono = "CIPhotoEffectMono"
    case noir = "CIPhotoEffectNoir", process = "CIPhotoEffectProcess"
    case tonal = "CIPhotoEffectTonal", transfer = "CIPhotoEffectTransfer"
}
