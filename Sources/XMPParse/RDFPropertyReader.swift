/// Turns the RDF/XML of an XMP packet into `XMPValue`s, following the XMP serialization rules.
///
/// Strict by design: shapes XMP never produces (typed nodes, `rdf:parseType="Literal"`, several
/// element children in one simple property, text mixed with elements) fail with
/// `XMPError.malformedRDF`, and a repeated property with `XMPError.duplicateProperty`, instead of
/// being guessed at — in every namespace, or only in `limits.strictNamespaces` when that is set:
/// elsewhere the top-level property at fault is skipped (a repeated one keeps its first value)
/// and the problem goes to `warnings`. The limits hold everywhere.
struct RDFPropertyReader {
    private let limits: XMPLimits
    private var valueCount = 0
    /// Problems skipped outside the strict namespaces.
    private var warnings: [String] = []

    init(limits: XMPLimits) {
        self.limits = limits
    }

    /// Fails if any element lies deeper than `limit` (root = level 1). Iterative, so that it is
    /// safe to run before the recursive reading below, which it thereby bounds.
    static func checkDepth(from root: LibXMLElement, limit: Int) throws(XMPError) {
        var pending: [(element: LibXMLElement, depth: Int)] = [(root, 1)]
        while let (element, depth) = pending.popLast() {
            guard depth <= limit else { throw .nestingTooDeep(limit: limit) }
            pending.append(contentsOf: element.childElements.map { ($0, depth + 1) })
        }
    }

    /// Reads every `rdf:RDF` element under `root` (or `root` itself), merging all of their
    /// `rdf:Description` elements into one packet.
    mutating func readPacket(root: LibXMLElement) throws(XMPError) -> XMPPacket {
        let rdfElements = Self.rdfElements(under: root)
        guard !rdfElements.isEmpty else { throw .noRDF }
        var properties: [XMPName: XMPValue] = [:]
        for rdf in rdfElements {
            for description in rdf.childElements {
                guard description.isElement(namespace: RDFNamespaces.rdf, localName: "Description") else {
                    let problem = XMPError.malformedRDF("\(description.qualifiedName) at line \(description.line) inside rdf:RDF is not an rdf:Description")
                    // A typed node (`<exif:Thing rdf:about="">`) of another namespace is skipped.
                    guard isLenient(description.namespace) else { throw problem }
                    warnings.append("\(problem); skipped")
                    continue
                }
                try addTopLevelFields(of: description, into: &properties)
            }
        }
        return XMPPacket(properties: properties, warnings: warnings)
    }

    /// Whether problems in a top-level property of `namespace` are skipped rather than fatal:
    /// a namespace outside a set of strict ones (never RDF's own, nor a missing one).
    private func isLenient(_ namespace: String?) -> Bool {
        guard let strict = limits.strictNamespaces, let namespace, namespace != RDFNamespaces.rdf else { return false }
        return !strict.contains(namespace)
    }

    /// `addFields` for an rdf:Description: a conformance problem in a lenient namespace's
    /// property skips that property (see `isLenient`); limits still fail.
    private mutating func addTopLevelFields(of element: LibXMLElement, into fields: inout [XMPName: XMPValue]) throws(XMPError) {
        for attribute in element.attributes {
            guard let name = Self.propertyName(of: attribute) else { continue }
            try insertTopLevel(.text(XMLWhitespace.trimmed(attribute.value)), named: name, into: &fields)
        }
        for child in element.childElements {
            guard let namespace = child.namespace, namespace != RDFNamespaces.rdf else {
                throw .malformedRDF("\(child.qualifiedName) at line \(child.line) is not a property element")
            }
            let name = XMPName(namespace: namespace, name: child.localName)
            let value: XMPValue
            do {
                value = try self.value(ofPropertyElement: child)
            } catch let error {
                guard isLenient(namespace), Self.isConformanceProblem(error) else { throw error }
                warnings.append("\(error); property \(name) skipped")
                continue
            }
            try insertTopLevel(value, named: name, into: &fields)
        }
    }

    private mutating func insertTopLevel(_ value: XMPValue, named name: XMPName,
                                         into fields: inout [XMPName: XMPValue]) throws(XMPError) {
        if fields[name] != nil, isLenient(name.namespace) {
            try countValue()
            warnings.append("\(XMPError.duplicateProperty(name)); the first is kept")
            return
        }
        try insert(value, named: name, into: &fields)
    }

    /// RDF shapes and repeats, as against limits (which hold in every namespace).
    private static func isConformanceProblem(_ error: XMPError) -> Bool {
        switch error {
        case .malformedRDF, .duplicateProperty: return true
        default: return false
        }
    }

    /// `rdf:RDF` elements in document order, without looking inside one for another.
    private static func rdfElements(under root: LibXMLElement) -> [LibXMLElement] {
        var found: [LibXMLElement] = []
        var pending = [root]
        while let element = pending.popLast() {
            if element.isElement(namespace: RDFNamespaces.rdf, localName: "RDF") {
                found.append(element)
            } else {
                pending.append(contentsOf: element.childElements.reversed())
            }
        }
        return found
    }

    /// Adds the property attributes and property elements of `element` (an `rdf:Description`,
    /// or a property element acting as a struct) to `fields`.
    private mutating func addFields(of element: LibXMLElement, into fields: inout [XMPName: XMPValue]) throws(XMPError) {
        for attribute in element.attributes {
            guard let name = Self.propertyName(of: attribute) else { continue }
            try insert(.text(XMLWhitespace.trimmed(attribute.value)), named: name, into: &fields)
        }
        for child in element.childElements {
            guard let namespace = child.namespace, namespace != RDFNamespaces.rdf else {
                throw .malformedRDF("\(child.qualifiedName) at line \(child.line) is not a property element")
            }
            let value = try value(ofPropertyElement: child)
            try insert(value, named: XMPName(namespace: namespace, name: child.localName), into: &fields)
        }
    }

    /// The property an attribute stands for; nil for RDF syntax (`rdf:about`, `rdf:parseType`),
    /// `xml:lang` and unqualified attributes such as the legacy `about`.
    private static func propertyName(of attribute: LibXMLElement.Attribute) -> XMPName? {
        guard let namespace = attribute.namespace,
              namespace != RDFNamespaces.rdf, namespace != RDFNamespaces.xml else { return nil }
        return XMPName(namespace: namespace, name: attribute.localName)
    }

    private mutating func insert(_ value: XMPValue, named name: XMPName, into fields: inout [XMPName: XMPValue]) throws(XMPError) {
        guard fields[name] == nil else { throw .duplicateProperty(name) }
        try countValue()
        fields[name] = value
    }

    private mutating func countValue() throws(XMPError) {
        valueCount += 1
        guard valueCount <= limits.maxProperties else { throw .tooManyProperties(limit: limits.maxProperties) }
    }

    /// The value of a property element, struct field or `rdf:li`.
    private mutating func value(ofPropertyElement element: LibXMLElement) throws(XMPError) -> XMPValue {
        if let parseType = element.attributeValue(namespace: RDFNamespaces.rdf, localName: "parseType") {
            guard parseType == "Resource" else {
                throw .malformedRDF("rdf:parseType=\"\(parseType)\" on \(element.qualifiedName) at line \(element.line) is not supported")
            }
            var fields: [XMPName: XMPValue] = [:]
            try addFields(of: element, into: &fields)
            return .structure(fields)
        }

        let children = element.childElements
        guard let onlyChild = children.first else {
            return try leafValue(of: element)
        }
        guard children.count == 1, XMLWhitespace.isBlank(element.directText) else {
            throw .malformedRDF("\(element.qualifiedName) at line \(element.line) holds several elements or text beside an element")
        }
        if onlyChild.namespace == RDFNamespaces.rdf {
            switch onlyChild.localName {
            case "Seq": return .array(.seq, try items(of: onlyChild))
            case "Bag": return .array(.bag, try items(of: onlyChild))
            case "Alt": return .array(.alt, try items(of: onlyChild))
            case "Description":
                var fields: [XMPName: XMPValue] = [:]
                try addFields(of: onlyChild, into: &fields)
                return .structure(fields)
            default: break
            }
        }
        throw .malformedRDF("unexpected \(onlyChild.qualifiedName) at line \(onlyChild.line) inside \(element.qualifiedName)")
    }

    /// A property element without element children: text, a resource URI, or a struct written
    /// entirely as attributes (`<re:eye re:p="…"/>`).
    private mutating func leafValue(of element: LibXMLElement) throws(XMPError) -> XMPValue {
        if let resource = element.attributeValue(namespace: RDFNamespaces.rdf, localName: "resource") {
            return .text(XMLWhitespace.trimmed(resource))
        }
        let text = element.directText
        let hasPropertyAttributes = element.attributes.contains { Self.propertyName(of: $0) != nil }
        guard hasPropertyAttributes else { return .text(XMLWhitespace.trimmed(text)) }
        guard XMLWhitespace.isBlank(text) else {
            throw .malformedRDF("\(element.qualifiedName) at line \(element.line) has both text and property attributes")
        }
        var fields: [XMPName: XMPValue] = [:]
        try addFields(of: element, into: &fields)
        return .structure(fields)
    }

    private mutating func items(of container: LibXMLElement) throws(XMPError) -> [XMPValue] {
        guard XMLWhitespace.isBlank(container.directText) else {
            throw .malformedRDF("\(container.qualifiedName) at line \(container.line) holds text outside rdf:li")
        }
        var items: [XMPValue] = []
        for item in container.childElements {
            guard item.isElement(namespace: RDFNamespaces.rdf, localName: "li") else {
                throw .malformedRDF("\(item.qualifiedName) at line \(item.line) inside \(container.qualifiedName) is not an rdf:li")
            }
            try countValue()
            items.append(try value(ofPropertyElement: item))
        }
        return items
    }
}
