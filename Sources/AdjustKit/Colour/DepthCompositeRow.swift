/// One row of DepthEffect's per-pixel step (`LayeredDepthBlur`, step 3): the behind layers, the
/// pixel's sharp share, the front layers over both, divided by the coverage reached, then the
/// grain where the pixel was blurred.
///
/// Four pixels at a time in the linear space (`Lanes`, one lane a pixel), the last few and the
/// sRGB space a pixel at a time (`pixel`). Why four: a pixel's arithmetic is one long chain (its
/// depth's share, the blend, a division, the grain's square roots), so the processor overlaps
/// little of it across pixels; four pixels a chain share its instructions. Each lane does the
/// operations `pixel` does, in its order and precision, and picks between the same branches
/// (selects instead of jumps), so the two give the same bits (`PortraitDepthTests`).
struct DepthCompositeRow {
    /// The row's input and output pixels (RGB, indexed by the run's column), and each column's
    /// sharp share and grain amount (indexed from the run's first column).
    let source: UnsafePointer<Float>, target: UnsafeMutablePointer<Float>
    let sharp: UnsafePointer<Float>, grainAmount: UnsafePointer<Float>
    /// The grain's column sums (`DepthBlurGrain.columnSums`), one more than the columns.
    let grainColumns: UnsafePointer<Float>
    /// The behind and front planes' row (light and coverage, four floats a cell), blended down
    /// to this row; nil where no layer is there.
    let behind: UnsafePointer<Float>?, front: UnsafePointer<Float>?
    /// Each column's two cells (offsets into a plane's row) and its weight toward the second.
    let taps: UnsafeBufferPointer<(Int32, Int32, Float)>
    let space: WorkingSpace

    /// Composites the run's columns `columns` (image columns less the input's offset).
    func run(columns: Range<Int>) {
        var x = columns.lowerBound
        if space == .linear {
            while x + Lanes.scalarCount <= columns.upperBound {
                four(x, j: x - columns.lowerBound)
                x += Lanes.scalarCount
            }
        }
        while x < columns.upperBound {
            pixel(x, j: x - columns.lowerBound)
            x += 1
        }
    }

    /// A plane's light and coverage at column j, the four channels at once.
    @inline(__always)
    private func read(_ plane: UnsafePointer<Float>, _ j: Int) -> SIMD4<Float> {
        let (c0, c1, f) = taps[j]
        let (left, right) = (UnsafeRawPointer(plane + Int(c0)).loadUnaligned(as: SIMD4<Float>.self),
                             UnsafeRawPointer(plane + Int(c1)).loadUnaligned(as: SIMD4<Float>.self))
        return left + (right - left) * f
    }

    @inline(__always)
    private func pixel(_ x: Int, j: Int) {
        let (p, o) = (source + x * 3, target + x * 3)
        let (sharp, amount) = (self.sharp[j], grainAmount[j])
        let inFront = front.map { read($0, j) } ?? .zero
        if sharp >= 1, inFront[3] <= 0 {
            o[0] = p[0]; o[1] = p[1]; o[2] = p[2]
            return
        }
        let s = SIMD4<Float>(Self.linear(p[0], space), Self.linear(p[1], space), Self.linear(p[2], space), 1)
        // Light and coverage (the 4th channel): the sharp share over the behind layers, then the
        // front layers over both; divided by the coverage reached.
        var sum = sharp * s + (1 - sharp) * (behind.map { read($0, j) } ?? .zero)
        sum = inFront + (1 - inFront[3]) * sum
        let colour = sum[3] > 1e-5 ? sum * (1 / sum[3]) : s
        let grain = amount > 0 ? (grainColumns[j] + grainColumns[j + 1]) * 0.5 * amount : 0
        let (r, g, b) = (colour[0], colour[1], colour[2])
        guard grain != 0 else {
            if space == .linear { o[0] = r; o[1] = g; o[2] = b } else {
                o[0] = SRGBTransfer.encode(r); o[1] = SRGBTransfer.encode(g); o[2] = SRGBTransfer.encode(b)
            }
            return
        }
        let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
        if space == .linear {
            // One square root for the three slopes and σ: √r, √g, √b, √Y.
            var v = SIMD4(r, g, b, luminance)
            v.replace(with: 0, where: v .< 0)
            let roots = v.squareRoot()
            let grained = colour + DepthBlurGrain.sigma(root: roots[3]) * grain * DepthBlurGrain.slope(roots: roots)
            o[0] = grained[0]; o[1] = grained[1]; o[2] = grained[2]
        } else {
            let level = DepthBlurGrain.sigma(luminance: luminance) * grain
            o[0] = SRGBTransfer.encode(r) + level; o[1] = SRGBTransfer.encode(g) + level
            o[2] = SRGBTransfer.encode(b) + level
        }
    }

    /// `pixel` on columns x… x + 3 of the linear space, a lane a pixel.
    @inline(__always)
    private func four(_ x: Int, j: Int) {
        let (p, o) = (source + x * 3, target + x * 3)
        let sharp = UnsafeRawPointer(self.sharp + j).loadUnaligned(as: Lanes.self)
        let amount = UnsafeRawPointer(grainAmount + j).loadUnaligned(as: Lanes.self)
        let zero = (Lanes(), Lanes(), Lanes(), Lanes())
        let (fr, fg, fb, fc) = front.map { channels($0, j) } ?? zero
        let copy = (sharp .>= 1) .& (fc .<= 0)
        if all(copy) {
            UnsafeMutableRawPointer(o).copyMemory(from: p, byteCount: 12 * MemoryLayout<Float>.size)
            return
        }
        let (pr, pg, pb) = RGBPlanes.split(UnsafeMutablePointer(mutating: p))
        let (sr, sg, sb) = (Self.linear(pr), Self.linear(pg), Self.linear(pb))
        let (br, bg, bb, bc) = behind.map { channels($0, j) } ?? zero
        let keep = 1 - sharp
        // The pixel's own coverage is 1 (`pixel`'s s[3]).
        var (ur, ug, ub, uc) = (sharp * sr + keep * br, sharp * sg + keep * bg, sharp * sb + keep * bb, sharp * 1 + keep * bc)
        let frontKeep = 1 - fc
        (ur, ug, ub, uc) = (fr + frontKeep * ur, fg + frontKeep * ug, fb + frontKeep * ub, fc + frontKeep * uc)
        let uncovered = .!(uc .> 1e-5), inverse = 1 / uc
        let (r, g, b) = ((ur * inverse).replacing(with: sr, where: uncovered), (ug * inverse).replacing(with: sg, where: uncovered),
                         (ub * inverse).replacing(with: sb, where: uncovered))
        let sums = UnsafeRawPointer(grainColumns + j).loadUnaligned(as: Lanes.self)
            + UnsafeRawPointer(grainColumns + j + 1).loadUnaligned(as: Lanes.self)
        let grain = (sums * 0.5 * amount).replacing(with: 0, where: .!(amount .> 0))
        let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
        @inline(__always) func root(_ v: Lanes) -> Lanes { v.replacing(with: 0, where: v .< 0).squareRoot() }
        let level = DepthBlurGrain.sigma(roots: root(luminance)) * grain
        let (rr, rg, rb) = (root(r), root(g), root(b))
        let ungrained = grain .== 0
        let (gr, gg, gb) = ((r + level * DepthBlurGrain.slope(roots: rr)).replacing(with: r, where: ungrained),
                            (g + level * DepthBlurGrain.slope(roots: rg)).replacing(with: g, where: ungrained),
                            (b + level * DepthBlurGrain.slope(roots: rb)).replacing(with: b, where: ungrained))
        RGBPlanes.merge(gr.replacing(with: pr, where: copy), gg.replacing(with: pg, where: copy),
                        gb.replacing(with: pb, where: copy), into: o)
    }

    /// A plane's light and coverage at columns j… j + 3, as four channels (a lane a column).
    @inline(__always)
    private func channels(_ plane: UnsafePointer<Float>, _ j: Int) -> (Lanes, Lanes, Lanes, Lanes) {
        let (a, b, c, d) = (read(plane, j), read(plane, j + 1), read(plane, j + 2), read(plane, j + 3))
        return (Lanes(a[0], b[0], c[0], d[0]), Lanes(a[1], b[1], c[1], d[1]), Lanes(a[2], b[2], c[2], d[2]),
                Lanes(a[3], b[3], c[3], d[3]))
    }

    /// A working value as linear light clamped to [0, 4], as `min(4, max(0, v))` picks (the
    /// blur's input; `LayeredDepthBlur` sums the same).
    @inline(__always)
    static func linear(_ v: Float, _ space: WorkingSpace) -> Float {
        min(4, max(0, space == .linear ? v : SRGBTransfer.decode(v)))
    }

    /// `linear` of four linear values: the same picks, lane by lane (`max(0, v)` is v where
    /// v ≥ 0, `min(4, t)` is t where t < 4).
    @inline(__always)
    private static func linear(_ v: Lanes) -> Lanes {
        let t = Lanes().replacing(with: v, where: v .>= 0)
        return Lanes(repeating: 4).replacing(with: t, where: t .< 4)
    }
}
