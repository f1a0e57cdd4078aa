/// A qualified XMP name: namespace URI plus local name.
///
/// XMP names are compared by namespace URI, never by prefix, so a packet that binds `foo:` to the
/// adjustment-settings namespace means the same as one using the conventional `aas:`.
public struct XMPName: Hashable, Sendable, CustomStringConvertible {
    /// The namespace URI, e.g. `http://ns.apple.com/adjustment-settings/1.0/`.
    public let namespace: String
    /// The local name, e.g. `CropX`.
    public let name: String

    /// Creates a name from a namespace URI and a local name.
    public init(namespace: String, name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// Clark notation, `{namespace}name`: unambiguous without knowing any prefix bindings.
    public var description: String { "{\(namespace)}\(name)" }
}
