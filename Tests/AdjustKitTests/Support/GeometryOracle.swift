// GeometryOracle.swift — an independent, deliberately slow reference renderer for the geometry
// of a replayed edit (affine, crop, EXIF orientation), written only from
// docs/spec/geometry.md (§1, §2, §4) and docs/spec/xmp-format.md (§3).
//
// It imports nothing from the package (Foundation only) and shares no code with the renderer, so
// tests can use it to judge the renderer independently. Every output pixel is computed on its own,
// in Double, straight from the spec's formulas: no lookup tables, no fast paths.
//
// Frames used below (geometry.md §1):
// * stored raster: W × H, top-left origin, (u, v); pixel (i, j) covers [i, i+1) × [j, j+1).
// * CI frame: origin bottom-left, y up; x = u, y = H − v.

import Foundation

/// A plain 8-bit raster: row-major, top-left origin, interleaved channels (3 = RGB, 4 = RGBA with
/// unpremultiplied colour).
struct TestImage: Equatable {
    var width: Int
    var height: Int
    var channels: Int /* 3 or 4 */
    var pixels: [UInt8] /* row-major, top-left origin, interleaved */

    init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative size")
        precondition(channels == 3 || channels == 4, "channels must be 3 or 4")
        precondition(pixels.count == width * height * channels, "pixel count does not match size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// An image filled with zeros.
    init(width: Int, height: Int, channels: Int) {
        self.init(width: width, height: height, channels: channels,
                  pixels: [UInt8](repeating: 0, count: max(0, width) * max(0, height) * channels))
    }

    /// Channel `c` of pixel (x, y) (top-left raster).
    func value(_ x: Int, _ y: Int, _ c: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height && c >= 0 && c < channels)
        return pixels[(y * width + x) * channels + c]
    }

    /// All channels of pixel (x, y).
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        let base = (y * width + x) * channels
        return Array(pixels[base ..< base + channels])
    }

    mutating func setPixel(_ x: Int, _ y: Int, _ values: [UInt8]) {
        precondition(x >= 0 && x < width && y >= 0 && y < height && values.count == channels)
        let base = (y * width + x) * channels
        for c in 0 ..< channels { pixels[base + c] = values[c] }
    }
}

/// The geometry part of an edit chain: an optional CIAffineTransform followed by an optional
/// CICrop, both in Core Image's frame (origin bottom-left, y up), in stored-image pixels
/// (xmp-format.md §3: x′ = a·x + c·y + tx, y′ = b·x + d·y + ty; crop x, y, w, h after the affine).
struct OracleEdit {
    var affine: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)?
    var crop: (x: Double, y: Double, w: Double, h: Double)?

    /// Convenience: a pure translation followed by an optional crop.
    static func translation(_ tx: Double, _ ty: Double,
                            crop: (x: Double, y: Double, w: Double, h: Double)? = nil) -> OracleEdit {
        OracleEdit(affine: (a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty), crop: crop)
    }
}

enum GeometryOracle {

    // MARK: - Public entry points

    /// Full-resolution render of `edit` on the stored raster `stored` (RGB, channels 3; an RGBA
    /// stored image is also accepted, its alpha then weights the samples), then EXIF `orientation`
    /// (0...8; 0 or out of range → 1) applied. Output RGBA (channels 4), unpremultiplied colour,
    /// alpha = coverage. An empty surviving rectangle gives a 0 × 0 image (before orientation).
    static func render(stored: TestImage, orientation: Int, edit: OracleEdit, linearLight: Bool = false) -> TestImage {
        let H = Double(stored.height)
        // §1 Chain: T(p) = A·p + t, A = [[a, c], [b, d]]; no affine → identity.
        let T = affineOrIdentity(edit)
        // §1 Output extent: E_out = surviving rectangle, shrunk by 0.001, rounded outward.
        let e = outputExtent(storedWidth: stored.width, storedHeight: stored.height, edit: edit)
        // §1 Output raster: w × h = E_out size. Pixel (i, j) has CI centre
        //   q = (X0 + i + ½, Y0 + h − j − ½): spacing 1, i.e. the general rule below with s = 1.
        let raster = rasterize(source: stored,
                               sourceHeightInCIFrame: H,
                               affine: T,
                               crop: standardized(edit.crop),
                               spanX0: Double(e.x), spanY0: Double(e.y),
                               spanW: Double(e.w), spanH: Double(e.h),
                               outWidth: e.w, outHeight: e.h, linearLight: linearLight)
        // §1 Orientation is applied after the chain (0 or out of range = 1).
        return orient(raster, orientation)
    }

    /// Render from a reduced decode (geometry.md §2). `decoded` is the stored image decoded by the
    /// DCT at scale s = n/8 (size ⌈W·s⌉ × ⌈H·s⌉); `storedWidth/Height` are the full stored size
    /// W, H. Output w′ × h′ = (max(1, round(w·s)), max(1, round(h·s))) where w × h is the
    /// full-resolution E_out size, spanning exactly s·E_out. Then `orientation` is applied.
    static func renderReduced(decoded: TestImage, storedWidth: Int, storedHeight: Int,
                              scaleNumerator n: Int, orientation: Int, edit: OracleEdit,
                              linearLight: Bool = false) -> TestImage {
        precondition(n >= 1 && n <= 16, "scale numerator must be 1...16")
        // §2: decoded size W′ = ⌈W·s⌉, H′ = ⌈H·s⌉ (TJSCALED rounds up) — exact integer arithmetic.
        precondition(decoded.width == (storedWidth * n + 7) / 8 && decoded.height == (storedHeight * n + 7) / 8,
                     "decoded size \(decoded.width)×\(decoded.height) is not ⌈W·n/8⌉×⌈H·n/8⌉ for W×H = \(storedWidth)×\(storedHeight), n = \(n)")
        // §2: s = n/8.
        let s = Double(n) / 8.0
        let H = Double(storedHeight)
        let Hp = Double(decoded.height)  // H′
        // §2: y′ = s·y + δ with δ = H′ − s·H (0 ≤ δ < 1 for a real TJSCALED decode).
        let delta = Hp - s * H

        // The full-resolution chain and its output extent (§1).
        let T = affineOrIdentity(edit)
        let e = outputExtent(storedWidth: storedWidth, storedHeight: storedHeight, edit: edit)

        // §2 rescaled chain. Derivation (reduced source point p′ = s·p + (0, δ); output scaled by
        // s about the chain's own frame, q′ = s·q):
        //   q′ = s·(A·p + t) = A·(s·p) + s·t = A·(p′ − (0, δ)) + s·t = A·p′ + (s·t − A·(0, δ)).
        // So A′ = A and t′ = s·t − A·(0, δ) = (s·tx − c·δ, s·ty − d·δ).
        let Tp = (a: T.a, b: T.b, c: T.c, d: T.d,
                  tx: s * T.tx - T.c * delta,
                  ty: s * T.ty - T.d * delta)
        // §2: crop R′ = s·R (all four numbers, no early rounding).
        var Rp: (x: Double, y: Double, w: Double, h: Double)? = nil
        if let R = standardized(edit.crop) {
            Rp = (x: s * R.x, y: s * R.y, w: s * R.w, h: s * R.h)
        }
        // §2: output w′ × h′ = (max(1, round(w·s)), max(1, round(h·s))) — never rounded outward
        // into an extra column (2001 px at 1/4 is 500, not 501). Empty E_out stays empty.
        let outW = e.w == 0 ? 0 : max(1, Int((Double(e.w) * s).rounded()))
        let outH = e.h == 0 ? 0 : max(1, Int((Double(e.h) * s).rounded()))
        // §2: the output spans exactly s·E_out = (s·X0, s·Y0, s·w, s·h); pixel (i, j) has centre
        //   q′ = (s·X0 + (i + ½)·s·w/w′, s·Y0 + s·h − (j + ½)·s·h/h′).
        let raster = rasterize(source: decoded,
                               sourceHeightInCIFrame: Hp,
                               affine: Tp,
                               crop: Rp,
                               spanX0: s * Double(e.x), spanY0: s * Double(e.y),
                               spanW: s * Double(e.w), spanH: s * Double(e.h),
                               outWidth: outW, outHeight: outH, linearLight: linearLight)
        // §1: orientation after the chain.
        return orient(raster, orientation)
    }

    /// The output extent E_out (x, y, w, h in the CI frame, integers) of the full-resolution render.
    /// An empty surviving rectangle gives w = 0 and/or h = 0.
    static func outputExtent(storedWidth: Int, storedHeight: Int,
                             edit: OracleEdit) -> (x: Int, y: Int, w: Int, h: Int) {
        let W = Double(storedWidth), H = Double(storedHeight)
        let T = affineOrIdentity(edit)
        // §1: the stored image's CI extent is (0, 0, W, H); after T the current extent is the
        // bounding box of T applied to that rectangle (its four corners).
        let corners = [(0.0, 0.0), (W, 0.0), (0.0, H), (W, H)].map { p in
            (T.a * p.0 + T.c * p.1 + T.tx, T.b * p.0 + T.d * p.1 + T.ty)
        }
        var minX = corners.map { $0.0 }.min()!, maxX = corners.map { $0.0 }.max()!
        var minY = corners.map { $0.1 }.min()!, maxY = corners.map { $0.1 }.max()!
        // §1: the crop keeps R ∩ (current extent); no crop → the bounding box itself.
        if let R = standardized(edit.crop) {
            minX = max(minX, R.x); maxX = min(maxX, R.x + R.w)
            minY = max(minY, R.y); maxY = min(maxY, R.y + R.h)
        }
        if !(maxX > minX) || !(maxY > minY) {
            return (x: Int(minX.isFinite ? floor(minX) : 0), y: Int(minY.isFinite ? floor(minY) : 0),
                    w: 0, h: 0)
        }
        // §1: "rounded outward to whole pixels after shrinking it by 0.001 on each side".
        let x0 = floor(minX + 0.001), x1 = ceil(maxX - 0.001)
        let y0 = floor(minY + 0.001), y1 = ceil(maxY - 0.001)
        return (x: Int(x0), y: Int(y0), w: max(0, Int(x1 - x0)), h: max(0, Int(y1 - y0)))
    }

    /// Apply EXIF orientation (geometry.md §4) to a w × h raster. 0 or out of range = 1.
    /// For each destination pixel (x, y) the source pixel is read from the table below
    /// (w, h = source size; 5–8 give an h × w result).
    static func orient(_ image: TestImage, _ orientation: Int) -> TestImage {
        let w = image.width, h = image.height
        let o = (1...8).contains(orientation) ? orientation : 1
        let swaps = o >= 5
        let outW = swaps ? h : w, outH = swaps ? w : h
        var out = TestImage(width: outW, height: outH, channels: image.channels)
        for y in 0 ..< outH {
            for x in 0 ..< outW {
                let src: (Int, Int)
                switch o {
                case 1: src = (x, y)                     // identity
                case 2: src = (w - 1 - x, y)             // mirror horizontally
                case 3: src = (w - 1 - x, h - 1 - y)     // rotate 180°
                case 4: src = (x, h - 1 - y)             // mirror vertically
                case 5: src = (y, x)                     // transpose (top-left/bottom-right diagonal)
                case 6: src = (y, h - 1 - x)             // rotate 90° clockwise: source bottom-left → top-left
                case 7: src = (w - 1 - y, h - 1 - x)     // transverse (top-right/bottom-left diagonal)
                default: src = (w - 1 - y, x)            // 8: rotate 90° counter-clockwise: source top-right → top-left
                }
                for c in 0 ..< image.channels {
                    out.pixels[(y * outW + x) * image.channels + c] =
                        image.pixels[(src.1 * w + src.0) * image.channels + c]
                }
            }
        }
        return out
    }

    // MARK: - The per-pixel core (shared by render and renderReduced of this file only)

    private typealias Affine = (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
    private typealias Rect = (x: Double, y: Double, w: Double, h: Double)

    private static func affineOrIdentity(_ edit: OracleEdit) -> Affine {
        // §1 / xmp-format §3: no CIAffineTransform → identity.
        edit.affine ?? (a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    }

    /// CGRect-style standardisation (a negative width or height flips the origin).
    private static func standardized(_ r: Rect?) -> Rect? {
        guard var r = r else { return nil }
        if r.w < 0 { r.x += r.w; r.w = -r.w }
        if r.h < 0 { r.y += r.h; r.h = -r.h }
        return r
    }

    /// Renders an `outWidth × outHeight` RGBA raster spanning the CI-frame rectangle
    /// (spanX0, spanY0, spanW, spanH) of the chain's output frame, sampling `source` through the
    /// inverse of `affine`, and weighting alpha by the pixel footprint's coverage by `crop`.
    private static func rasterize(source: TestImage, sourceHeightInCIFrame Hsrc: Double,
                                  affine T: Affine, crop: Rect?,
                                  spanX0: Double, spanY0: Double, spanW: Double, spanH: Double,
                                  outWidth: Int, outHeight: Int, linearLight: Bool) -> TestImage {
        var out = TestImage(width: outWidth, height: outHeight, channels: 4)
        if outWidth == 0 || outHeight == 0 { return out }
        // Output pixel pitch in the CI frame: 1 at full resolution, s·w/w′ and s·h/h′ reduced.
        let pitchX = spanW / Double(outWidth)
        let pitchY = spanH / Double(outHeight)
        // T⁻¹(q) = A⁻¹·(q − t), A⁻¹ = (1/det)·[[d, −c], [−b, a]].
        let det = T.a * T.d - T.b * T.c
        for j in 0 ..< outHeight {
            for i in 0 ..< outWidth {
                // §1 / §2: CI centre of output pixel (i, j):
                //   q = (X0 + (i + ½)·pitchX, Y0 + h − (j + ½)·pitchY).
                let qx = spanX0 + (Double(i) + 0.5) * pitchX
                let qy = spanY0 + spanH - (Double(j) + 0.5) * pitchY

                var colour = (0.0, 0.0, 0.0)
                var alpha = 0.0
                if det != 0 {
                    // §1: source point p = T⁻¹(q).
                    let dx = qx - T.tx, dy = qy - T.ty
                    let px = (T.d * dx - T.c * dy) / det
                    let py = (-T.b * dx + T.a * dy) / det
                    // §1: raster position (u, v) = (p.x, H − p.y).
                    let u = px
                    let v = Hsrc - py
                    // §1: bilinear with texel centres at integer + ½; outside = transparent;
                    // interpolate premultiplied, then unpremultiply.
                    let sample = bilinearPremultiplied(source, u, v, linearLight: linearLight)
                    alpha = sample.alpha
                    if alpha > 0 {
                        colour = (sample.r / alpha, sample.g / alpha, sample.b / alpha)
                        // filters.md §0, linear working space: back to encoded values.
                        if linearLight { colour = (srgbEncode255(colour.0), srgbEncode255(colour.1), srgbEncode255(colour.2)) }
                    }
                }
                // §1 "Fractional crop edges": alpha × fraction of the output pixel's square
                // footprint (pitchX × pitchY around q, CI frame) covered by the crop rectangle.
                if let R = crop {
                    let fx0 = qx - pitchX / 2, fx1 = qx + pitchX / 2
                    let fy0 = qy - pitchY / 2, fy1 = qy + pitchY / 2
                    let ox = max(0, min(fx1, R.x + R.w) - max(fx0, R.x))
                    let oy = max(0, min(fy1, R.y + R.h) - max(fy0, R.y))
                    let coverage = (ox * oy) / (pitchX * pitchY)
                    alpha *= coverage
                }
                // Output 8-bit: round-half-up of clamp(v, 0, 1)·255 (colour is kept in the 0…255
                // byte domain, which is the same number without a /255·255 round trip).
                let a8 = roundHalfUp(min(max(alpha, 0), 1) * 255)
                let k = (j * outWidth + i) * 4
                if a8 == 0 {
                    // Alpha rounds to 0 → colour 0 (the output starts as all zeros).
                    continue
                }
                out.pixels[k] = roundHalfUp(min(max(colour.0, 0), 255))
                out.pixels[k + 1] = roundHalfUp(min(max(colour.1, 0), 255))
                out.pixels[k + 2] = roundHalfUp(min(max(colour.2, 0), 255))
                out.pixels[k + 3] = a8
            }
        }
        return out
    }

    /// Bilinear sample of `image` at raster position (u, v) (top-left origin), texel centres at
    /// integer + ½. Returns premultiplied colour in 0…255 units (Σ w·α·c) and alpha in 0…1 (Σ w·α);
    /// texels outside the image are transparent (contribute nothing). RGB texels have α = 1.
    /// With `linearLight` the texels are decoded with the sRGB curve first (filters.md §0: the
    /// linear working space interpolates linear light).
    private static func bilinearPremultiplied(_ image: TestImage, _ u: Double, _ v: Double, linearLight: Bool)
        -> (r: Double, g: Double, b: Double, alpha: Double) {
        func texel(_ byte: UInt8) -> Double { linearLight ? srgbDecode255(Double(byte)) : Double(byte) }
        // Texel (i, j) has its centre at (i + ½, j + ½).
        let fx = u - 0.5, fy = v - 0.5
        let i0 = Int(floor(fx)), j0 = Int(floor(fy))
        let ax = fx - floor(fx), ay = fy - floor(fy)
        var r = 0.0, g = 0.0, b = 0.0, alpha = 0.0
        // The four neighbouring texels (i0 + di, j0 + dj), weights (1 − ax or ax)·(1 − ay or ay).
        for dj in 0 ... 1 {
            for di in 0 ... 1 {
                let ti = i0 + di, tj = j0 + dj
                let w = (di == 0 ? 1 - ax : ax) * (dj == 0 ? 1 - ay : ay)
                // Outside the stored raster → transparent texel (0, 0, 0, 0): contributes nothing.
                if ti < 0 || tj < 0 || ti >= image.width || tj >= image.height { continue }
                if w == 0 { continue }
                let k = (tj * image.width + ti) * image.channels
                let texAlpha = image.channels == 4 ? Double(image.pixels[k + 3]) / 255 : 1.0
                r += w * texAlpha * texel(image.pixels[k])
                g += w * texAlpha * texel(image.pixels[k + 1])
                b += w * texAlpha * texel(image.pixels[k + 2])
                alpha += w * texAlpha
            }
        }
        return (r, g, b, alpha)
    }

    /// filters.md §0's sRGB curves, on values in 0…255 units.
    private static func srgbDecode255(_ x: Double) -> Double {
        let v = x / 255
        return 255 * (v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4))
    }

    private static func srgbEncode255(_ x: Double) -> Double {
        let l = x / 255
        return 255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055)
    }

    /// Round half up to an 8-bit value: ⌊x + ½⌋ (x already clamped to 0…255).
    private static func roundHalfUp(_ x: Double) -> UInt8 {
        UInt8(floor(x + 0.5))
    }
}
