// libFuzzer harness for the AAE reader (built only by scripts/fuzz, with ADJUST_FUZZ=1).
//
// The first byte chooses what the rest is, so that the fuzzer reaches each stage directly instead
// of having to rebuild the layers above it:
//   0 — a whole AAE file (XML or binary property list) → AAEDocument(contentsOf:);
//   1 — the raw DEFLATE payload, put into an XML AAE property list (base64) → inflate, JSON;
//   2 — the payload's JSON text, deflated with zlib and put into the same plist → JSON scan, JSON
//       decoder, payload shape, accessors.
// A document the reader accepts is then used the way the mapping layer will: every accessor on
// every setting, the support level, the master-size check. Invariants (fatalError when broken):
// every adjustment returned is enabled; every number in it is finite; the Crop rectangle is within
// the pixel limit. Any crash, trap, hang (-timeout) or runaway allocation is a finding.
import AdjustKit
import CZlib
import Foundation

private func rawDeflate(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    guard czlib_deflate_init_raw(&stream, Z_DEFAULT_COMPRESSION) == Z_OK else { return [] }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 16)
    var input = bytes
    let status = input.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = uInt(outBuffer.count)
            return CZlib.deflate(&stream, Z_FINISH)
        }
    }
    return status == Z_STREAM_END ? Array(output.prefix(Int(stream.total_out))) : []
}

private func xmlAAE(payload: [UInt8]) -> [UInt8] {
    let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>adjustmentBaseVersion</key><integer>0</integer>
        <key>adjustmentData</key><data>\(Data(payload).base64EncodedString())</data>
        <key>adjustmentEditorBundleID</key><string>com.apple.Photos</string>
        <key>adjustmentFormatIdentifier</key><string>com.apple.photo</string>
        <key>adjustmentFormatVersion</key><string>1.11</string>
        </dict></plist>
        """
    return Array(text.utf8)
}

private func checkFinite(_ value: AAEValue, _ context: String) {
    switch value {
    case .number(let n): if !n.isFinite { fatalError("non-finite number accepted in \(context)") }
    case .array(let items): for item in items { checkFinite(item, context) }
    case .object(let members): for (_, member) in members { checkFinite(member, context) }
    case .bool, .string, .null: break
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAAE(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let file: [UInt8]
    switch data[0] % 3 {
    case 0: file = rest
    case 1: file = xmlAAE(payload: rest)
    default: file = xmlAAE(payload: rawDeflate(rest))
    }
    guard let document = try? AAEDocument(contentsOf: file) else { return 0 }

    let limit = AAELimits.default.maxPixelValue
    for adjustment in document.adjustments {
        if !adjustment.enabled { fatalError("disabled adjustment \(adjustment.identifier) returned") }
        for (key, value) in adjustment.settings {
            checkFinite(value, "\(adjustment.identifier).\(key)")
            _ = try? adjustment.number(key)
            _ = try? adjustment.flag(key)
            _ = try? adjustment.string(key)
            _ = try? adjustment.object(key)
            _ = String(describing: AAEError.missingSetting(adjustment: adjustment.identifier, key: key))
        }
        if adjustment.identifier == PhotosCrop.aaeIdentifier {
            for key in ["xOrigin", "yOrigin", "width", "height"] {
                if let n = adjustment.settings[key]?.numberValue, abs(n) > limit {
                    fatalError("Crop \(key) = \(n) accepted beyond the pixel limit")
                }
            }
        }
        _ = FilterRegistry.aaeSupport(of: adjustment)
    }
    let crop = document.adjustment(PhotosCrop.aaeIdentifier).flatMap { crop -> (width: Double, height: Double)? in
        guard let w = crop.settings["width"]?.numberValue, let h = crop.settings["height"]?.numberValue else { return nil }
        return (w, h)
    }
    _ = AAEMasterSizeCheck.warning(master: (document.metadata.masterWidth, document.metadata.masterHeight),
                                   photo: (4032, 3024), crop: crop)
    return 0
}

// SwiftPM links an executable target with `--defsym main=FuzzAAE_main` (so tests can link it), which
// would replace libFuzzer's own main; this entry point hands over to libFuzzer's driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("FuzzAAE_main")
public func fuzzAAEMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzAAE)
}
