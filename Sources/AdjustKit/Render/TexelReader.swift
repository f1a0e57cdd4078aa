/// Reads one pixel of a `SourceRowWindow` as working-space RGB for the sampler.
protocol TexelReader {
    associatedtype Element
    func working(_ pixel: UnsafeMutablePointer<Element>) -> (Float, Float, Float)
    /// Every texel, and so every blend of texels, is finite: `OpaqueByteRow` skips the NaN test.
    static var samplesAreFinite: Bool { get }
}

/// A window of working-space floats: the reference pipeline's whole image, or decoded rows
/// already through the stored-frame colour kernels.
struct FloatTexels: TexelReader {
    /// The stored-frame kernels are not known never to make a NaN.
    static var samplesAreFinite: Bool { false }
    @inline(__always) func working(_ p: UnsafeMutablePointer<Float>) -> (Float, Float, Float) { (p[0], p[1], p[2]) }
}

/// A window of decoded 8-bit RGB through the 256-entry decode table: the fused renderer keeps
/// its windows in bytes, a quarter of the memory of working-space floats.
struct ByteTexels: TexelReader {
    let table: UnsafePointer<Float>
    /// The decode table's 256 values are finite.
    static var samplesAreFinite: Bool { true }
    @inline(__always) func working(_ p: UnsafeMutablePointer<UInt8>) -> (Float, Float, Float) {
        (table[Int(p[0])], table[Int(p[1])], table[Int(p[2])])
    }
}
