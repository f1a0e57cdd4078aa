/// Namespace URIs the RDF reader matches on. Prefixes are never compared.
enum RDFNamespaces {
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    /// The namespace of `xml:lang` and friends, which qualify values rather than being properties.
    static let xml = "http://www.w3.org/XML/1998/namespace"
}
