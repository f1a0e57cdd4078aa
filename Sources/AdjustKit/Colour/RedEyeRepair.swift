import Foundation

/// `CIRedEyeCorrections` rendering — **approximate** (filters.md §5: Apple's repair engine is not
/// public). What is exact is the footprint: a correction only ever writes pixels inside its repair
/// area, and inside that area only the pixels its (feathered) mask reaches; every other float of
/// the image stays bit-identical.
///
/// The approximation, per classic correction, in order:
///
/// 1. **Repair area** (`repairArea`): the `rr` rectangle (short naming, "minY maxY minX maxX",
///    top-left raster pixels of the `width` × `height` frame, the project's documented choice in
///    `RedEyeCorrection.pixelAxes`), read as a continuous rectangle and rounded outward to whole
///    pixels with a 0.001 tolerance (as `Rect.integralExtent`). Without a usable `rr` — and always
///    for long naming, which has no known repair-rectangle name — a square around the point:
///    centre (pointX·W, (1 − pointY)·H) (p is normalised, y up), half-side size·max(W, H)/2.
///    Both are mapped onto the image by the ratio image size / frame (a reduced decode), then
///    clipped to the image. No area → the correction is skipped with a warning.
/// 2. **Redness** on sRGB-encoded values clamped to [0, 1] (working → encoded with `space`):
///    `redness = (r − max(g, b)) / (r + 0.05)`, i.e. the red excess relative to the red level
///    (1 for pure red, ≤ 0 for neutral or green/blue pixels; the 0.05 keeps near-black noise from
///    counting as red). Soft mask = smoothstep(T − 0.1, T + 0.1, redness), T the threshold.
/// 3. **Threshold T**: the bitmask threshold (`b` third number / `bitmaskThreshold`) when it is
///    sensible — a value in (1, 255] is read as 8-bit and divided by 255, and the result is used
///    only if it lies in [0.2, 0.8]; otherwise the default 0.5 (skin sits near 0.2–0.35, red pupils
///    at 0.6–0.9).
/// 4. **Region**: the 8-connected component, among pixels with a non-zero soft mask, that contains
///    the seed. Seed: the reddest pixel within 2 px of the snapped point (`s` / snappedX snappedY,
///    frame pixels mapped by the ratio) when that point lies in the area and that pixel is red;
///    otherwise the reddest pixel within max(2, min(area w, h)/4) px of the point `p` (or of the
///    area's centre when p is missing or outside the area). No red seed → nothing changes.
/// 5. **Feather**: a 3 × 3 box blur of the region mask (the soft mask inside the region, 0
///    elsewhere), averaging only over neighbours inside the area (~1 px feather).
/// 6. **Corneal highlight**: pixels whose original luma is above 0.85 get mask 0 (left alone).
/// 7. **Repair**: neutral dark grey of value luma × k, luma = Rec.601 (0.299, 0.587, 0.114) of the
///    encoded original, k = pupilShadeAverage (`ps` fourth number / `pupilShadeAverage`; a value in
///    (1, 255] is read as 8-bit) when in [0.02, 1], else 0.3. The encoded result is
///    original·(1 − m) + grey·m with m the feathered mask, converted back to working space; pixels
///    with m = 0 are not written at all.
///
/// Convex-hull corrections (`hb`) are left untouched with a warning (xmp-format.md §5).
struct RedEyeRepair: RegionKernel {
    /// The edit's corrections, in the frame of the image the kernel is applied to.
    let corrections: RedEyeCorrections

    /// Each renderable correction is one piece, on its repair area.
    func work(imageSize: PixelSize) -> RegionWork {
        let (repairs, warnings) = Self.plan(corrections, imageSize: imageSize)
        let frame = (corrections.width, corrections.height)
        return RegionWork(pieces: repairs.map { correction, area in
            RegionWork.Piece(area: PixelRect(x: area.x0, y: area.y0, width: area.x1 - area.x0, height: area.y1 - area.y0)) {
                Self.repair(correction, area: area, frame: frame, pixels: $0, space: $1)
            }
        }, warnings: warnings)
    }

    static let defaultThreshold: Float = 0.5
    static let thresholdBand: Float = 0.1
    static let sensibleThresholds: ClosedRange<Double> = 0.2...0.8
    static let rednessFloor: Float = 0.05
    static let defaultShade: Float = 0.3
    static let sensibleShades: ClosedRange<Double> = 0.02...1
    static let highlightLuma: Float = 0.85
    static let snapSearchRadius = 2
    /// Tolerance of the outward rounding to whole pixels (as `Rect.integralExtent`).
    static let edgeTolerance = 0.001

    /// Repairs each classic correction's pupil in `image` (the stored frame, working-space values of
    /// `space`); the image may be a reduced decode: the corrections' width × height frame is mapped
    /// onto image.size by the ratio. Convex-hull corrections and corrections without a usable
    /// location are left untouched, each with a warning string (returned). Pixels outside each
    /// correction's repair area are never written (bit-identical).
    static func apply(_ redEye: RedEyeCorrections, to image: inout RGBFloatImage, space: WorkingSpace) -> [String] {
        let size = image.size
        return image.pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let pixels = StoredPixels(size: size, columnOffset: 0) { base + $0 * size.width * 3 }
            return apply(redEye, to: pixels, space: space)
        }
    }

    /// As above, on a view of the stored image that holds at least every repair area (the
    /// streaming renderer's window of working rows).
    static func apply(_ redEye: RedEyeCorrections, to pixels: StoredPixels, space: WorkingSpace) -> [String] {
        let (repairs, warnings) = plan(redEye, imageSize: pixels.size)
        for (correction, area) in repairs {
            repair(correction, area: area, frame: (redEye.width, redEye.height), pixels: pixels, space: space)
        }
        return warnings
    }

    /// The corrections repaired in a stored image of `size`, in order, each with its repair
    /// area; and a warning for each of the others (convex-hull, or no usable area).
    static func plan(_ redEye: RedEyeCorrections, imageSize size: PixelSize)
        -> (repairs: [(RedEyeCorrection, Area)], warnings: [String]) {
        var repairs: [(RedEyeCorrection, Area)] = [], warnings: [String] = []
        for (index, correction) in redEye.corrections.enumerated() {
            let label = "CIRedEyeCorrections correction \(index + 1)"
            if correction.variant == .convexHull {
                warnings.append("\(label): convex-hull variant (hb) is not supported; left unchanged")
                continue
            }
            guard let area = repairArea(of: correction, frame: (redEye.width, redEye.height), imageSize: size) else {
                warnings.append("\(label): no repair area inside the image (needs rr, or p with a size); left unchanged")
                continue
            }
            repairs.append((correction, area))
        }
        return (repairs, warnings)
    }

    /// The raster rectangles a correction may change (for tests and for inspect): x0, y0, x1, y1
    /// half-open, clipped to the image; nil when there is no usable location or nothing of it lies
    /// in the image.
    static func repairArea(of correction: RedEyeCorrection, frame: (width: Double, height: Double),
                           imageSize: PixelSize) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard frame.width.isFinite, frame.height.isFinite, frame.width > 0, frame.height > 0,
              imageSize.width > 0, imageSize.height > 0 else { return nil }
        let sx = Double(imageSize.width) / frame.width, sy = Double(imageSize.height) / frame.height
        let fields = Fields(correction)
        let edges: (minX: Double, maxX: Double, minY: Double, maxY: Double)
        if let rr = fields.repairRectangle {
            edges = (rr.minX, rr.maxX, rr.minY, rr.maxY)
        } else if let p = fields.point, let size = p.size, size > 0 {
            let cx = p.x * frame.width, cy = (1 - p.y) * frame.height
            let half = size * max(frame.width, frame.height) / 2
            edges = (cx - half, cx + half, cy - half, cy + half)
        } else {
            return nil
        }
        guard let xs = span(edges.minX * sx, edges.maxX * sx, limit: imageSize.width),
              let ys = span(edges.minY * sy, edges.maxY * sy, limit: imageSize.height) else { return nil }
        return (xs.lo, ys.lo, xs.hi, ys.hi)
    }

    /// [a, b] (either order) rounded outward to whole pixels, clipped to [0, limit); nil if empty.
    private static func span(_ a: Double, _ b: Double, limit: Int) -> (lo: Int, hi: Int)? {
        guard a.isFinite, b.isFinite else { return nil }
        let top = Double(limit)
        let lo = min(max((min(a, b) + edgeTolerance).rounded(.down), 0), top)
        let hi = min(max((max(a, b) - edgeTolerance).rounded(.up), 0), top)
        guard hi > lo else { return nil }
        return (Int(lo), Int(hi))
    }

    // MARK: - The repair

    typealias Area = (x0: Int, y0: Int, x1: Int, y1: Int)

    /// The area's pixels as the repair sees them: encoded originals (unclamped, for the blend),
    /// and luma and redness of the clamped values.
    private struct Measures {
        let w: Int, h: Int
        var encoded: [Float], luma: [Float], redness: [Float]

        init(area: Area, pixels: StoredPixels, space: WorkingSpace) {
            (w, h) = (area.x1 - area.x0, area.y1 - area.y0)
            encoded = [Float](repeating: 0, count: w * h * 3)
            luma = [Float](repeating: 0, count: w * h)
            redness = [Float](repeating: 0, count: w * h)
            for ly in 0..<h {
                let row = pixels.pixel(x: area.x0, y: area.y0 + ly)
                for lx in 0..<w {
                    let i = ly * w + lx, p = row + lx * 3
                    let r = space.encoded(p[0]), g = space.encoded(p[1]), b = space.encoded(p[2])
                    (encoded[3 * i], encoded[3 * i + 1], encoded[3 * i + 2]) = (r, g, b)
                    let rc = clamp01(r), gc = clamp01(g), bc = clamp01(b)
                    luma[i] = 0.299 * rc + 0.587 * gc + 0.114 * bc
                    let red = (rc - max(gc, bc)) / (rc + rednessFloor)
                    redness[i] = red.isFinite ? red : 0
                }
            }
        }
    }

    private static func repair(_ correction: RedEyeCorrection, area: Area, frame: (width: Double, height: Double),
                               pixels: StoredPixels, space: WorkingSpace) {
        let fields = Fields(correction)
        let measures = Measures(area: area, pixels: pixels, space: space)
        let threshold = rednessThreshold(fields.bitmaskThreshold)
        let soft = measures.redness.map { smoothstep(threshold - thresholdBand, threshold + thresholdBand, $0) }
        let scale = (x: Double(pixels.size.width) / frame.width, y: Double(pixels.size.height) / frame.height)
        guard let seed = seed(fields, area: area, frame: frame, scale: scale, measures: measures, soft: soft) else { return }
        let mask = region(from: seed, soft: soft, w: measures.w, h: measures.h)
        blend(mask, measures: measures, shade: pupilShade(fields.pupilShadeAverage), area: area, pixels: pixels, space: space)
    }

    /// The reddest pixel near the snapped point when it finds red there, else near `p` (or the
    /// area's centre); nil when there is no red seed. An index into the area.
    private static func seed(_ fields: Fields, area: Area, frame: (width: Double, height: Double),
                             scale: (x: Double, y: Double), measures: Measures, soft: [Float]) -> Int? {
        let (w, h) = (measures.w, measures.h)
        func local(_ x: Double, _ y: Double) -> (x: Int, y: Int)? {
            guard x.isFinite, y.isFinite else { return nil }
            let ix = x.rounded(.down), iy = y.rounded(.down)
            guard ix >= Double(area.x0), ix < Double(area.x1), iy >= Double(area.y0), iy < Double(area.y1)
            else { return nil }
            return (Int(ix) - area.x0, Int(iy) - area.y0)
        }
        func reddest(around c: (x: Int, y: Int), radius: Int) -> Int? {
            var best: Int?, bestRedness = -Float.infinity
            for ly in max(0, c.y - radius)...min(h - 1, c.y + radius) {
                for lx in max(0, c.x - radius)...min(w - 1, c.x + radius) where measures.redness[ly * w + lx] > bestRedness {
                    (best, bestRedness) = (ly * w + lx, measures.redness[ly * w + lx])
                }
            }
            guard let best, soft[best] > 0 else { return nil }
            return best
        }
        if let s = fields.snapped, let c = local(s.x * scale.x, s.y * scale.y),
           let found = reddest(around: c, radius: snapSearchRadius) {
            return found
        }
        let pointCentre = fields.point.flatMap { local($0.x * frame.width * scale.x, (1 - $0.y) * frame.height * scale.y) }
        let centre = pointCentre ?? ((w - 1) / 2, (h - 1) / 2)
        return reddest(around: centre, radius: max(snapSearchRadius, min(w, h) / 4))
    }

    /// The 8-connected component of non-zero soft mask that holds `seed`, with its soft values.
    private static func region(from seed: Int, soft: [Float], w: Int, h: Int) -> [Float] {
        var mask = [Float](repeating: 0, count: w * h)
        var visited = [Bool](repeating: false, count: w * h)
        var stack = [seed]
        visited[seed] = true
        while let i = stack.popLast() {
            mask[i] = soft[i]
            let cx = i % w, cy = i / w
            for ny in max(0, cy - 1)...min(h - 1, cy + 1) {
                for nx in max(0, cx - 1)...min(w - 1, cx + 1) {
                    let j = ny * w + nx
                    if !visited[j] && soft[j] > 0 { visited[j] = true; stack.append(j) }
                }
            }
        }
        return mask
    }

    /// Feathers the mask (3 × 3 box within the area), leaves the corneal highlight alone and
    /// blends towards the dark grey pupil, writing back only pixels the feathered mask reaches.
    private static func blend(_ mask: [Float], measures: Measures, shade: Float, area: Area,
                              pixels: StoredPixels, space: WorkingSpace) {
        let (w, h) = (measures.w, measures.h)
        for ly in 0..<h {
            let row = pixels.pixel(x: area.x0, y: area.y0 + ly)
            for lx in 0..<w {
                let i = ly * w + lx
                guard measures.luma[i] <= highlightLuma else { continue }
                var sum: Float = 0, count: Float = 0
                for ny in max(0, ly - 1)...min(h - 1, ly + 1) {
                    for nx in max(0, lx - 1)...min(w - 1, lx + 1) { sum += mask[ny * w + nx]; count += 1 }
                }
                let m = sum / count
                guard m > 0 else { continue }
                let grey = measures.luma[i] * shade
                for c in 0..<3 {
                    let e = measures.encoded[3 * i + c]
                    row[lx * 3 + c] = space.working(fromEncoded: e + (grey - e) * m)
                }
            }
        }
    }

    static func rednessThreshold(_ raw: Double?) -> Float {
        guard var t = raw, t.isFinite else { return defaultThreshold }
        if t > 1, t <= 255 { t /= 255 }
        return sensibleThresholds.contains(t) ? Float(t) : defaultThreshold
    }

    static func pupilShade(_ raw: Double?) -> Float {
        guard var s = raw, s.isFinite else { return defaultShade }
        if s > 1, s <= 255 { s /= 255 }
        return sensibleShades.contains(s) ? Float(s) : defaultShade
    }

    @inline(__always) private static func clamp01(_ v: Float) -> Float { min(max(v, 0), 1) }

    @inline(__always) private static func smoothstep(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
        let t = clamp01((x - e0) / (e1 - e0))
        return t * t * (3 - 2 * t)
    }

    // MARK: - Field access for both namings

    /// The numbers the repair reads, from short (`p`, `s`, `b`, `ps`, `rr`) or long (`pointX`,
    /// `pointY`, `size`, `snappedX`, `snappedY`, `bitmaskThreshold`, `pupilShadeAverage`) fields.
    /// Missing or malformed values read as nil.
    private struct Fields {
        var point: (x: Double, y: Double, size: Double?)?
        var snapped: (x: Double, y: Double)?
        var bitmaskThreshold: Double?
        var pupilShadeAverage: Double?
        var repairRectangle: (minY: Double, maxY: Double, minX: Double, maxX: Double)?

        init(_ correction: RedEyeCorrection) {
            let f = correction.fields
            func numbers(_ key: String) -> [Double]? {
                guard let text = f[key] else { return nil }
                let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                let values = parts.compactMap { Double($0) }
                guard values.count == parts.count, values.allSatisfy(\.isFinite) else { return nil }
                return values
            }
            func number(_ key: String) -> Double? {
                guard let v = numbers(key), v.count == 1 else { return nil }
                return v[0]
            }
            switch correction.naming {
            case .short:
                if let p = numbers("p"), p.count >= 2 { point = (p[0], p[1], p.count >= 3 ? p[2] : nil) }
                if let s = numbers("s"), s.count >= 2 { snapped = (s[0], s[1]) }
                if let b = numbers("b"), b.count >= 3 { bitmaskThreshold = b[2] }
                if let ps = numbers("ps"), ps.count >= 4 { pupilShadeAverage = ps[3] }
                if let rr = numbers("rr"), rr.count == 4 { repairRectangle = (rr[0], rr[1], rr[2], rr[3]) }
            case .long:
                if let x = number("pointX"), let y = number("pointY") { point = (x, y, number("size")) }
                if let x = number("snappedX"), let y = number("snappedY") { snapped = (x, y) }
                bitmaskThreshold = number("bitmaskThreshold")
                pupilShadeAverage = number("pupilShadeAverage")
            }
        }
    }
}

/// The stored image's working-space RGB as the repair reads and writes it: the whole image, or a
/// window of its rows and columns that holds every repair area.
struct StoredPixels {
    /// The whole stored image's size (the repair areas are placed in it).
    let size: PixelSize
    /// The image column of each row's first pixel.
    let columnOffset: Int
    /// The first pixel of image row y.
    let row: (Int) -> UnsafeMutablePointer<Float>

    /// Pixel (x, y) of the image.
    @inline(__always)
    func pixel(x: Int, y: Int) -> UnsafeMutablePointer<Float> { row(y) + (x - columnOffset) * 3 }
}
