/// Resource caps applied while reading untrusted XMP, so hostile input fails fast with an error
/// instead of exhausting memory or stack.
public struct XMPLimits: Sendable {
    /// Largest packet accepted, in bytes, checked before libxml2 sees the input.
    /// Metadata dumps may be `maxPacketBytes * 4` bytes, since they carry a packet plus other keys.
    public var maxPacketBytes: Int
    /// Deepest element nesting accepted, counting the document's root element as level 1.
    public var maxDepth: Int
    /// Most values accepted per packet, counting top-level properties, struct fields and array
    /// items alike.
    public var maxProperties: Int

    /// Creates limits; every argument defaults to the value in `XMPLimits.default`.
    public init(maxPacketBytes: Int = 4 << 20, maxDepth: Int = 32, maxProperties: Int = 10_000) {
        self.maxPacketBytes = maxPacketBytes
        self.maxDepth = maxDepth
        self.maxProperties = maxProperties
    }

    /// 4 MiB, 32 levels, 10 000 values: far above any real adjustment packet.
    public static let `default` = XMPLimits()
}
