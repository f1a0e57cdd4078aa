import CSamplerIntrinsics

/// Reads one pixel of a `SourceRowWindow` as working-space RGB for the sampler.
protocol TexelReader {
    associatedtype Element
    func working(_ pixel: UnsafeMutablePointer<Element>) -> (Float, Float, Float)
    /// Every texel lies in [0, 1], so that every blend of texels lies in [+0, 2):
    /// `OpaqueByteRow` codes it without the NaN test and the clamps (`code(unitBlend:)`).
    static var samplesAreUnitBlends: Bool { get }
    /// Whether `writeOpaqueBlock` writes a block of opaque pixels in one call.
    static var writesOpaqueBlocks: Bool { get }
    /// Writes `count` opaque pixels of a row's interior run to `out` as RGBA8, their taps laid out
    /// in `block` and read from `window` (its texels from column `left`), each coded by
    /// `quantizer`: `InteriorTaps.sample` and `OpaqueByteRow.write`'s bytes. Called only where
    /// `writesOpaqueBlocks`.
    func writeOpaqueBlock(_ block: TapBlock, count: Int, window: SourceRowWindow<Element>, left: Int,
                          quantizer: ByteQuantizer.Bound, into out: UnsafeMutablePointer<UInt8>)
}

extension TexelReader {
    /// Without a block form, `InteriorTaps` samples the pixels one by one.
    static var writesOpaqueBlocks: Bool { false }
    func writeOpaqueBlock(_ block: TapBlock, count: Int, window: SourceRowWindow<Element>, left: Int,
                          quantizer: ByteQuantizer.Bound, into out: UnsafeMutablePointer<UInt8>) {
        preconditionFailure("\(Self.self) has no block form")
    }
}

/// A window of working-space floats: the reference pipeline's whole image, or decoded rows
/// already through the stored-frame colour kernels.
struct FloatTexels: TexelReader {
    /// The stored-frame kernels are not known to keep their values in [0, 1], nor never to make
    /// a NaN.
    static var samplesAreUnitBlends: Bool { false }
    @inline(__always) func working(_ p: UnsafeMutablePointer<Float>) -> (Float, Float, Float) { (p[0], p[1], p[2]) }
}

/// A window of decoded 8-bit RGB through the 256-entry decode table: the fused renderer keeps
/// its windows in bytes, a quarter of the memory of working-space floats.
struct ByteTexels: TexelReader {
    let table: UnsafePointer<Float>
    /// The decode table's 256 values lie in [0, 1] (a space's decoding, or its encoding of it).
    static var samplesAreUnitBlends: Bool { true }
    @inline(__always) func working(_ p: UnsafeMutablePointer<UInt8>) -> (Float, Float, Float) {
        (table[Int(p[0])], table[Int(p[1])], table[Int(p[2])])
    }

    /// Decoded bytes have one: `adjust_opaque_byte_block`, a straighten's opaque pixels (the
    /// blends of texels in [0, 1], coded as `code(unitBlend:)` codes them).
    static var writesOpaqueBlocks: Bool { true }
    @inline(__always)
    func writeOpaqueBlock(_ block: TapBlock, count: Int, window: SourceRowWindow<UInt8>, left: Int,
                          quantizer: ByteQuantizer.Bound, into out: UnsafeMutablePointer<UInt8>) {
        precondition(quantizer.linear, "the block codes through the linear space's tables")
        adjust_opaque_byte_block(block.x0, block.y0, block.weights, count, window.rowTable, window.top, left, table,
                                 quantizer.start.baseAddress, quantizer.thresholds.baseAddress, out)
    }
}
