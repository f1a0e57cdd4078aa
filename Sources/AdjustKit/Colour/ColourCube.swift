/// Why a `.cube` file (or a table handed to `ColourCube.init`) was refused. `description` is one
/// line without the file name, e.g. "line 7: expected 3 numbers, got 2".
package struct CubeError: Error, Equatable, CustomStringConvertible {
    /// One line, without the file name.
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A 3-D colour lookup table over sRGB-encoded RGB in [0, 1] (filters.md §6).
///
/// The table samples the unit cube on an N×N×N grid, grid point i on an axis standing for the
/// input value i/(N−1). `apply` clamps its input to [0, 1] and interpolates trilinearly.
package struct ColourCube: Equatable, Sendable {
    /// N, the number of grid points along each axis (2…256).
    package let size: Int
    /// N·N·N·3 entries; the output (r, g, b) for grid point (r, g, b) starts at
    /// ((b·N + g)·N + r)·3 — red fastest, as in `.cube` files.
    package let values: [Float]

    /// The sizes a table may have, here and in `LUT_3D_SIZE`.
    static let sizeRange = 2...256

    /// Checks that `values` holds exactly `size`³·3 finite numbers.
    package init(size: Int, values: [Float]) throws(CubeError) {
        guard Self.sizeRange.contains(size) else {
            throw CubeError("cube size \(size) is outside 2…256")
        }
        let expected = size * size * size * 3
        guard values.count == expected else {
            throw CubeError("expected \(expected) values (\(size)³ × 3) for cube size \(size), got \(values.count)")
        }
        if let index = values.firstIndex(where: { !$0.isFinite }) {
            throw CubeError("non-finite value at index \(index)")
        }
        self.init(checkedSize: size, values: values)
    }

    /// For callers that have already checked size, count and finiteness.
    init(checkedSize size: Int, values: [Float]) {
        self.size = size
        self.values = values
    }

    /// Whether every entry is a grey (R = G = B): `apply` interpolates the three channels with
    /// the same weights in the same order, so such a table maps every colour to a grey.
    package var isGrey: Bool {
        stride(from: 0, to: values.count, by: 3).allSatisfy { (i: Int) -> Bool in
            values[i] == values[i + 1] && values[i + 1] == values[i + 2]
        }
    }

    /// The table that maps every colour to itself (up to interpolation rounding).
    package static func identity(size: Int) -> ColourCube {
        sampling(size: size) { ($0, $1, $2) }
    }

    /// The table of `function` sampled at the grid points i/(N−1), red fastest, each output
    /// clamped to [0, 1].
    static func sampling(size: Int, _ function: (Float, Float, Float) -> (Float, Float, Float)) -> ColourCube {
        precondition(sizeRange.contains(size), "cube size \(size) is outside 2…256")
        let scale = Float(size - 1)
        var values = [Float]()
        values.reserveCapacity(size * size * size * 3)
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size {
                    let out = function(Float(r) / scale, Float(g) / scale, Float(b) / scale)
                    values += [min(1, max(0, out.0)), min(1, max(0, out.1)), min(1, max(0, out.2))]
                }
            }
        }
        return ColourCube(checkedSize: size, values: values)
    }

    /// Clamps each input to [0, 1] (NaN counts as 0) and interpolates trilinearly between the
    /// eight surrounding grid points. Runs per pixel: no allocation, no bounds checks. Exact at grid
    /// points whose coordinate times N−1 is exactly an integer (each blend is a·(1−f) + b·f).
    @inlinable @inline(__always)
    package func apply(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let n = size
        let scale = Float(n - 1)
        // `x > 0 ? … : 0` also sends NaN to 0, so the index conversions below cannot trap.
        let xr = (r > 0 ? (r < 1 ? r : 1) : 0) * scale
        let xg = (g > 0 ? (g < 1 ? g : 1) : 0) * scale
        let xb = (b > 0 ? (b < 1 ? b : 1) : 0) * scale
        // The lower grid index, at most N−2 so that index + 1 exists; at the top edge f is 1.
        let ir = Swift.min(Int(xr), n - 2)
        let ig = Swift.min(Int(xg), n - 2)
        let ib = Swift.min(Int(xb), n - 2)
        let fr = xr - Float(ir), fg = xg - Float(ig), fb = xb - Float(ib)
        let hr = 1 - fr, hg = 1 - fg, hb = 1 - fb
        let sg = 3 * n            // stride between green neighbours
        let sb = 3 * n * n        // stride between blue neighbours
        let base = ((ib * n + ig) * n + ir) * 3
        return values.withUnsafeBufferPointer { p in
            @inline(__always) func channel(_ o: Int) -> Float {
                let i = base + o
                let c00 = p[i] * hr + p[i + 3] * fr
                let c10 = p[i + sg] * hr + p[i + sg + 3] * fr
                let c01 = p[i + sb] * hr + p[i + sb + 3] * fr
                let c11 = p[i + sb + sg] * hr + p[i + sb + sg + 3] * fr
                let c0 = c00 * hg + c10 * fg
                let c1 = c01 * hg + c11 * fg
                return c0 * hb + c1 * fb
            }
            return (channel(0), channel(1), channel(2))
        }
    }
}
