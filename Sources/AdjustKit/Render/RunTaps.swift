/// Pixel i of an interior run (`GridRowSampling.sample(_:)`): the weighted sum of the taps that
/// have a weight, in the reference order. `x0` is the window column of pixel 0's top-left tap.
protocol RunTaps {
    associatedtype Texels: TexelReader
    func callAsFunction(_ i: Int) -> (Float, Float, Float)
}

/// On texel centres (w00 = 1): the texel itself.
struct CentreTap<Texels: TexelReader>: RunTaps {
    let texels: Texels, row0: UnsafeMutablePointer<Texels.Element>, x0: Int
    @inline(__always) func callAsFunction(_ i: Int) -> (Float, Float, Float) { texels.working(row0 + (x0 + i) * 3) }
}

/// On one source row: two taps side by side.
struct RowTaps<Texels: TexelReader>: RunTaps {
    let texels: Texels, row0: UnsafeMutablePointer<Texels.Element>, x0: Int, w00: Float, w10: Float
    @inline(__always) func callAsFunction(_ i: Int) -> (Float, Float, Float) {
        let (c00, c10) = (texels.working(row0 + (x0 + i) * 3), texels.working(row0 + (x0 + i + 1) * 3))
        return (w00 * c00.0 + w10 * c10.0, w00 * c00.1 + w10 * c10.1, w00 * c00.2 + w10 * c10.2)
    }
}

/// On one source column: two taps one above the other.
struct ColumnTaps<Texels: TexelReader>: RunTaps {
    let texels: Texels, row0: UnsafeMutablePointer<Texels.Element>, row1: UnsafeMutablePointer<Texels.Element>
    let x0: Int, w00: Float, w01: Float
    @inline(__always) func callAsFunction(_ i: Int) -> (Float, Float, Float) {
        let (c00, c01) = (texels.working(row0 + (x0 + i) * 3), texels.working(row1 + (x0 + i) * 3))
        return (w00 * c00.0 + w01 * c01.0, w00 * c00.1 + w01 * c01.1, w00 * c00.2 + w01 * c01.2)
    }
}

/// Anywhere else: all four taps.
struct FourTaps<Texels: TexelReader>: RunTaps {
    let texels: Texels, row0: UnsafeMutablePointer<Texels.Element>, row1: UnsafeMutablePointer<Texels.Element>
    let x0: Int, weights: (w00: Float, w10: Float, w01: Float, w11: Float)
    @inline(__always) func callAsFunction(_ i: Int) -> (Float, Float, Float) {
        OutputRowSampler.blend(row0 + (x0 + i) * 3, row1 + (x0 + i) * 3, weights.w00, weights.w10, weights.w01, weights.w11,
                               texels: texels)
    }
}
