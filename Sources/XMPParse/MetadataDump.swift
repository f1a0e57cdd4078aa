import Foundation

/// Extracts the adjustment packet from a dump of an asset's metadata dictionary.
public enum MetadataDump {
    /// The dictionary key under which Photos stored the XMP packet.
    private static let adjustmentKey = "AdjustmentXMP"

    /// The bytes of the first `AdjustmentXMP` value found in a JSON or property-list dump.
    ///
    /// Input whose first non-space byte is `{` or `[` is read as JSON first; anything else, and
    /// JSON that fails, is read with `PropertyListSerialization` (XML, binary or OpenStep).
    /// Dictionaries are searched breadth-first at any depth, sibling keys in sorted order, so the
    /// shallowest match wins deterministically. A String value is returned as UTF-8; a Data value
    /// as is. Values of other types are skipped. Foundation's parsers cap nesting depth, and the
    /// search itself is iterative, so hostile nesting cannot exhaust the stack.
    /// - Parameter limits: the dump may be up to `limits.maxPacketBytes * 4` bytes.
    public static func adjustmentXMP(in bytes: [UInt8], limits: XMPLimits = .default) throws(XMPError) -> [UInt8] {
        let (product, overflow) = limits.maxPacketBytes.multipliedReportingOverflow(by: 4)
        let sizeLimit = overflow ? Int.max : product
        guard bytes.count <= sizeLimit else {
            throw .metadataDumpTooLarge(bytes: bytes.count, limit: sizeLimit)
        }
        let root = try deserialize(Data(bytes))
        guard let value = firstAdjustmentValue(in: root) else { throw .noAdjustmentXMPKey }
        return value
    }

    private static func deserialize(_ data: Data) throws(XMPError) -> Any {
        if looksLikeJSON(data), let object = try? JSONSerialization.jsonObject(with: data) {
            return object
        }
        guard let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
              object is [AnyHashable: Any] || object is [Any] else {
            // OpenStep parsing turns almost any text into a string plist; a dump is a collection.
            throw .unreadableMetadataDump
        }
        return object
    }

    private static func looksLikeJSON(_ data: Data) -> Bool {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let body = data.starts(with: byteOrderMark) ? data.dropFirst(byteOrderMark.count) : data[...]
        let first = body.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    private static func firstAdjustmentValue(in root: Any) -> [UInt8]? {
        var level: [Any] = [root]
        while !level.isEmpty {
            var nextLevel: [Any] = []
            for container in level {
                if let dictionary = container as? [AnyHashable: Any] {
                    if let value = dictionary[AnyHashable(adjustmentKey)], let bytes = packetBytes(value) {
                        return bytes
                    }
                    let keyed = dictionary.compactMap { entry in (entry.key as? String).map { ($0, entry.value) } }
                    nextLevel.append(contentsOf: keyed.sorted { $0.0 < $1.0 }.map(\.1))
                } else if let array = container as? [Any] {
                    nextLevel.append(contentsOf: array)
                }
            }
            level = nextLevel
        }
        return nil
    }

    private static func packetBytes(_ value: Any) -> [UInt8]? {
        if let text = value as? String { return Array(text.utf8) }
        if let data = value as? Data { return [UInt8](data) }
        return nil
    }
}
