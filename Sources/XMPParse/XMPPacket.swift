/// The properties of one XMP packet, merged from every `rdf:Description` it contains.
public struct XMPPacket: Equatable, Sendable {
    /// Top-level properties keyed by qualified name. Element order in the XML carries no meaning.
    public var properties: [XMPName: XMPValue]
    /// RDF conformance problems skipped outside `XMPLimits.strictNamespaces`, one line each
    /// (e.g. "property {…/exif/1.0/}Make appears twice; the first is kept"). Empty when every
    /// namespace is strict, since any problem then fails the parse.
    public var warnings: [String]

    /// Creates a packet holding the given top-level properties.
    public init(properties: [XMPName: XMPValue] = [:], warnings: [String] = []) {
        self.properties = properties
        self.warnings = warnings
    }

    /// The top-level property `name` in `namespace`, if present. Call as `packet[ns, "Make"]`.
    public subscript(namespace: String, name: String) -> XMPValue? {
        properties[XMPName(namespace: namespace, name: name)]
    }

    /// The top-level property `name` in `namespace`, if present.
    /// Call as `packet[namespace: ns, name: "Make"]`.
    public subscript(namespace namespace: String, name name: String) -> XMPValue? {
        properties[XMPName(namespace: namespace, name: name)]
    }

    /// The top-level property with this qualified name, if present.
    public subscript(_ name: XMPName) -> XMPValue? {
        properties[name]
    }

    /// Whether any top-level property lives in namespace `ns` (e.g. to decide whether a JPEG's
    /// own XMP carries adjustment settings at all).
    public func hasProperties(inNamespace ns: String) -> Bool {
        properties.keys.contains { $0.namespace == ns }
    }
}
