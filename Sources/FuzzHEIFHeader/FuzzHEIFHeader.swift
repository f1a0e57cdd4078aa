// libFuzzer harness for the HEIC/HEIF header path (built only by scripts/fuzz, with ADJUST_FUZZ=1).
//
// bytes → HEICDecoder.isHEIF, HEIFTransformProperties.read (the hand-written ipco/ipma parser, for
// item IDs 0…3 and the primary item), HEICDecoder(...).header(of:) (libheif reads the boxes, the
// primary handle, metadata blocks, auxiliary images; limits 4096 px a side, 4 MP), the metadata's
// JPEG header and EXIF orientation, then RenderPlanner().plan(...) for the header's size and
// orientation. No pixel decode: too slow to fuzz. libheif itself is the Debian build (not
// instrumented): its crashes are found, its silent overreads are not.
import AdjustKit

private let fixedChain = EditChain(
    affine: AffineMap(a: 0.99863, b: 0.052336, c: -0.052336, d: 0.99863, tx: 0, ty: 0),
    crop: Crop(x: 1, y: 2, width: 40, height: 30))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIFHeader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
    _ = HEICDecoder.isHEIF(bytes)
    for item: UInt32 in 0...3 { _ = HEIFTransformProperties.read(in: bytes, itemID: item).exifOrientation }
    guard let header = try? HEICDecoder(maxSide: 4096, maxPixels: 4_000_000).header(of: bytes) else { return 0 }
    _ = header.notes
    _ = header.metadata.jpegHeader
    for chain in [fixedChain, EditChain()] {
        _ = try? RenderPlanner().plan(storedSize: header.size, exifOrientation: header.orientation,
                                      chain: chain, size: .maxSize(256), scaledDecode: false)
    }
    return 0
}

// SwiftPM links an executable target with `--defsym main=FuzzHEIFHeader_main` (so tests can link it), which
// would replace libFuzzer's own main; this entry point hands over to libFuzzer's driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("FuzzHEIFHeader_main")
public func fuzzHEIFHeaderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzHEIFHeader)
}
