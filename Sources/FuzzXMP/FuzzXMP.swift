// libFuzzer harness for the XMP reader (built only by scripts/fuzz, with ADJUST_FUZZ=1).
//
// bytes → XMPPacketParser.parse (default limits) → EditChain(xmp:warnings:) → adjustmentXMP()
// → parse again; and MetadataDump.adjustmentXMP(in:) on the same bytes. Any crash, trap, hang
// (-timeout) or runaway allocation (-rss_limit_mb / -malloc_limit_mb) is a finding. The writer's
// output for a chain the reader accepted must itself be accepted by the reader.
import AdjustKit
import XMPParse

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))

    if let packet = try? XMPPacketParser.parse(bytes) {
        var warnings: [String] = []
        if let chain = try? EditChain(xmp: packet, warnings: &warnings) {
            let written = chain.adjustmentXMP()
            let reparsed: XMPPacket
            do { reparsed = try XMPPacketParser.parse(Array(written.utf8)) } catch {
                fatalError("adjustmentXMP() output does not parse (\(error)):\n\(written)")
            }
            var rewarnings: [String] = []
            do { _ = try EditChain(xmp: reparsed, warnings: &rewarnings) } catch {
                fatalError("adjustmentXMP() output is not a valid chain (\(error)):\n\(written)")
            }
        }
    }

    _ = try? MetadataDump.adjustmentXMP(in: bytes)
    return 0
}

// SwiftPM links an executable target with `--defsym main=FuzzXMP_main` (so tests can link it), which
// would replace libFuzzer's own main; this entry point hands over to libFuzzer's driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("FuzzXMP_main")
public func fuzzXMPMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzXMP)
}
