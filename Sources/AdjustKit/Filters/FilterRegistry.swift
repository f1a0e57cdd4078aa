/// Every kind of edit step this version knows, in application order (docs/spec/filters.md §0,
/// docs/spec/aae-format.md §4): stored-frame colour, then the geometry, then the output-frame
/// steps. A new filter is one file in `Filters/` plus one line here.
package enum FilterRegistry {
    static let kinds: [any EditFilter.Type] = [
        UnsupportedAdjustment.self,
        RedEyeCorrections.self,
        DepthEffect.self,
        NoiseReduction.self,
        FaceBalance.self,
        Vibrance.self,
        ToneCurve.self,
        HighlightShadow.self,
        WhiteBalance.self,
        SmartTone.self,
        SmartColor.self,
        Curves.self,
        SelectiveColor.self,
        Levels.self,
        SmartBlackAndWhite.self,
        Sharpen.self,
        Definition.self,
        EffectIntensityDissolve.self,
        Effect3DDissolve.self,
        Grain.self,
        AffineMap.self,
        Crop.self,
        CameraRawCrop.self,
        PhotosCrop.self,
        PhotosOrientation.self,
        SerializedFilter.self,
        Vignette.self,
    ]

    /// The kinds AdjustmentXMP carries, in the order they are read and written.
    static let xmpKinds: [any AdjustmentXMPFilter.Type] = kinds.compactMap { $0 as? any AdjustmentXMPFilter.Type }

    /// The kinds a modern Photos edit carries, by adjustment identifier.
    static let aaeKinds: [String: any AAEAdjustmentFilter.Type] = Dictionary(
        uniqueKeysWithValues: kinds.compactMap { $0 as? any AAEAdjustmentFilter.Type }.map { ($0.aaeIdentifier, $0) })

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

    private static let firstGeometryPosition = kinds.firstIndex { $0.renderedBy == .geometry } ?? kinds.count

    /// A kind's place in the application order; nil for a type that is not registered.
    static func position(of kind: any EditFilter.Type) -> Int? { positions[ObjectIdentifier(kind)] }

    private static let positions: [ObjectIdentifier: Int] = Dictionary(
        uniqueKeysWithValues: kinds.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })
}
