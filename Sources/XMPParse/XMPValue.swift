/// The three RDF container kinds XMP uses for arrays.
public enum XMPArrayKind: String, Sendable {
    /// `rdf:Seq`: ordered array.
    case seq
    /// `rdf:Bag`: unordered array.
    case bag
    /// `rdf:Alt`: alternatives (e.g. language variants).
    case alt
}

/// The value of an XMP property: simple text, an array, or a struct.
public indirect enum XMPValue: Equatable, Sendable {
    /// A simple value, with surrounding XML white space (space, tab, CR, LF) trimmed.
    case text(String)
    /// An `rdf:Seq`, `rdf:Bag` or `rdf:Alt` with its items in document order.
    case array(XMPArrayKind, [XMPValue])
    /// A struct (`rdf:parseType="Resource"`, a nested `rdf:Description`, or an empty element
    /// carrying property attributes), keyed by field name.
    case structure([XMPName: XMPValue])

    /// The text of a simple value; nil for arrays and structs.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items of an array of any kind; nil for text and structs.
    public var arrayItems: [XMPValue]? {
        if case .array(_, let items) = self { return items }
        return nil
    }

    /// The fields of a struct; nil for text and arrays.
    public var structFields: [XMPName: XMPValue]? {
        if case .structure(let fields) = self { return fields }
        return nil
    }
}
