/// A chunk of a row of interleaved RGB split into three planes, one `Lanes` a group of pixels
/// (`forEachChunk`).
///
/// Why planes: a kernel of several stages runs each stage as a loop of its own over the chunk (a
/// small function the compiler inlines the stage into), where one function per group holding
/// every stage was too large for the optimizer, which then left each stage a call with its
/// values passed through memory (a third of SmartTone's time).
struct RGBPlanes {
    let r: UnsafeMutablePointer<Lanes>, g: UnsafeMutablePointer<Lanes>, b: UnsafeMutablePointer<Lanes>
    /// Groups in the chunk; the last may be padded with copies of the chunk's last pixel.
    let groups: Int
    /// Pixels in the chunk (the padded lanes not counted).
    let count: Int

    /// Groups in a chunk of `forEachChunk`: 256 pixels, 3 KB of planes, well inside the L1 cache.
    static let chunkGroups = 64

    /// Calls `body` on the `count` RGB pixels at `row` a chunk at a time, as planes (the last
    /// group padded with copies of the last pixel, not written back), with the chunk's first
    /// pixel's index in the run, and writes the values back.
    static func forEachChunk(row: UnsafeMutablePointer<Float>, count: Int, _ body: (RGBPlanes, Int) -> Void) {
        forEachChunk(row: row, count: count, body) { chunk, start in chunk.merge(into: row + start * 3) }
    }

    /// `forEachChunk(row:count:_:)` with `finish` taking each chunk's planes after `body`, where
    /// that one writes them back into the row: the pixel copy quantizes them as they are
    /// (`PixelCopyChain`), without interleaving them again only to read them back.
    static func forEachChunk(row: UnsafeMutablePointer<Float>, count: Int, _ body: (RGBPlanes, Int) -> Void,
                             then finish: (RGBPlanes, Int) -> Void) {
        let width = Lanes.scalarCount, chunk = chunkGroups * width
        withUnsafeTemporaryAllocation(of: Lanes.self, capacity: 3 * chunkGroups) { scratch in
            let base = scratch.baseAddress!
            let (r, g, b) = (base, base + chunkGroups, base + 2 * chunkGroups)
            var start = 0
            while start < count {
                let n = min(chunk, count - start), groups = (n + width - 1) / width
                let p = row + start * 3
                for group in 0..<groups {
                    let q = p + group * width * 3
                    if group * width + width <= n {
                        (r[group], g[group], b[group]) = split(q)
                    } else {
                        var (lr, lg, lb) = (Lanes(), Lanes(), Lanes())
                        for lane in 0..<width {
                            let t = p + min(group * width + lane, n - 1) * 3
                            lr[lane] = t[0]; lg[lane] = t[1]; lb[lane] = t[2]
                        }
                        (r[group], g[group], b[group]) = (lr, lg, lb)
                    }
                }
                let planes = RGBPlanes(r: r, g: g, b: b, groups: groups, count: n)
                body(planes, start)
                finish(planes, start)
                start += n
            }
        }
    }

    /// The chunk's pixels (not the padded lanes) interleaved at `p`.
    func merge(into p: UnsafeMutablePointer<Float>) {
        let width = Lanes.scalarCount
        for group in 0..<groups {
            let q = p + group * width * 3
            if group * width + width <= count {
                Self.merge(r[group], g[group], b[group], into: q)
            } else {
                for lane in 0..<(count - group * width) {
                    let t = q + lane * 3
                    t[0] = r[group][lane]; t[1] = g[group][lane]; t[2] = b[group][lane]
                }
            }
        }
    }

    /// One colour as a chunk of one group, every lane the same: a kernel's single-colour form
    /// (the colour memo's, the tests') runs its chunk arithmetic.
    static func withPixel(_ r: inout Float, _ g: inout Float, _ b: inout Float, _ body: (RGBPlanes) -> Void) {
        withUnsafeTemporaryAllocation(of: Lanes.self, capacity: 3) { scratch in
            let p = scratch.baseAddress!
            (p[0], p[1], p[2]) = (Lanes(repeating: r), Lanes(repeating: g), Lanes(repeating: b))
            body(RGBPlanes(r: p, g: p + 1, b: p + 2, groups: 1, count: 1))
            (r, g, b) = (p[0][0], p[1][0], p[2][0])
        }
    }

    /// Four interleaved RGB pixels at `p` as three channels (three loads and their shuffles, where
    /// a lane at a time was a load and an insert per value).
    @inline(__always)
    static func split(_ p: UnsafeMutablePointer<Float>) -> (Lanes, Lanes, Lanes) {
        let raw = UnsafeRawPointer(p)
        let v0 = raw.loadUnaligned(as: Lanes.self), v1 = raw.loadUnaligned(fromByteOffset: 16, as: Lanes.self)
        let v2 = raw.loadUnaligned(fromByteOffset: 32, as: Lanes.self)
        return (Lanes(v0[0], v0[3], v1[2], v2[1]), Lanes(v0[1], v1[0], v1[3], v2[2]), Lanes(v0[2], v1[1], v2[0], v2[3]))
    }

    /// `split`'s inverse: three channels of four pixels stored interleaved at `p`.
    @inline(__always)
    static func merge(_ r: Lanes, _ g: Lanes, _ b: Lanes, into p: UnsafeMutablePointer<Float>) {
        let raw = UnsafeMutableRawPointer(p)
        raw.storeBytes(of: Lanes(r[0], g[0], b[0], r[1]), as: Lanes.self)
        raw.storeBytes(of: Lanes(g[1], b[1], r[2], g[2]), toByteOffset: 16, as: Lanes.self)
        raw.storeBytes(of: Lanes(b[2], r[3], g[3], b[3]), toByteOffset: 32, as: Lanes.self)
    }
}

extension WorkingSpace {
    /// A chunk's working values → linear light, in place (nothing to do in the linear space).
    func toLinear(_ chunk: RGBPlanes) {
        guard self != .linear else { return }
        for i in 0..<chunk.groups {
            (chunk.r[i], chunk.g[i], chunk.b[i]) = (linear(chunk.r[i]), linear(chunk.g[i]), linear(chunk.b[i]))
        }
    }

    /// A chunk's linear values → working values, in place.
    func fromLinear(_ chunk: RGBPlanes) {
        guard self != .linear else { return }
        for i in 0..<chunk.groups {
            (chunk.r[i], chunk.g[i], chunk.b[i]) = (working(fromLinear: chunk.r[i]), working(fromLinear: chunk.g[i]),
                                                    working(fromLinear: chunk.b[i]))
        }
    }
}
