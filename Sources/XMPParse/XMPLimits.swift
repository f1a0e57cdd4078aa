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
    /// Most attributes (namespace declarations included) on one element. libxml2 2.9 spends
    /// quadratic time per element on them, so this is checked by a byte scan before parsing; the
    /// scan counts `=` signs, so a text run with more `=` than this also trips it.
    public var maxAttributesPerElement: Int
    /// Most namespace declarations in the whole packet. libxml2 2.9 resolves each prefix by a
    /// linear search of the namespaces in scope; checked by a byte scan counting `xmlns`.
    public var maxNamespaceDeclarations: Int
    /// The namespaces whose top-level properties must be well-formed RDF: nil (the default)
    /// means every namespace. With a set, an RDF conformance problem in a top-level property of
    /// any other namespace (it appears twice, or uses a construct XMP never writes) does not fail
    /// the parse: the property is skipped (the first of a repeated one is kept) and the problem
    /// is named in `XMPPacket.warnings`. The caps above and the DOCTYPE refusal hold for every
    /// namespace, always.
    public var strictNamespaces: Set<String>?

    /// Creates limits; every argument defaults to the value in `XMPLimits.default`.
    public init(
        maxPacketBytes: Int = 4 << 20,
        maxDepth: Int = 32,
        maxProperties: Int = 10_000,
        maxAttributesPerElement: Int = 1_024,
        maxNamespaceDeclarations: Int = 256,
        strictNamespaces: Set<String>? = nil
    ) {
        self.maxPacketBytes = maxPacketBytes
        self.maxDepth = maxDepth
        self.maxProperties = maxProperties
        self.maxAttributesPerElement = maxAttributesPerElement
        self.maxNamespaceDeclarations = maxNamespaceDeclarations
        self.strictNamespaces = strictNamespaces
    }

    /// 4 MiB, 32 levels, 10 000 values, 1 024 attributes per element, 256 namespace declarations,
    /// every namespace strict:
    /// far above any real adjustment packet (Lightroom's attribute-form packets carry a few hundred
    /// attributes on one element and a few dozen namespaces), and small enough that libxml2 parses
    /// the worst 4 MiB packet in about a second.
    public static let `default` = XMPLimits()
}
