/// A modern Photos `RKCurvesOperation` adjustment, the Curves tool (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §5): point lists for RGB and for red, green and blue, on
/// sRGB-encoded values in 0…1. Support **approximate**: Apple's interpolation is not public.
///
/// [I] No public file holds this adjustment, so its key names are inferred. Accepted: the
/// settings, or the object under `settings.inputKeys` laid over them, holding for the RGB curve
/// `pointsL`, `pointsRGB`, `inputPointsL` or `inputPointsRGB`, and for the channels `pointsR` /
/// `inputPointsR`, `pointsG` / `inputPointsG`, `pointsB` / `inputPointsB` (the first name found
/// wins); each a list of 2…64 points written as `{"x": …, "y": …}` objects, `[x, y]` pairs, or a
/// flat list x₀, y₀, x₁, y₁, …. Coordinates are clamped to 0…1 and refused beyond −1…2.
///
/// The approximation: per channel, the monotone cubic of Fritsch and Carlson through the points
/// (no overshoot; flat beyond the first and last point), first the channel's own curve, then the
/// RGB curve [I: Photoshop's order], on encoded values. A list whose points all lie on y = x from
/// 0 to 1 is the identity.
package struct Curves: Equatable, Sendable {
    /// The RGB (composite) curve and each channel's, nil where the edit has none.
    package var rgb: [Point]?, red: [Point]?, green: [Point]?, blue: [Point]?

    package init(rgb: [Point]? = nil, red: [Point]? = nil, green: [Point]? = nil, blue: [Point]? = nil) {
        (self.rgb, self.red, self.green, self.blue) = (rgb, red, green, blue)
    }

    /// The curves that change something, as interpolants (nil for an identity or absent list).
    fileprivate var interpolants: (rgb: MonotoneCubicCurve?, red: MonotoneCubicCurve?, green: MonotoneCubicCurve?,
                                   blue: MonotoneCubicCurve?) {
        func curve(_ points: [Point]?) -> MonotoneCubicCurve? {
            guard let points else { return nil }
            let curve = MonotoneCubicCurve(points: points.map { (x: $0.x, y: $0.y) })
            return curve.isIdentity() ? nil : curve
        }
        return (curve(rgb), curve(red), curve(green), curve(blue))
    }

    /// The accepted key names per list, in the order they are tried.
    static let keyNames: [(channel: String, keys: [String])] = [
        ("RGB", ["pointsL", "pointsRGB", "inputPointsL", "inputPointsRGB"]),
        ("Red", ["pointsR", "inputPointsR"]), ("Green", ["pointsG", "inputPointsG"]), ("Blue", ["pointsB", "inputPointsB"]),
    ]

    static let maxPoints = 64
}

extension Curves: ColourFilter, AAEAdjustmentFilter {
    package static let filterName = "RKCurvesOperation"
    static let aaeIdentifier = "RKCurvesOperation"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("RGB", rgb), ("Red", red), ("Green", green), ("Blue", blue)].compactMap { name, points in
            points.map { (name, .numbers($0.flatMap { [$0.x, $0.y] })) }
        }
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> Curves { self }

    /// nil when no accepted key is present or every list is the identity.
    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> Curves? {
        let a = try adjustment.flattening("inputKeys")
        var lists: [[Point]?] = []
        for (_, keys) in keyNames {
            guard let key = keys.first(where: { a.settings[$0] != nil }) else { lists.append(nil); continue }
            lists.append(try points(a, key))
        }
        let curves = Curves(rgb: lists[0], red: lists[1], green: lists[2], blue: lists[3])
        let i = curves.interpolants
        return i.rgb == nil && i.red == nil && i.green == nil && i.blue == nil ? nil : curves
    }

    /// The point list under `key` in any accepted form.
    private static func points(_ a: AAEAdjustment, _ key: String) throws(AAEError) -> [Point] {
        let expected = "a list of 2…\(maxPoints) points ({x, y} objects, [x, y] pairs or x, y numbers) in 0…1"
        func refuse(_ found: String) -> AAEError {
            .wrongSettingType(adjustment: a.identifier, key: key, expected: expected, found: found)
        }
        guard let value = a.settings[key] else { return [] }
        guard let items = value.arrayValue else { throw refuse(value.typeName) }
        var coordinates: [Double] = []
        for item in items.prefix(2 * maxPoints + 1) {
            switch item {
            case .number(let n): coordinates.append(n)
            case .array(let pair):
                guard pair.count == 2, let x = pair[0].numberValue, let y = pair[1].numberValue else {
                    throw refuse("an array holding \(pair.count == 2 ? "a non-number" : "\(pair.count) values")")
                }
                coordinates += [x, y]
            case .object(let object):
                guard let x = object["x"]?.numberValue, let y = object["y"]?.numberValue else {
                    throw refuse("an object without numbers x and y")
                }
                coordinates += [x, y]
            default: throw refuse("a list holding \(item.typeName)")
            }
        }
        let count = coordinates.count / 2
        guard coordinates.count % 2 == 0, (2...maxPoints).contains(count) else {
            throw refuse("\(items.count) entries")
        }
        if let bad = coordinates.first(where: { !(-1...2).contains($0) }) { throw refuse("a coordinate \(bad)") }
        return (0..<count).map { Point(x: min(1, max(0, coordinates[2 * $0])), y: min(1, max(0, coordinates[2 * $0 + 1]))) }
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        let i = interpolants
        guard i.rgb != nil || i.red != nil || i.green != nil || i.blue != nil else { return .identity }
        func through(_ channel: MonotoneCubicCurve?, _ v: Double) -> Double {
            let c = channel?.value(at: v) ?? v
            return i.rgb?.value(at: c) ?? c
        }
        let table = EncodedCurveTable(space: options.workingSpace) { v in
            (through(i.red, v), through(i.green, v), through(i.blue, v))
        }
        return .pixel(CurvesKernel(table: table), approximation: "RKCurvesOperation (approximation: monotone cubic "
                              + "through the points; the setting names are inferred)")
    }
}

private struct CurvesKernel: PixelKernel {
    let table: EncodedCurveTable
    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) { table.apply(&r, &g, &b) }
}
