import Foundation

/// A modern Photos `SmartTone` adjustment, the Light slider (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §2). Support **approximate**: measured forms and a fitted law
/// (38.3/38.7 dB on the two SmartTone renders, 44.7 through the IMG_1994 chain, at research).
///
/// Three stages on linear sRGB clamped to [0, 1], per pixel, with the pixel's place in the stored
/// image (the local light reads the stored `statistics.lightMap` there); the seven parameters come
/// from `SmartToneLaw.parameters` (its own file) alone. LUMA = (0.299, 0.587, 0.114); a stage
/// whose parameter is exactly 0 is skipped.
/// - 3a. local light (L = localLight, S = smartShadows; b0, b1 the map's planes at the pixel):
///   v = 3.4·b0 − 1.2, s = L·v; k = 1.5·s (s > 0) else (1.75, 1.75, 1.55)·s;
///   x ← clamp(x − k·x(1 − x), 0, 1); q = √x, y = √mean(x), a = min(L, 0.5)·y(1 − y),
///   P = max(b1, 0.5); q ← clamp(q + 0.8·a·(LUMA·q − P) + 0.2·a·(q − P), 0, 1), x = q².
///   Shadows: g = v² (v < 0) else 0, gain = g·(2.75, 2.75, 2.5) + 0.1, w = clamp(1 − q/0.4, 0, 1)²,
///   q ← q + S·gain·w·q, x = clamp(q, 0, 1)².
/// - 3b. high-key (B = brightness): x ← (1 − B)·x + B·√(1 − (x − 1)²).
/// - 3c. tone: levels x ← clamp((x − K/20)/(2^(−2E) − K/20), 0, 1) (E exposure, K black);
///   highlights h: e = exp(−h²/0.75), amt = 1.45 − 0.45e (h > 0) or 0.55 + 0.45e,
///   x ← x + (LUMA·x)²·(x^(3 − 2amt) − x); contrast c: y = √clamp(LUMA·x, 10⁻⁸, 1),
///   y′ = clamp(y + 3.4c·y(1 − y)(y − 0.5), 10⁻⁸, 1), x ← clamp(x·(y′/y)², 0, 1).
/// The light map (31 × 31 cells × 2 planes, row-major from the top-left, stretched over the
/// stored image; cell j's centre at cu = (x + 0.5)/W·31 − 0.5 = j) is read through a separable
/// normalised Gaussian of σ = 1 cell, evaluated once on a grid of 8 × 8 knots a cell and read
/// bilinearly per pixel. Without a usable map (absent or malformed) stage 3a is left out and the
/// note says so; the kernel is then per colour. `inputRawHighlights` and `auto` are ignored.
package struct SmartTone: Equatable, Sendable {
    /// `inputLight`, −1…1.
    package var light: Double
    package var offsetExposure: Double, offsetContrast: Double, offsetBrightness: Double
    package var offsetShadows: Double, offsetHighlights: Double, offsetBlackPoint: Double, offsetLocalLight: Double
    /// The stored `statistics`; nil when the edit has none.
    package var statistics: SmartToneStatistics?

    package init(light: Double, offsetExposure: Double = 0, offsetContrast: Double = 0, offsetBrightness: Double = 0,
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

/// SmartTone's stored `statistics` (modern-adjustments.md §2, aae-format.md §10): the named numbers
/// (nil when absent or not numbers) and the light map.
package struct SmartToneStatistics: Equatable, Sendable {
    package var p02: Double?, p10: Double?, p25: Double?, p50: Double?, p98: Double?
    package var blackPoint: Double?, whitePoint: Double?, tonalRange: Double?, highKey: Double?
    package var autoValue: Double?, localAutoValue: Double?
    /// The decoded map; nil when absent or malformed (`lightMapProblem` says which).
    package var lightMap: SmartToneLightMap?
    /// Why there is no map: "absent", or what is wrong with it.
    package var lightMapProblem: String?

    package init(lightMap: SmartToneLightMap? = nil, lightMapProblem: String? = nil) {
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

/// `statistics.lightMap` (modern-adjustments.md §2 [V]): 31 × 31 cells × 2 bytes, interleaved per cell
/// (byte 2k plane 0, byte 2k + 1 plane 1), cells row-major from the top-left, the grid stretched
/// over the stored image. Plane 0 ≈ 255·(0.72·median + 0.04) of the cell's linear mean level, plane
/// 1 its 98th percentile.
package struct SmartToneLightMap: Equatable, Sendable {
    package static let cells = 31
    package static let byteCount = cells * cells * 2
    /// The 1922 bytes as stored.
    package let bytes: [UInt8]

    package init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    package init?(base64 text: String) {
        guard text.utf8.count < 16_384, let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            return nil
        }
        self.init(bytes: [UInt8](data))
    }

    /// Plane `plane` (0 or 1) of the cell in row `row`, column `column`, in [0, 1].
    package func value(plane: Int, row: Int, column: Int) -> Double {
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

    /// The two planes (b0, b1) at the normalized point (u, v) of the stored image: bilinear
    /// between the four knots around it.
    @inline(__always)
    func planes(u: Float, v: Float) -> (Float, Float) {
        let (i, fy) = Self.knot(v), (j, fx) = Self.knot(u)
        let k = Self.knots
        return values.withUnsafeBufferPointer { m in
            @inline(__always) func at(_ y: Int, _ x: Int, _ plane: Int) -> Float { m[(y * k + x) * 2 + plane] }
            @inline(__always) func plane(_ p: Int) -> Float {
                let left = at(i, j, p) + fy * (at(i + 1, j, p) - at(i, j, p))
                let right = at(i, j + 1, p) + fy * (at(i + 1, j + 1, p) - at(i, j + 1, p))
                return left + fx * (right - left)
            }
            return (plane(0), plane(1))
        }
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
    package static let filterName = "SmartTone"
    package static let role = FilterRole.storedColour
    static let aaeIdentifier = "SmartTone"
    /// A model fitted to Apple's renders (docs/spec/modern-adjustments.md), not Apple's formula.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .approximate }

    package var parameterValues: [(String, ParameterValue)] {
        [("Light", .number(light)), ("OffsetExposure", .number(offsetExposure)), ("OffsetContrast", .number(offsetContrast)),
         ("OffsetBrightness", .number(offsetBrightness)), ("OffsetShadows", .number(offsetShadows)),
         ("OffsetHighlights", .number(offsetHighlights)), ("OffsetBlackPoint", .number(offsetBlackPoint)),
         ("OffsetLocalLight", .number(offsetLocalLight))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> SmartTone { self }

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
        let law = "the seven stage parameters by a fitted law from the Light slider, the offsets and the photo's statistics"
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
    /// Stage 3c.1: whether the levels run, K/20 and 1/(2^(−2E) − K/20).
    let levels: Bool, blackOffset: Float, exposureScale: Float
    /// Stage 3c.2: whether it runs, and the exponent 3 − 2·amt.
    let highlights: Bool, highlightPower: Float
    /// Stage 3c.3: 3.4·contrast.
    let contrast: Float

    init(_ p: SmartToneParameters) {
        (localLight, smartShadows, brightness) = (Float(p.localLight), Float(p.smartShadows), Float(p.brightness))
        levels = p.exposure != 0 || p.black != 0
        blackOffset = Float(p.black / 20)
        exposureScale = Float(1 / (pow(2, -2 * p.exposure) - p.black / 20))
        let h = p.highlights, e = exp(-h * h / 0.75)
        let amount = h > 0 ? 1.45 - 0.45 * e : 0.55 + 0.45 * e
        highlights = h != 0
        highlightPower = Float(3 - 2 * amount)
        contrast = Float(3.4 * p.contrast)
    }

    @inline(__always)
    private static func clamp01(_ x: Float) -> Float { min(1, max(0, x)) }

    /// Stage 3a on linear light in [0, 1], with the map's planes at the pixel.
    @inline(__always)
    func local(_ r: inout Float, _ g: inout Float, _ b: inout Float, b0: Float, b1: Float) {
        let v = 3.4 * b0 - 1.2
        // q = √x per channel, kept from the local contrast for the shadow step (nil: not yet).
        var q: (Float, Float, Float)? = nil
        if localLight != 0 {
            let s = localLight * v
            if s > 0 {
                let k = 1.5 * s
                r = Self.clamp01(r - k * r * (1 - r)); g = Self.clamp01(g - k * g * (1 - g)); b = Self.clamp01(b - k * b * (1 - b))
            } else {
                let k = 1.75 * s, kb = 1.55 * s
                r = Self.clamp01(r - k * r * (1 - r)); g = Self.clamp01(g - k * g * (1 - g)); b = Self.clamp01(b - kb * b * (1 - b))
            }
            let (qr, qg, qb) = (r.squareRoot(), g.squareRoot(), b.squareRoot())
            let pivot = max(b1, 0.5)
            let y = ((r + g + b) * (1 / 3)).squareRoot()
            let a = min(localLight, 0.5) * y * (1 - y)
            // 0.8·a·(LUMA·q − P) + 0.2·a·(q − P), the luma part shared by the three channels.
            let shared = 0.8 * a * (0.299 * qr + 0.587 * qg + 0.114 * qb - pivot) - 0.2 * a * pivot
            let own = 0.2 * a
            let n = (Self.clamp01(qr + shared + own * qr), Self.clamp01(qg + shared + own * qg), Self.clamp01(qb + shared + own * qb))
            (r, g, b) = (n.0 * n.0, n.1 * n.1, n.2 * n.2)
            q = n
        }
        if smartShadows != 0 {
            let (qr, qg, qb) = q ?? (r.squareRoot(), g.squareRoot(), b.squareRoot())
            let d = v < 0 ? v * v : 0
            let gainRG = smartShadows * (2.75 * d + 0.1), gainB = smartShadows * (2.5 * d + 0.1)
            @inline(__always) func lift(_ q: Float, _ gain: Float) -> Float {
                let w = Self.clamp01(1 - q * 2.5)
                let n = Self.clamp01(q + gain * w * w * q)
                return n * n
            }
            (r, g, b) = (lift(qr, gainRG), lift(qg, gainRG), lift(qb, gainB))
        }
    }

    /// Stages 3b and 3c on linear light.
    @inline(__always)
    func global(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        (r, g, b) = (Self.clamp01(r), Self.clamp01(g), Self.clamp01(b))
        if brightness != 0 {
            @inline(__always) func key(_ x: Float) -> Float {
                let d = x - 1
                return (1 - brightness) * x + brightness * max(0, 1 - d * d).squareRoot()
            }
            (r, g, b) = (key(r), key(g), key(b))
        }
        if levels {
            r = (r - blackOffset) * exposureScale; g = (g - blackOffset) * exposureScale; b = (b - blackOffset) * exposureScale
        }
        (r, g, b) = (Self.clamp01(r), Self.clamp01(g), Self.clamp01(b))
        if highlights {
            let lum = 0.299 * r + 0.587 * g + 0.114 * b, w = lum * lum
            @inline(__always) func lift(_ x: Float) -> Float { x + w * (powf(x, highlightPower) - x) }
            (r, g, b) = (lift(r), lift(g), lift(b))
        }
        if contrast != 0 {
            let lum = min(1, max(1e-8, 0.299 * r + 0.587 * g + 0.114 * b))
            let y = lum.squareRoot()
            let n = min(1, max(1e-8, y + contrast * y * (1 - y) * (y - 0.5)))
            let f = n * n / lum
            (r, g, b) = (Self.clamp01(r * f), Self.clamp01(g * f), Self.clamp01(b * f))
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
        let (b0, b1) = map.planes(u: u, v: v)
        run(&r, &g, &b, b0: b0, b1: b1)
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
