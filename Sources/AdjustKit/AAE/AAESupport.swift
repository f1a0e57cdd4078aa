/// What adjust can do with each AAE adjustment identifier: spec aae-format.md §3 as data, in this
/// one place. The mapping layer asks `level(of:)` for each enabled adjustment; the renderer's
/// chain filter that will carry a supported one is named in `Entry.chainFilter`.
public enum AAESupport {
    /// Support levels as in filters.md.
    public enum Level: String, Sendable, Equatable, CaseIterable {
        /// The formula is public.
        case exact
        /// The formula is known; a constant or version is uncertain.
        case strong
        /// A documented stand-in, flagged.
        case approximate
        /// Cannot be rendered: refused, or skipped under an explicit flag.
        case unsupported
        /// Nothing to do to a still; a note says what was ignored.
        case notForStills = "not-for-stills"
        /// Not in the table: treated as unsupported and named in the message.
        case unknown
    }

    /// One identifier's row of the table.
    public struct Entry: Sendable, Equatable {
        /// The level for the common case; `level(of:)` refines it from the settings where §3 does.
        public var level: Level
        /// The chain filter that will carry it (nil where nothing is rendered).
        public var chainFilter: String?

        public init(level: Level, chainFilter: String?) {
            self.level = level
            self.chainFilter = chainFilter
        }
    }

    /// The eight iOS 7 photo-effect names, which the AdjustmentXMP path already renders.
    public static let iOS7EffectNames: Set<String> = ["Mono", "Tonal", "Noir", "Fade", "Chrome", "Process", "Transfer", "Instant"]

    /// Spec §3, row by row. `Crop` is exact for straighten + crop and approximate with perspective;
    /// `Effect` and `WhiteBalance` depend on their settings (see `level(of:hasUserCube:)`).
    public static let table: [String: Entry] = {
        var table: [String: Entry] = [
            "Crop": Entry(level: .exact, chainFilter: "geometry"),
            "Orientation": Entry(level: .exact, chainFilter: "orientation"),
            "Effect": Entry(level: .approximate, chainFilter: "effect"),
            "Effect3D": Entry(level: .approximate, chainFilter: "effect3D"),
            "WhiteBalance": Entry(level: .strong, chainFilter: "whiteBalance"),
            "SmartTone": Entry(level: .approximate, chainFilter: "smartTone"),
            "SmartColor": Entry(level: .approximate, chainFilter: "smartColor"),
            "SmartBlackAndWhite": Entry(level: .approximate, chainFilter: "smartBlackAndWhite"),
            "RKCurvesOperation": Entry(level: .approximate, chainFilter: "curves"),
            "RKLevelsOperation": Entry(level: .approximate, chainFilter: "levels"),
            "DGVignetteEffectOperation": Entry(level: .approximate, chainFilter: "vignette"),
            "DGDefinition2Operation": Entry(level: .approximate, chainFilter: "definition"),
            "RKProSharpenOperation": Entry(level: .approximate, chainFilter: "sharpen"),
            "RKNoiseReductionOperation": Entry(level: .approximate, chainFilter: "noiseReduction"),
            "Grain": Entry(level: .approximate, chainFilter: "grain"),
            "RKSelectiveColorOperation": Entry(level: .approximate, chainFilter: "selectiveColor"),
            "DepthEffect": Entry(level: .approximate, chainFilter: "depthEffect"),
        ]
        // The RAW operations §3 also lists as unsupported are not named there, so they fall under
        // `unknown`, which is treated the same.
        for name in ["RKRetouchOperation", "RedEyeBB", "RKRedEyeOperation",
                     "PortraitEffect", "SemanticStyle"] {
            table[name] = Entry(level: .unsupported, chainFilter: nil)
        }
        for name in ["LivePhotoKeyFrame", "VideoPosterFrame", "Trim", "SlowMotion", "Mute", "AutoLoop",
                     "VideoStabilize", "VideoCrossfadeLoop", "PortraitVideo", "CinematicAudio", "HighResolutionFusion"] {
            table[name] = Entry(level: .notForStills, chainFilter: nil)
        }
        return table
    }()

    /// The row for `identifier`, or an `unknown` entry.
    public static func entry(_ identifier: String) -> Entry {
        table[identifier] ?? Entry(level: .unknown, chainFilter: nil)
    }

    /// The level of one adjustment, refined from its settings as §3 says: `Crop` with a non-zero
    /// `pitch` or `yaw` is approximate (U3); `Effect` is approximate for the eight iOS 7 names and
    /// unsupported for newer names unless the user gives a `.cube` (then approximate); `Effect3D`
    /// likewise; `WhiteBalance` is strong for `faceBalance` and approximate for the other kinds.
    /// Settings of the wrong type count as absent here; the mapping layer reports them.
    public static func level(of adjustment: AAEAdjustment, hasUserCube: Bool = false) -> Level {
        let base = entry(adjustment.identifier).level
        switch adjustment.identifier {
        case "Crop":
            let pitch = adjustment.settings["pitch"]?.numberValue ?? 0
            let yaw = adjustment.settings["yaw"]?.numberValue ?? 0
            return pitch != 0 || yaw != 0 ? .approximate : base
        case "Effect", "Effect3D":
            // The iOS 7 names and the modern ones (3DVivid, …, 3DNoir) have built-in approximations.
            let name = adjustment.settings["effectName"]?.stringValue ?? ""
            return iOS7EffectNames.contains(name) || ModernPhotoEffect(name: name) != nil || hasUserCube
                ? .approximate : .unsupported
        case "WhiteBalance":
            // colorType as a name, or as the number real macOS 10.15 files store (1 = faceBalance).
            let colorType: String?
            switch adjustment.settings["colorType"] {
            case .number(let n)?: colorType = WhiteBalance.numberedColorTypes[n]
            case let other?: colorType = other.stringValue
            case nil: colorType = nil
            }
            return colorType == "faceBalance" ? .strong : .approximate
        default:
            return base
        }
    }
}
