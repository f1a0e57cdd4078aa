// libFuzzer harness for JPEG header, EXIF and planning (built only by scripts/fuzz, with
// ADJUST_FUZZ=1).
//
// bytes → JPEGSegments (app1Payloads, xmpPacket, exifPayload), JPEGDecoder().header(of:),
// ExifOrientation.value(inJPEG:), then RenderPlanner().plan(...) for the header's size and
// orientation with a fixed small chain (straighten + crop + vibrance), the empty chain and — when
// the JPEG's own XMP reads as a chain — that chain. No pixel decode: too slow to fuzz.
import AdjustKit
import XMPParse

private let fixedChain = EditChain(
    vibrance: Vibrance(amount: 0.3),
    affine: AffineMap(a: 0.99863, b: 0.052336, c: -0.052336, d: 0.99863, tx: 0, ty: 0),
    crop: Crop(x: 1, y: 2, width: 40, height: 30))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))

    _ = try? JPEGSegments.app1Payloads(in: bytes)
    let xmp = try? JPEGSegments.xmpPacket(in: bytes)
    _ = try? JPEGSegments.exifPayload(in: bytes)
    let orientation = ExifOrientation.value(inJPEG: bytes)
    guard let header = try? JPEGDecoder().header(of: bytes) else { return 0 }

    var chains = [fixedChain, EditChain()]
    if let xmp, let packet = try? XMPPacketParser.parse(xmp) {
        var warnings: [String] = []
        if let chain = try? EditChain(xmp: packet, warnings: &warnings) { chains.append(chain) }
    }
    for chain in chains {
        _ = try? RenderPlanner().plan(storedSize: header.size, exifOrientation: orientation,
                                      chain: chain, size: .maxSize(256))
    }
    return 0
}

// SwiftPM links an executable target with `--defsym main=FuzzImageHeader_main` (so tests can link it), which
// would replace libFuzzer's own main; this entry point hands over to libFuzzer's driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("FuzzImageHeader_main")
public func fuzzImageHeaderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzImageHeader)
}
