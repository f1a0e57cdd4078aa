/// A modern Photos `RKLevelsOperation` adjustment, the Levels tool (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §6): black, shadow, mid, highlight and white points, each a
/// source → destination pair on sRGB-encoded values in 0…1, for RGB and for each channel.
/// Support **approximate**: Apple's map between the points is not public.
///
/// [I] No public file holds this adjustment, so its key names are inferred. Accepted, compared
/// without case and with an optional `input` prefix, in the settings or the object under
/// `settings.inputKeys` laid over them:
/// - flat keys `<point><Src|Dst><channel>`, e.g. `blackSrcRGB`, `inputMidDstRed`;
/// - or an object per channel (`RGB`, `red`, `green`, `blue`) holding `<point>Src`/`<point>Dst`,
/// with point ∈ black, shadow, mid, highlight, white and channel ∈ RGB, Red, Green, Blue (also
/// R, G, B). Values are clamped to 0…1 and refused beyond −1…2. An absent black or white pair is
/// 0 → 0 or 1 → 1; an absent shadow, mid or highlight pair lies on the line from the black pair
/// to the white pair, at ¼, ½, ¾.
///
/// The approximation: per channel, the monotone cubic of Fritsch and Carlson through the five
/// pairs (flat beyond the black and white sources; pairs with a repeated source dropped), first
/// the channel's own map, then the RGB map [I], on encoded values.
package struct Levels: Equatable, Sendable {
    /// One channel's five pairs, black to white.
    package struct Mapping: Equatable, Sendable {
        /// Sources and destinations of the black, shadow, mid, highlight and white points.
        package var sources: [Double], destinations: [Double]
        package init(sources: [Double], destinations: [Double]) { (self.sources, self.destinations) = (sources, destinations) }
        package static let identity = Mapping(sources: [0, 0.25, 0.5, 0.75, 1], destinations: [0, 0.25, 0.5, 0.75, 1])

        fileprivate var curve: MonotoneCubicCurve? {
            let curve = MonotoneCubicCurve(points: zip(sources, destinations).map { (x: $0, y: $1) })
            return curve.isIdentity() ? nil : curve
        }
    }

    package var rgb: Mapping, red: Mapping, green: Mapping, blue: Mapping

    package init(rgb: Mapping = .identity, red: Mapping = .identity, green: Mapping = .identity, blue: Mapping = .identity) {
        (self.rgb, self.red, self.green, self.blue) = (rgb, red, green, blue)
    }

    static let pointNames = ["black", "shadow", "mid", "highlight", "white"]
    static let channelNames: [[String]] = [["rgb"], ["red", "r"], ["green", "g"], ["blue", "b"]]

    fileprivate var isIdentity: Bool { [rgb, red, green, blue].allSatisfy { $0.curve == nil } }
}

extension Levels: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "RKLevelsOperation"
    static let aaeIdentifier = "RKLevelsOperation"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("RGB", rgb), ("Red", red), ("Green", green), ("Blue", blue)].filter { $0.1 != .identity }.map { name, m in
            (name, .numbers(zip(m.sources, m.destinations).flatMap { [$0, $1] }))
        }
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> Levels { self }

    /// nil when no accepted key is present or every map is the identity.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Levels? {
        let a = try adjustment.flattening("inputKeys")
        // Normalised name → the key as written.
        func index(_ settings: [String: AAEValue]) -> [String: String] {
            var names: [String: String] = [:]
            for key in settings.keys.sorted() {
                var name = key.lowercased()
                if name.hasPrefix("input") { name.removeFirst(5) }
                if names[name] == nil { names[name] = key }
            }
            return names
        }
        let flat = index(a.settings)
        var mappings: [Mapping] = []
        for channel in channelNames {
            // The channel's object, when the edit nests them.
            var nested: (AAEAdjustment, [String: String])?
            if let key = channel.lazy.compactMap({ flat[$0] }).first {
                let object = try a.object(key)
                nested = (AAEAdjustment(identifier: a.identifier, settings: object), index(object))
            }
            func value(_ point: String, _ side: String) throws(AAEError) -> Double? {
                if let (settings, names) = nested, let key = names[point + side] {
                    return try settings.rangedNumber(key, range: 0...1, accepted: -1...2)
                }
                guard let key = channel.lazy.compactMap({ flat[point + side + $0] }).first else { return nil }
                return try a.rangedNumber(key, range: 0...1, accepted: -1...2)
            }
            let black = (try value("black", "src") ?? 0, try value("black", "dst") ?? 0)
            let white = (try value("white", "src") ?? 1, try value("white", "dst") ?? 1)
            var sources = [black.0], destinations = [black.1]
            for (point, f) in [("shadow", 0.25), ("mid", 0.5), ("highlight", 0.75)] {
                sources.append(try value(point, "src") ?? black.0 + f * (white.0 - black.0))
                destinations.append(try value(point, "dst") ?? black.1 + f * (white.1 - black.1))
            }
            sources.append(white.0); destinations.append(white.1)
            let mapping = Mapping(sources: sources, destinations: destinations)
            mappings.append(mapping.curve == nil ? .identity : mapping)
        }
        let levels = Levels(rgb: mappings[0], red: mappings[1], green: mappings[2], blue: mappings[3])
        return levels.isIdentity ? nil : levels
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard !isIdentity else { return .identity }
        let (master, r, g, b) = (rgb.curve, red.curve, green.curve, blue.curve)
        func through(_ channel: MonotoneCubicCurve?, _ v: Double) -> Double {
            let c = channel?.value(at: v) ?? v
            return master?.value(at: c) ?? c
        }
        let table = EncodedCurveTable(space: options.workingSpace) { v in (through(r, v), through(g, v), through(b, v)) }
        return .pixel(LevelsKernel(table: table), approximation: "RKLevelsOperation (approximation: monotone cubic "
                              + "through the level pairs; the setting names are inferred)")
    }
}

private struct LevelsKernel: PixelKernel {
    let table: EncodedCurveTable
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) { table.apply(&r, &g, &b) }
}
