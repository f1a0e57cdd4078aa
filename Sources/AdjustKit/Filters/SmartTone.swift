import Foundation
import Synchronization

/// A modern Photos `SmartTone` adjustment, the Light slider (docs/spec/aae-format.md §3,
/// docs/spec/modern-adjustments.md §2). Support **approximate**: measured stage forms
/// (`SmartToneStages.swift`, modern-colour.md §7) and a fitted law for their parameters
/// (`SmartToneLaw.swift`).
///
/// Per pixel on linear sRGB, with the pixel's place in the stored image (the local light reads the
/// stored `statistics.lightMap` there): local light → smart shadows → high-key → levels →
/// highlights → contrast; each stage parameter is the law's auto value plus the user's offset.
/// The light map (31 × 31 cells × 2 planes, row-major from the top-left, stretched over the
/// stored image; cell j's centre at cu = (x + 0.5)/W·31 − 0.5 = j) is read through a separable
/// normalised Gaussian of σ = 1 cell, evaluated once on a grid of 8 × 8 knots a cell and read
/// bilinearly per pixel. Without a usable map (absent or malformed) the local light and smart
/// shadows are left out and the note says so; the kernel is then per colour.
/// `inputRawHighlights` and `auto` are ignored.
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
        // Along rows first (cells → knots in x), then down the columns. Each sum adds its terms
        // in the order of j, one knot's sum a lane: both passes run over whole rows of knots at a
        // time (contiguous, so the compiler vectorizes them), in that order, so they are the sums
        // written term by term (`ModernColourModelTests`) to the bit, at a fraction of the time.
        // weightsByCell[j·k + i]: weights[i][j], the knots of cell j side by side.
        let weightsByCell = (0..<n).flatMap { j in (0..<k).map { weights[$0][j] } }
        var across = [Double](repeating: 0, count: n * k * 2)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: k) { sums in
            weightsByCell.withUnsafeBufferPointer { w in
                for row in 0..<n {
                    for plane in 0..<2 {
                        sums.initialize(repeating: 0)
                        for j in 0..<n {
                            let (cell, line) = (map.value(plane: plane, row: row, column: j), w.baseAddress! + j * k)
                            for i in 0..<k { sums[i] += line[i] * cell }
                        }
                        for i in 0..<k { across[(row * k + i) * 2 + plane] = sums[i] }
                    }
                }
            }
        }
        var values = [Float](repeating: 0, count: k * k * 2)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: k * 2) { sums in
            across.withUnsafeBufferPointer { across in
                values.withUnsafeMutableBufferPointer { values in
                    for y in 0..<k {
                        sums.initialize(repeating: 0)
                        for j in 0..<n {
                            let (w, line) = (weights[y][j], across.baseAddress! + j * k * 2)
                            for i in 0..<(k * 2) { sums[i] += w * line[i] }
                        }
                        for i in 0..<(k * 2) { values[y * k * 2 + i] = Float(sums[i]) }
                    }
                }
            }
        }
        self.values = values
    }

    /// The two planes (b0, b1) at the normalized point (u, v) of the stored image: bilinear
    /// between the four knots around it (`column(v:into:)`, then `planes(u:in:)`).
    func planes(u: Float, v: Float) -> (Float, Float) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: Self.knots * 2) { blended in
            column(v: v, into: blended.baseAddress!)
            let (b0, b1) = Self.planes(u: Lanes(repeating: u), in: blended.baseAddress!)
            return (b0[0], b1[0])
        }
    }

    /// Both planes at every knot column, at the normalized height v: blended between the knot rows
    /// about it (`knots` × 2 values, interleaved).
    func column(v: Float, into column: UnsafeMutablePointer<Float>) { self.column(v: v, knots: 0..<Self.knots, into: column) }

    /// `column(v:into:)` at the knot columns `knots` only, those a chunk of a row reads: knot
    /// column j's two values at `column[2(j − knots.lowerBound)]` and the next.
    func column(v: Float, knots: Range<Int>, into column: UnsafeMutablePointer<Float>) {
        let (i, fy) = Self.knot(v), k = Self.knots, first = knots.lowerBound * 2
        values.withUnsafeBufferPointer { m in
            for x in first..<(knots.upperBound * 2) {
                let a = m[i * k * 2 + x], c = m[(i + 1) * k * 2 + x]
                column[x - first] = a + fy * (c - a)
            }
        }
    }

    /// The two planes at four normalized widths u, from a row's `column`: blended between the knot
    /// columns about each.
    @inline(__always)
    static func planes(u: Lanes, in column: UnsafePointer<Float>) -> (Lanes, Lanes) {
        let (j, fx) = knot(u)
        return planes(knots: j, fractions: fx, in: column)
    }

    /// The two planes at four points whose knot columns are `j` and fractions toward the next `fx`
    /// (`knot`, found once per image column by `KnotColumns`), from a row's `column` of the knot
    /// columns from `first` on.
    @inline(__always)
    static func planes(knots j: LaneBits, fractions fx: Lanes, in column: UnsafePointer<Float>,
                       from first: Int = 0) -> (Lanes, Lanes) {
        if j[0] == j[Lanes.scalarCount - 1] {
            // The usual group (a knot spans 16 pixels of a 12 MP photo): one knot pair for every
            // lane (u rises across the lanes), four broadcast loads instead of sixteen lane inserts.
            let at = column + (Int(j[0]) - first) * 2
            let (a0, a1, c0, c1) = (Lanes(repeating: at[0]), Lanes(repeating: at[1]), Lanes(repeating: at[2]),
                                    Lanes(repeating: at[3]))
            return (a0 + fx * (c0 - a0), a1 + fx * (c1 - a1))
        }
        var (a0, c0, a1, c1) = (Lanes(), Lanes(), Lanes(), Lanes())
        for lane in 0..<Lanes.scalarCount {
            let at = column + (Int(j[lane]) - first) * 2
            (a0[lane], a1[lane], c0[lane], c1[lane]) = (at[0], at[1], at[2], at[3])
        }
        return (a0 + fx * (c0 - a0), a1 + fx * (c1 - a1))
    }

    /// `knot` on four coordinates at once, the same arithmetic lane by lane.
    @inline(__always)
    static func knot(_ t: Lanes) -> (LaneBits, Lanes) {
        let p = Lanes.minimum(Lanes.maximum(t, .zero), Lanes(repeating: 1)) * Float(knots - 1)
        let truncated = LaneMath.truncate(p), cap = LaneBits(repeating: Int32(knots - 2))
        let i = truncated.replacing(with: cap, where: truncated .> cap)
        return (i, p - LaneMath.float(i))
    }

    /// Each column's knot and fraction (`knot`) for images of one width: the same for every
    /// row, so a kernel finds them once where each row found them again (a division, the clamps and
    /// the truncation every four pixels: the row loop went from 4.1 % to 1.1 % of a 12 MP SmartTone
    /// HEIC's samples; that render's CPU 0.977 of what it was, a Tone + Color + B&W JPEG's 0.953,
    /// medians of 25 alternating runs; docs/benchmark.md).
    struct KnotColumns: Sendable {
        let knots: [Int32], fractions: [Float]

        /// The columns whose centres, in normalized widths, are `centres` (the kernel's
        /// `StoredPositionalKernel.centre` of each column), each through the four-lane `knot` the
        /// rows used.
        init(centres: [Float]) {
            var (knots, fractions) = ([Int32](), [Float]())
            knots.reserveCapacity(centres.count)
            fractions.reserveCapacity(centres.count)
            for u in centres {
                let (j, fx) = SmoothedLightMap.knot(Lanes(repeating: u))
                knots.append(j[0])
                fractions.append(fx[0])
            }
            (self.knots, self.fractions) = (knots, fractions)
        }

        /// The knots and fractions of columns x… x + 3, those past `last` reading `last`'s (the
        /// padded lanes of a run's last group).
        @inline(__always)
        static func group(at x: Int, last: Int, knots: UnsafePointer<Int32>, fractions: UnsafePointer<Float>)
            -> (LaneBits, Lanes) {
            if x + Lanes.scalarCount - 1 <= last {
                return (UnsafeRawPointer(knots + x).loadUnaligned(as: LaneBits.self),
                        UnsafeRawPointer(fractions + x).loadUnaligned(as: Lanes.self))
            }
            var (j, fx) = (LaneBits(), Lanes())
            for lane in 0..<Lanes.scalarCount {
                let column = min(x + lane, last)
                (j[lane], fx[lane]) = (knots[column], fractions[column])
            }
            return (j, fx)
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
        let law = light < 0
            ? "Light below 0 is not rendered, no render to fit it: the offsets only"
            : "the seven stage parameters by a fitted law from the Light slider, the offsets and the photo's statistics"
        if let map = statistics?.lightMap {
            let global = SmartToneGlobalKernel(model: model, space: options.workingSpace)
            // The local stages read the pixel's place; the global ones its colour alone, so they
            // are a kernel of their own, which the program can run with the per-colour steps after
            // it (`TabulatedColourRun`). With no local stage to run, the whole model is per colour.
            let kernel: any ColourKernel = model.hasLocalStages
                ? ColourKernels([SmartToneKernel(model: model, map: SmoothedLightMap(map), space: options.workingSpace), global])
                : global
            return ColourStage(kernel: kernel,
                               approximation: "SmartTone (approximation: local light from the stored light map, "
                                   + "high-key and tone; \(law))")
        }
        let why = statistics?.lightMapProblem ?? "absent"
        return .pixel(SmartToneGlobalKernel(model: model, space: options.workingSpace),
                          approximation: "SmartTone (approximation: high-key and tone only, the light map is \(why) "
                              + "so the local light is not rendered; \(law))")
    }
}

/// SmartTone's local stages (local light, smart shadows), which read the light map at the
/// pixel's place: run per pixel in the stored frame, a chunk of a row at a time (`RGBPlanes`,
/// `ChunkStep`), each stage a loop over the chunk. The global stages follow as a kernel of their
/// own (`SmartToneGlobalKernel`).
private struct SmartToneKernel: StoredPositionalKernel, ChunkStep {
    let model: SmartToneModel
    let map: SmoothedLightMap
    let space: WorkingSpace
    /// Each column's knot, per image width met (one, in a render).
    let knotColumns = KnotColumnCache()

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float, u: Float, v: Float) {
        let (b0, b1) = map.planes(u: u, v: v)
        RGBPlanes.withPixel(&r, &g, &b) { chunk in
            withUnsafePointer(to: Lanes(repeating: b0)) { b0 in
                withUnsafePointer(to: Lanes(repeating: b1)) { b1 in run(chunk, b0: b0, b1: b1) }
            }
        }
    }

    /// The stages on a chunk whose map planes are `b0` and `b1`.
    private func run(_ chunk: RGBPlanes, b0: UnsafePointer<Lanes>, b1: UnsafePointer<Lanes>) {
        space.toLinear(chunk)
        model.local(chunk, b0: b0, b1: b1)
        space.fromLinear(chunk)
    }

    /// The same arithmetic as `apply(_:_:_:u:v:)` on a chunk of a row: each column's knot found
    /// once for the image's width, and the knot columns' vertical blend made for the knots the
    /// chunk's columns lie between only.
    func apply(_ chunk: RGBPlanes, x: Int, y: Int, imageSize: PixelSize) {
        let last = x + chunk.count - 1
        knotColumns.withColumns(width: imageSize.width) { knots, fractions in
            // A column reads its knot and the next; knots rise with the column. Only those knot
            // columns are held: Swift puts a temporary allocation of up to 1 KB on the stack and
            // asks malloc for a larger one, as every knot column of a row (2 KB) and the two
            // planes (2 KB) were, on every chunk (malloc and free 3.5 % of a Tone + Color + B&W
            // render's samples; docs/benchmark.md, twenty-first part).
            let used = Int(knots[x])..<(Int(knots[last]) + 2)
            withUnsafeTemporaryAllocation(of: Float.self, capacity: used.count * 2) { column in
                map.column(v: Self.centre(y, of: imageSize.height), knots: used, into: column.baseAddress!)
                // Two planes of 1 KB each rather than one allocation of both, for the same reason.
                withUnsafeTemporaryAllocation(of: Lanes.self, capacity: RGBPlanes.chunkGroups) { plane0 in
                    withUnsafeTemporaryAllocation(of: Lanes.self, capacity: RGBPlanes.chunkGroups) { plane1 in
                        let (b0, b1) = (plane0.baseAddress!, plane1.baseAddress!)
                        // Four columns a group (the padded lanes repeat the chunk's last pixel).
                        for group in 0..<chunk.groups {
                            let (j, fx) = SmoothedLightMap.KnotColumns.group(
                                at: x + group * Lanes.scalarCount, last: last,
                                knots: knots, fractions: fractions)
                            (b0[group], b1[group]) = SmoothedLightMap.planes(knots: j, fractions: fx, in: column.baseAddress!,
                                                                             from: used.lowerBound)
                        }
                        run(chunk, b0: b0, b1: b1)
                    }
                }
            }
        }
    }

    /// Alone in its pass: the chunk form on each chunk of the row.
    func apply(row: UnsafeMutablePointer<Float>, count: Int, x0: Int, y: Int, imageSize: PixelSize) {
        RGBPlanes.forEachChunk(row: row, count: count) { chunk, start in apply(chunk, x: x0 + start, y: y, imageSize: imageSize) }
    }
}

/// The `SmoothedLightMap.KnotColumns` of each image width a kernel has been run on, made on first
/// use and shared by the threads that run the kernel's rows.
///
/// Why not a `Locked` dictionary alone: every chunk of 256 pixels asks, and the two workers met on
/// its lock, which on Linux the kernel then hands over (`rt_mutex_slowlock_block`, 2–3.5 % of a
/// Tone + Color + B&W render's samples, and a worker asleep meanwhile); each answer also retained
/// the two arrays, whose counts the two cores then passed back and forth. The first width's
/// columns (a render's only one) are copied into one allocation, published through an `Atomic`
/// as `TabulatedColourRun`'s table is (release on the store, acquire on the load), and read through
/// its address; any other width's are made under the lock (docs/benchmark.md, seventeenth part).
private final class KnotColumnCache: Sendable {
    /// The address of the first width's allocation: the width (an `Int`), then its knots (`Int32`s)
    /// and fractions (`Float`s); 0 until made.
    private let published = Atomic<UInt>(0)
    private let others = Locked<[Int: SmoothedLightMap.KnotColumns]>([:])

    /// `body` with the knots and fractions of each column of an image `width` wide.
    func withColumns<R>(width: Int, _ body: (UnsafePointer<Int32>, UnsafePointer<Float>) -> R) -> R {
        var bits = published.load(ordering: .acquiring)
        if bits == 0 {
            let made = Self.allocation(Self.make(width: width))
            let (exchanged, current) = published.compareExchange(expected: 0, desired: UInt(bitPattern: made),
                                                                 successOrdering: .releasing, failureOrdering: .acquiring)
            if exchanged { bits = UInt(bitPattern: made) } else { made.deallocate(); bits = current }
        }
        let base = UnsafeRawPointer(bitPattern: bits)!
        guard base.load(as: Int.self) == width else {
            let columns = others.withLock { others in
                if let columns = others[width] { return columns }
                let columns = Self.make(width: width)
                others[width] = columns
                return columns
            }
            return columns.knots.withUnsafeBufferPointer { knots in
                columns.fractions.withUnsafeBufferPointer { body(knots.baseAddress!, $0.baseAddress!) }
            }
        }
        let knots = (base + MemoryLayout<Int>.stride).assumingMemoryBound(to: Int32.self)
        return body(knots, UnsafeRawPointer(knots + width).assumingMemoryBound(to: Float.self))
    }

    private static func make(width: Int) -> SmoothedLightMap.KnotColumns {
        SmoothedLightMap.KnotColumns(centres: (0..<width).map { SmartToneKernel.centre($0, of: width) })
    }

    /// `columns` copied into one allocation laid out as `published` says.
    private static func allocation(_ columns: SmoothedLightMap.KnotColumns) -> UnsafeMutableRawPointer {
        let width = columns.knots.count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Int>.stride + width * 8,
                                                   alignment: MemoryLayout<Int>.alignment)
        raw.storeBytes(of: width, as: Int.self)
        let knots = (raw + MemoryLayout<Int>.stride).bindMemory(to: Int32.self, capacity: width)
        knots.initialize(from: columns.knots, count: width)
        UnsafeMutableRawPointer(knots + width).bindMemory(to: Float.self, capacity: width)
            .initialize(from: columns.fractions, count: width)
        return raw
    }

    deinit {
        let bits = published.load(ordering: .acquiring)
        if bits != 0 { UnsafeMutableRawPointer(bitPattern: bits)!.deallocate() }
    }
}

/// SmartTone's global stages (high-key, levels, highlights, contrast), which read the colour
/// alone: the whole model when there is no light map or no local stage to run, else the kernel
/// after `SmartToneKernel`'s.
private struct SmartToneGlobalKernel: PixelKernel, ChunkStep {
    let model: SmartToneModel
    let space: WorkingSpace

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        RGBPlanes.withPixel(&r, &g, &b) { run($0) }
    }

    func apply(row: UnsafeMutablePointer<Float>, count: Int) {
        RGBPlanes.forEachChunk(row: row, count: count) { chunk, _ in run(chunk) }
    }

    func apply(_ chunk: RGBPlanes, x: Int, y: Int, imageSize: PixelSize) { run(chunk) }

    private func run(_ chunk: RGBPlanes) {
        space.toLinear(chunk)
        model.global(chunk)
        space.fromLinear(chunk)
    }
}
