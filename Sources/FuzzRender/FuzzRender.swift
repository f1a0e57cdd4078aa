// libFuzzer harness for the whole decode + render path (built only by scripts/fuzz, with
// ADJUST_FUZZ=1; issue 21 scope 7).
//
// Input layout: byte 0 chooses the edit's kind (bit 0: an .AAE property list, else an XMP packet)
// and the size (bits 1–3: full, n/8 for n = 1, 2, 4, or --max-size 64, 256, 1024); bytes 1–2 are the
// edit's length L (big-endian); then L bytes of edit, then the image (JPEG or HEIC, told apart
// by content). The photo is read from memory (`OriginalImage(bytes:)`), the edit parsed, planned
// and rendered with small limits (2048 px a side, 4 MP) so that each input stays fast; every
// error is expected and swallowed: only a crash, a hang, a leak or an out-of-memory is a finding.
import AdjustKit
import XMPParse

private let decoder = JPEGDecoder(maxSide: 2048, maxPixels: 4_000_000)
private let renderer = Renderer(decoder: decoder, colour: ColourOptions(skipUnknownFilters: true))
private let planner = RenderPlanner(maxOutputPixels: 4_000_000, maxOutputSide: 4096)

private func sizeRequest(_ code: UInt8) -> SizeRequest {
    switch code & 7 {
    case 1: return .scale(DecodeScale(numerator: 1)!)
    case 2: return .scale(DecodeScale(numerator: 2)!)
    case 3: return .scale(DecodeScale(numerator: 4)!)
    case 4: return .maxSize(64)
    case 5: return .maxSize(256)
    case 6: return .maxSize(1024)
    default: return .full
    }
}

private func chain(_ edit: [UInt8], aae: Bool) -> EditChain? {
    if aae {
        guard let document = try? AAEDocument(contentsOf: edit) else { return nil }
        var notes: [String] = []
        return try? EditChain(aae: document, notes: &notes)
    }
    guard let packet = try? XMPPacketParser.parse(edit) else { return nil }
    var warnings: [String] = []
    return try? EditChain(xmp: packet, warnings: &warnings)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRender(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size >= 3, let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let mode = bytes[0], length = Int(bytes[1]) << 8 | Int(bytes[2])
    guard 3 + length <= bytes.count else { return 0 }
    let edit = Array(bytes[3..<(3 + length)]), image = Array(bytes[(3 + length)...])
    guard let editChain = chain(edit, aae: mode & 1 == 1),
          let original = try? OriginalImage(bytes: image, heic: renderer.heicDecoder) else { return 0 }
    let storedSize: PixelSize, orientation: Int?
    switch original {
    case .jpeg:
        guard let header = try? decoder.header(of: image) else { return 0 }
        (storedSize, orientation) = (header.size, ExifOrientation.value(inJPEG: image))
    case .heic(_, let header):
        (storedSize, orientation) = (header.size, header.orientation)
    }
    guard let plan = try? planner.plan(storedSize: storedSize, exifOrientation: orientation, chain: editChain,
                                       size: sizeRequest(mode >> 1), scaledDecode: original.hasScaledDecode) else { return 0 }
    _ = try? renderer.renderEncoded(plan, original: original, format: mode & 0x10 == 0 ? .jpeg : .png, quality: 80)
    return 0
}

// SwiftPM links an executable target with `--defsym main=FuzzRender_main` (so tests can link it),
// which would replace libFuzzer's own main; this entry point hands over to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("FuzzRender_main")
public func fuzzRenderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzRender)
}
