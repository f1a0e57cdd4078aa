/// Every kind of edit step this version knows, in application order (docs/spec/filters.md §0,
/// docs/spec/aae-format.md §4): stored-frame colour, then the geometry, then the output-frame
/// steps. A new filter is one file in `Filters/` plus one line here.
package enum FilterRegistry {
    static let kinds: [FilterKind] = [
        FilterKind(UnsupportedAdjustment.self),
        FilterKind(RedEyeCorrections.self),
        FilterKind(DepthEffect.self),
        FilterKind(NoiseReduction.self),
        FilterKind(FaceBalance.self),
        FilterKind(Vibrance.self),
        FilterKind(ToneCurve.self),
        FilterKind(HighlightShadow.self),
        FilterKind(WhiteBalance.self),
        FilterKind(SmartTone.self),
        FilterKind(SmartColor.self),
        FilterKind(Curves.self),
        FilterKind(SelectiveColor.self),
        FilterKind(Levels.self),
        FilterKind(SmartBlackAndWhite.self),
        FilterKind(Sharpen.self),
        FilterKind(Definition.self),
        FilterKind(EffectIntensityDissolve.self),
        FilterKind(Effect3DDissolve.self),
        FilterKind(Grain.self),
        FilterKind(AffineMap.self),
        FilterKind(Crop.self),
        FilterKind(CameraRawCrop.self),
        FilterKind(PhotosCrop.self),
        FilterKind(PhotosOrientation.self),
        FilterKind(SerializedFilter.self),
        FilterKind(Vignette.self),
    ]

    /// The kinds AdjustmentXMP carries, in the order they are read and written.
    static let xmpKinds: [any AdjustmentXMPFilter.Type] = kinds.compactMap(\.xmp)

    /// The kinds a modern Photos edit carries, by adjustment identifier.
    static let aaeKinds: [String: any AAEAdjustmentFilter.Type] = Dictionary(
        uniqueKeysWithValues: kinds.compactMap(\.aae).map { ($0.aaeIdentifier, $0) })

    /// The identifiers Photos writes that this version cannot render (aae-format.md §3): each becomes
    /// an `UnsupportedAdjustment` step, named in the render's warning. The RAW operations §3 also
    /// lists are not named there, so they fall under `unknown`, which is treated the same.
    static let unsupportedAAEIdentifiers: Set<String> = [
        "RKRetouchOperation", "RedEyeBB", "RKRedEyeOperation", "PortraitEffect", "SemanticStyle",
    ]

    /// The identifiers that concern video or capture, not a still, with the note each leaves.
    static let notForStillsAAENotes: [String: String] = {
        var notes: [String: String] = [:]
        for identifier in ["LivePhotoKeyFrame", "VideoPosterFrame", "Trim", "SlowMotion", "Mute", "AutoLoop", "VideoStabilize",
                           "VideoCrossfadeLoop", "PortraitVideo", "CinematicAudio", "HighResolutionFusion"] {
            notes[identifier] = "\(identifier) ignored: it concerns video or capture, not a still"
        }
        notes["LivePhotoKeyFrame"] = "LivePhotoKeyFrame ignored: Photos shows another frame of the Live Photo's video as the still; "
            + "this render is of the photo's own still image, not that frame"
        return notes
    }()

    /// How well this version replays `adjustment`: its filter's level, or the lists above, or
    /// `unknown`.
    package static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool = false) -> AAESupportLevel {
        if let kind = aaeKinds[adjustment.identifier] { return kind.aaeSupport(of: adjustment, hasUserCube: hasUserCube) }
        if unsupportedAAEIdentifiers.contains(adjustment.identifier) { return .unsupported }
        return notForStillsAAENotes[adjustment.identifier] == nil ? .unknown : .notForStills
    }

    /// Every aas property name some filter owns; any other aas property is reported, not dropped silently.
    static let knownXMPNames: Set<String> = Set(xmpKinds.flatMap { $0.xmpPropertyNames })

    /// Where steps of `kind` run (`FilterRole`): geometry kinds are the geometry; a colour kind
    /// registered before the first of them works on the stored image, one after it on the output.
    static func role(of kind: any EditFilter.Type) -> FilterRole {
        if kind.renderedBy == .geometry { return .geometry }
        return (position(of: kind) ?? 0) < firstGeometryPosition ? .storedColour : .outputColour
    }

    private static let firstGeometryPosition = kinds.firstIndex { $0.type.renderedBy == .geometry } ?? kinds.count

    /// A kind's place in the application order; nil for a type that is not registered.
    static func position(of kind: any EditFilter.Type) -> Int? { positions[ObjectIdentifier(kind)] }

    private static let positions: [ObjectIdentifier: Int] = Dictionary(
        uniqueKeysWithValues: kinds.enumerated().map { (ObjectIdentifier($0.element.type), $0.offset) })
}

/// One entry of `FilterRegistry.kinds`: the kind, and the same type as each edit format's filter
/// where it is one. Which of the initializers a line calls is settled when the list compiles (the
/// most constrained one the kind satisfies), not by a cast at run time: deriving `xmpKinds` and
/// `aaeKinds` with `as? any AdjustmentXMPFilter.Type` made the Swift runtime scan the binary's
/// 6 241 conformance records once for each kind and protocol, about 0.8 ms of every render
/// (docs/benchmark.md, fourteenth part). A kind that is in neither format gets nil for both, as
/// the casts gave; no kind is in both today, and the last initializer is what keeps such a kind
/// from being an ambiguous call.
struct FilterKind: Sendable {
    let type: any EditFilter.Type
    /// The kind as AdjustmentXMP's filter, and as a modern Photos edit's; nil where it is not one.
    let xmp: (any AdjustmentXMPFilter.Type)?, aae: (any AAEAdjustmentFilter.Type)?

    init<Kind: EditFilter>(_ kind: Kind.Type) { (type, xmp, aae) = (kind, nil, nil) }
    init<Kind: AdjustmentXMPFilter>(_ kind: Kind.Type) { (type, xmp, aae) = (kind, kind, nil) }
    init<Kind: AAEAdjustmentFilter>(_ kind: Kind.Type) { (type, xmp, aae) = (kind, nil, kind) }
    init<Kind: AdjustmentXMPFilter & AAEAdjustmentFilter>(_ kind: Kind.Type) { (type, xmp, aae) = (kind, kind, kind) }
}
