import Foundation

/// A modern Photos `SmartTone` adjustment, the Light slider (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §2, after the models of modern-colour.md §2–§3). Support
/// **approximate**: the stages are measured against Apple's renders, but how Apple turns
/// `inputLight`, the offsets and the photo's `statistics` into the stages' seven parameters is
/// unknown; `SmartToneLaw.parameters` (its own file) is the one place that does it here.
///
/// Three stages on linear RGB clamped to [0, 1], per pixel, with the pixel's place in the stored
/// image (the local light reads the stored `statistics.lightMap` there):
/// 1. local light (L = localLight, b0, b1 the light map's two planes at the pixel, in [0, 1]):
///    s = L·(3.4·b0 − 1.2); x ← x − k·x(1 − x), k = 1.5·s (s > 0), else (1.75, 1.75, 1.55)·s;
///    then a local contrast in the square-root domain, q = √x, about the pivot max(b1, 0.5), with
///    amount a = min(L, 0.5)·y(1 − y), y = √mean(x): d = a·(q − pivot), mixed as
///    0.8·(0.299, 0.587, 0.114)·d + 0.2·d [I: the mix is this file's reading], x ← (q + d)²;
///    the shadow term t = smartShadows·(b0 − 0.4): where t < 0, x ← x + t²·(2.75, 2.75, 2.5)·x(1 − x)
///    [I: sign and form read from the spec's words; the spec's extra lift below y < 0.1 is not
///    rendered];
/// 2. high-key: x ← x + brightness·(√(1 − (x − 1)²) − x);
/// 3. tone: x ← (x − black/20)/(2^(−2·exposure) − black/20), clamped; highlights h: amt =
///    1.45 − 0.45·e^(−h²/0.75) (h > 0) or 0.55 + 0.45·e^(−h²/0.75), x ← x + lum²·(0.8·(x/0.8)^(3 − 2amt)
///    − x) clamped to 1, lum = (0.299, 0.587, 0.114)·x; contrast c: q = √x, q ← q + 3.4·c·y(1 − y)·(q − 0.5),
///    y = √mean(x), x ← q².
/// The light map (modern-colour.md §2: 31 × 31 cells × 2 planes, row-major from the top-left,
/// stretched over the stored image) is smoothed once with a Gaussian of σ = 1 cell onto a grid of
/// 8 × 8 knots a cell, and read bilinearly per pixel. Without a usable map (absent or malformed)
/// the local stages are left out (stage 1) and the note says so; the kernel is then per colour.
/// `inputRawHighlights` and `auto` are ignored.
public struct SmartTone: Equatable, Sendable {
    /// `inputLight`, −1…1.
    public var light: Double
    public var offsetExposure: Double, offsetContrast: Double, offsetBrightness: Double
    public var offsetShadows: Double, offsetHighlights: Double, offsetBlackPoint: Double, offsetLocalLight: Double
    /// The stored `statistics`; nil when the edit has none.
    public var statistics: SmartToneStatistics?

    public init(light: Double, offsetExposure: Double = 0, offsetContrast: Double = 0, offsetBrightness: Double = 0,
                offsetShadows: Double = 0, offsetHighlights: Double = 0, offsetBlackPoint: Double = 0,
                offsetLocalLight: Double = 0, statistics: SmartToneStatistics? = nil) {
        (self.light, self.offsetExposure, self.offsetContrast, self.offsetBrightness) =
            (light, offsetExposure, offsetContrast, offsetBrightness)
        (self.offsetShadows, self.offsetHighlights, self.offsetBlackPoint, self.offsetLocalLight) =
            (offsetShadows, offsetHighlights, offsetBlackPoint, offsetLocalLight)
        self.statistics = statistics
    }

    private var all: [Double] {
        [light, offsetExposure, offsetContrast, offsetBrightness, offsetShadows, offsetHighlights, offsetBlackPoint,
         offsetLocalLight]
    }

    /// The seven stage parameters, from `SmartToneLaw` (offsets clamped to −1…1).
    var parameters: SmartToneParameters {
        func clamp(_ x: Double) -> Double { min(1, max(-1, x)) }
        return SmartToneLaw.parameters(light: clamp(light), offsetExposure: clamp(offsetExposure),
                                       offsetContrast: clamp(offsetContrast), offsetBrightness: clamp(offsetBrightness),
                                       offsetShadows: clamp(offsetShadows), offsetHighlights: clamp(offsetHighlights),
                                       offsetBlackPoint: clamp(offsetBlackPoint), offsetLocalLight: clamp(offsetLocalLight),
                                       statistics: statistics)
    }
}

/// SmartTone's stored `statistics` (modern-colour.md §2, aae-format.md §10): the named numbers
/// (nil when absent or not numbers) and the light map.
public struct SmartToneStatistics: Equatable, Sendable {
    public var p02: Double?, p10: Double?, p25: Double?, p50: Double?, p98: Double?
    public var blackPoint: Double?, whitePoint: Double?, tonalRange: Double?, highKey: Double?
    public var autoValue: Double?, localAutoValue: Double?
    /// The decoded map; nil when absent or malformed (`lightMapProblem` says which).
    public var lightMap: SmartToneLightMap?
    /// Why there is no map: "absent", or what is wrong with it.
    public var lightMapProblem: String?

    public init(lightMap: SmartToneLightMap? = nil, lightMapProblem: String? = nil) {
        (self.lightMap, self.lightMapProblem) = (lightMap, lightMapProblem)
    }

    /// Reads the object leniently: numbers where numbers are, the base64 map where it decodes.
    init(_ object: [String: AAEValue]) {
        func number(_ key: String) -> Double? { object[key]?.numberValue }
        (p02, p10, p25, p50, p98) = (number("p02"), number("p10"), number("p25"), number("p50"), number("p98"))
        (blackPoint, whitePoint, tonalRange, highKey) =
            (number("blackPoint"), number("whitePoint"), number("tonalRange"), number("highKey"))
        (autoValue, localAutoValue) = (number("autoValue"), number("localAutoValue"))
        switch object["lightMap"] {
        case nil, .null?: lightMapProblem = "absent"
        case .string(let text)?:
            if let map = SmartToneLightMap(base64: text) { lightMap = map }
            else { lightMapProblem = "not \(SmartToneLightMap.byteCount) bytes of base64" }
        case let other?: lightMapProblem = "\(other.typeName), not base64 text"
        }
    }
}

/// `statistics.lightMap` (modern-colour.md §2 [V]): 31 × 31 cells × 2 bytes, interleaved per cell
/// (byte 2k plane 0, byte 2k + 1 plane 1), cells row-major from the top-left, the grid stretched
/// over the stored image. Plane 0 ≈ 255·(0.72·median + 0.04) of the cell's linear mean level, plane
/// 1 its 98th percentile.
public struct SmartToneLightMap: Equatable, Sendable {
    public static let cells = 31
    public static let byteCount = cells * cells * 2
    /// The 1922 bytes as stored.
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    public init?(base64 text: String) {
        guard text.utf8.count < 16_384, let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            return nil
        }
        self.init(bytes: [UInt8](data))
    }

    /// Plane `plane` (0 or 1) of the cell in row `row`, column `column`, in [0, 1].
    public func value(plane: Int, row: Int, column: Int) -> Double {
        Double(bytes[(row * Self.cells + column) * 2 + plane]) / 255
    }
}

/// The light map smoothed once (Gaussian, σ = 1 cell, normalised weights over the 31 cell centres
/// along each axis) onto `knots` × `knots` points spanning the image, knot i at i/(knots − 1);
/// read bilinearly. Both planes interleaved.
struct SmoothedLightMap: Sendable {
    static let knotsPerCell = 8
    static let knots = SmartToneLightMap.cells * knotsPerCell + 1
    /// knots × knots × 2, row-major.
    let values: [Float]

    init(_ map: SmartToneLightMap) {
        let n = SmartToneLightMap.cells, k = Self.knots
        // weights[i][j]: knot i (at i/knotsPerCell cell units) against cell centre j + 0.5.
        let weights: [[Double]] = (0..<k).map { i in
            let p = Double(i) / Double(Self.knotsPerCell)
            let w = (0..<n).map { j in exp(-(p - Double(j) - 0.5) * (p - Double(j) - 0.5) / 2) }
            let sum = w.reduce(0, +)
            return w.map { $0 / sum }
        }
        // Along rows first (cells → knots in x), then down the columns.
        var across = [Double](repeating: 0, count: n * k * 2)
        for row in 0..<n {
            for x in 0..<k {
                for plane in 0..<2 {
                    var s = 0.0
                    for j in 0..<n { s += weights[x][j] * map.value(plane: plane, row: row, column: j) }
                    across[(row * k + x) * 2 + plane] = s
                }
            }
        }
        var values = [Float](repeating: 0, count: k * k * 2)
        for y in 0..<k {
            for x in 0..<k {
                for plane in 0..<2 {
                    var s = 0.0
                    for j in 0..<n { s += weights[y][j] * across[(j * k + x) * 2 + plane] }
                    values[(y * k + x) * 2 + plane] = Float(s)
                }
            }
        }
        self.values = values
    }

    /// Knot index and fraction for a normalized coordinate t ∈ (0, 1).
    @inline(__always)
    static func knot(_ t: Float) -> (Int, Float) {
        let p = min(max(t, 0), 1) * Float(knots - 1)
        let i = min(Int(p), knots - 2)
        return (i, p - Float(i))
    }
}

extension SmartTone: ColourFilter, AAEAdjustmentFilter {
    public static let filterName = "SmartTone"
    public static let role = FilterRole.storedColour
    static let aaeIdentifier = "SmartTone"

    public var parameterValues: [(String, ParameterValue)] {
        [("Light", .number(light)), ("OffsetExposure", .number(offsetExposure)), ("OffsetContrast", .number(offsetContrast)),
         ("OffsetBrightness", .number(offsetBrightness)), ("OffsetShadows", .number(offsetShadows)),
         ("OffsetHighlights", .number(offsetHighlights)), ("OffsetBlackPoint", .number(offsetBlackPoint)),
         ("OffsetLocalLight", .number(offsetLocalLight))]
    }
    public func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    public func rescaled(by factors: RescaleFactors) -> SmartTone { self }

    /// Each value −1…1 (clamped; refused beyond ±3); nil when all are within 0.001 of 0.
    /// `statistics` is read leniently (`SmartToneStatistics`): a missing or malformed part only
    /// leaves the local light out.
    static func read(aae a: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> SmartTone? {
        let tone = SmartTone(light: try a.slider("inputLight"), offsetExposure: try a.slider("offsetExposure"),
                             offsetContrast: try a.slider("offsetContrast"), offsetBrightness: try a.slider("offsetBrightness"),
                             offsetShadows: try a.slider("offsetShadows"), offsetHighlights: try a.slider("offsetHighlights"),
                             offsetBlackPoint: try a.slider("offsetBlackPoint"),
                             offsetLocalLight: try a.slider("offsetLocalLight"),
                             statistics: a.settings["statistics"]?.objectValue.map(SmartToneStatistics.init))
        return tone.all.contains(where: { abs($0) >= 0.001 }) ? tone : nil
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        guard all.contains(where: { abs($0) >= 0.001 }) else { return .identity }
        let p = parameters
        let model = SmartToneModel(p)
        let law = "the seven stage parameters from the Light slider by a provisional law (the photo's statistics unused)"
        if let map = statistics?.lightMap {
            return ColourStage(kernel: .storedPositional(SmartToneKernel(model: model, map: SmoothedLightMap(map),
                                                                         space: options.workingSpace)),
                               approximation: "SmartTone (approximation: local light from the stored light map, "
                                   + "high-key and tone; \(law))")
        }
        let why = statistics?.lightMapProblem ?? "absent"
        return .pointwise(SmartToneGlobalKernel(model: model, space: options.workingSpace),
                          approximation: "SmartTone (approximation: high-key and tone only, the light map is \(why) "
                              + "so the local light is not rendered; \(law))")
    }
}

/// The three stages' arithmetic (the doc comment of `SmartTone`), in Float on linear light.
struct SmartToneModel: Sendable {
    let localLight: Float, smartShadows: Float, brightness: Float
    let blackOffset: Float, exposureScale: Float
    /// Stage 3's highlight exponent 3 − 2·amt (1: none).
    let highlightPower: Float
    let contrast: Float

    init(_ p: SmartToneParameters) {
        (localLight, smartShadows, brightness) = (Float(p.localLight), Float(p.smartShadows), Float(p.brightness))
        blackOffset = Float(p.black / 20)
        exposureScale = Float(1 / (pow(2, -2 * p.exposure) - p.black / 20))
        let h = p.highlights, e = exp(-h * h / 0.75)
        let amount = h > 0 ? 1.45 - 0.45 * e : 0.55 + 0.45 * e
        highlightPower = Float(3 - 2 * amount)
        contrast = Float(p.contrast)
    }

    @inline(__always)
    private static func clamp01(_ x: Float) -> Float { min(1, max(0, x)) }

    /// Stage 1 on linear light in [0, 1], with the map's planes at the pixel.
    @inline(__always)
    func local(_ r: inout Float, _ g: inout Float, _ b: inout Float, b0: Float, b1: Float) {
        let s = localLight * (3.4 * b0 - 1.2)
        if s > 0 {
            let k = 1.5 * s
            r -= k * r * (1 - r); g -= k * g * (1 - g); b -= k * b * (1 - b)
        } else {
            r -= 1.75 * s * r * (1 - r); g -= 1.75 * s * g * (1 - g); b -= 1.55 * s * b * (1 - b)
        }
        if localLight != 0 {
            let (qr, qg, qb) = (Self.clamp01(r).squareRoot(), Self.clamp01(g).squareRoot(), Self.clamp01(b).squareRoot())
            let pivot = max(b1, 0.5)
            let y = max(0, (r + g + b) / 3).squareRoot()
            let a = min(localLight, 0.5) * y * (1 - y)
            let (dr, dg, db) = (a * (qr - pivot), a * (qg - pivot), a * (qb - pivot))
            let luma = 0.8 * (0.299 * dr + 0.587 * dg + 0.114 * db)
            let (nr, ng, nb) = (max(0, qr + luma + 0.2 * dr), max(0, qg + luma + 0.2 * dg), max(0, qb + luma + 0.2 * db))
            (r, g, b) = (nr * nr, ng * ng, nb * nb)
        }
        let t = smartShadows * (b0 - 0.4)
        if t < 0 {
            let t2 = t * t
            r += 2.75 * t2 * r * (1 - r); g += 2.75 * t2 * g * (1 - g); b += 2.5 * t2 * b * (1 - b)
        }
    }

    /// Stages 2 and 3 on linear light.
    @inline(__always)
    func global(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        (r, g, b) = (Self.clamp01(r), Self.clamp01(g), Self.clamp01(b))
        if brightness != 0 {
            @inline(__always) func key(_ x: Float) -> Float { let d = x - 1; return x + brightness * ((1 - d * d).squareRoot() - x) }
            (r, g, b) = (key(r), key(g), key(b))
        }
        r = Self.clamp01((r - blackOffset) * exposureScale)
        g = Self.clamp01((g - blackOffset) * exposureScale)
        b = Self.clamp01((b - blackOffset) * exposureScale)
        if highlightPower != 1 {
            let lum = 0.299 * r + 0.587 * g + 0.114 * b, w = lum * lum
            // Clamped to 1: for h > 0 the curve above the pivot rises past white.
            @inline(__always) func lift(_ x: Float) -> Float { min(1, x + w * (0.8 * powf(x / 0.8, highlightPower) - x)) }
            (r, g, b) = (lift(r), lift(g), lift(b))
        }
        if contrast != 0 {
            let y = max(0, (r + g + b) / 3).squareRoot()
            let a = 3.4 * contrast * y * (1 - y)
            @inline(__always) func curve(_ x: Float) -> Float {
                let q = max(0, x).squareRoot(); let n = min(1, max(0, q + a * (q - 0.5))); return n * n
            }
            (r, g, b) = (curve(r), curve(g), curve(b))
        }
    }
}

/// SmartTone with its light map: position-dependent, run per pixel in the stored frame.
private struct SmartToneKernel: StoredPositionalKernel {
    let model: SmartToneModel
    let map: SmoothedLightMap
    let space: WorkingSpace

    @inline(__always)
    private func run(_ r: inout Float, _ g: inout Float, _ b: inout Float, b0: Float, b1: Float) {
        var (lr, lg, lb) = (min(1, max(0, space.linear(r))), min(1, max(0, space.linear(g))), min(1, max(0, space.linear(b))))
        model.local(&lr, &lg, &lb, b0: b0, b1: b1)
        model.global(&lr, &lg, &lb)
        (r, g, b) = (space.working(fromLinear: lr), space.working(fromLinear: lg), space.working(fromLinear: lb))
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float, u: Float, v: Float) {
        let (i, fy) = SmoothedLightMap.knot(v), (j, fx) = SmoothedLightMap.knot(u)
        let k = SmoothedLightMap.knots
        map.values.withUnsafeBufferPointer { m in
            @inline(__always) func at(_ y: Int, _ x: Int, _ plane: Int) -> Float { m[(y * k + x) * 2 + plane] }
            @inline(__always) func plane(_ p: Int) -> Float {
                let left = at(i, j, p) + fy * (at(i + 1, j, p) - at(i, j, p))
                let right = at(i, j + 1, p) + fy * (at(i + 1, j + 1, p) - at(i, j + 1, p))
                return left + fx * (right - left)
            }
            run(&r, &g, &b, b0: plane(0), b1: plane(1))
        }
    }

    /// The same arithmetic as `apply(_:_:_:u:v:)`, each knot column's vertical blend made once a row.
    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        let (i, fy) = SmoothedLightMap.knot(Self.centre(y, of: imageSize.height))
        let k = SmoothedLightMap.knots
        withUnsafeTemporaryAllocation(of: Float.self, capacity: k * 2) { column in
            map.values.withUnsafeBufferPointer { m in
                for x in 0..<k {
                    for p in 0..<2 {
                        let a = m[(i * k + x) * 2 + p], c = m[((i + 1) * k + x) * 2 + p]
                        column[x * 2 + p] = a + fy * (c - a)
                    }
                }
            }
            var px = row
            for x in x0..<(x0 + count) {
                let (j, fx) = SmoothedLightMap.knot(Self.centre(x, of: imageSize.width))
                let b0 = column[j * 2] + fx * (column[j * 2 + 2] - column[j * 2])
                let b1 = column[j * 2 + 1] + fx * (column[j * 2 + 3] - column[j * 2 + 1])
                run(&px[0], &px[1], &px[2], b0: b0, b1: b1)
                px += 3
            }
        }
    }
}

/// SmartTone without a light map: stages 2 and 3 only, per colour.
private struct SmartToneGlobalKernel: PixelKernel {
    let model: SmartToneModel
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        var (lr, lg, lb) = (space.linear(r), space.linear(g), space.linear(b))
        model.global(&lr, &lg, &lb)
        (r, g, b) = (space.working(fromLinear: lr), space.working(fromLinear: lg), space.working(fromLinear: lb))
    }
}
