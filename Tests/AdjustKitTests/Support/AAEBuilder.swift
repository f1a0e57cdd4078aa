import CZlib
import Foundation

/// Builds synthetic AAE sidecars for tests, the way Apple's are made (spec aae-format.md §2): JSON
/// text, raw DEFLATE (zlib, window bits −15), in an XML or binary property list written by
/// Foundation's `PropertyListSerialization`. Shares no code with the reader.
enum AAEBuilder {
    enum Format { case xml, binary }

    /// Raw DEFLATE of `bytes` at zlib's best compression.
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        precondition(czlib_deflate_init_raw(&stream, Z_BEST_COMPRESSION) == Z_OK)
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
        precondition(status == Z_STREAM_END)
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// A property list with the AAE keys; `data` is stored as `adjustmentData` as given.
    static func plist(data: [UInt8], format: Format, identifier: String = "com.apple.photo",
                      editor: String? = "com.apple.Photos", version: String = "1.11", extra: [String: Any] = [:]) -> [UInt8] {
        var root: [String: Any] = [
            "adjustmentBaseVersion": 0,
            "adjustmentData": Data(data),
            "adjustmentFormatIdentifier": identifier,
            "adjustmentFormatVersion": version,
            "adjustmentTimestamp": Date(timeIntervalSince1970: 1_700_000_000),
        ]
        if let editor { root["adjustmentEditorBundleID"] = editor }
        root.merge(extra) { $1 }
        let encoded = try! PropertyListSerialization.data(
            fromPropertyList: root, format: format == .xml ? .xml : .binary, options: 0)
        return [UInt8](encoded)
    }

    /// The payload JSON around `adjustments` (each a JSON object's text). `orientation` is
    /// `metadata.orientation`: 0, "not set", keeps the file's own (aae-format.md §5.4).
    static func payload(_ adjustments: [String], masterWidth: Int = 4032, masterHeight: Int = 3024,
                        orientation: Int = 0) -> String {
        #"{"metadata":{"masterWidth":\#(masterWidth),"masterHeight":\#(masterHeight),"orientation":\#(orientation)},"#
            + #""formatVersion":1,"versionInfo":{"platform":"iOS","schemaRevision":0},"#
            + #""adjustments":["# + adjustments.joined(separator: ",") + "]}"
    }

    /// One adjustment's JSON text.
    static func adjustment(_ identifier: String, enabled: String? = "true", settings: String = "{}") -> String {
        let flag = enabled.map { #""enabled":\#($0),"# } ?? ""
        return #"{"identifier":"\#(identifier)",\#(flag)"formatVersion":1,"formatIdentifier":"com.apple.photo","settings":\#(settings)}"#
    }

    /// A whole AAE file holding `adjustments`.
    static func aae(_ adjustments: [String], format: Format = .xml, masterWidth: Int = 4032,
                    masterHeight: Int = 3024, orientation: Int = 0) -> [UInt8] {
        plist(data: deflate(Array(payload(adjustments, masterWidth: masterWidth, masterHeight: masterHeight,
                                          orientation: orientation).utf8)),
              format: format)
    }
}
