import CLibXML2

/// A read-only view of a libxml2 element node, valid only while its document is alive
/// (inside `HardenedXMLReader.withRootElement`).
struct LibXMLElement {
    let node: xmlNodePtr

    /// An attribute of an element, already decoded to text.
    struct Attribute {
        /// Namespace URI, or nil for an unqualified attribute.
        let namespace: String?
        let localName: String
        let value: String
    }

    /// Namespace URI, or nil when the element is in no namespace.
    var namespace: String? {
        guard let href = node.pointee.ns?.pointee.href else { return nil }
        return String(cString: href)
    }

    var localName: String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: name)
    }

    /// `prefix:local` as written, for error messages only.
    var qualifiedName: String {
        guard let prefix = node.pointee.ns?.pointee.prefix else { return localName }
        return "\(String(cString: prefix)):\(localName)"
    }

    func isElement(namespace: String, localName: String) -> Bool {
        self.namespace == namespace && self.localName == localName
    }

    /// 1-based source line, for error messages.
    var line: Int { Int(xmlGetLineNo(node)) }

    var childElements: [LibXMLElement] {
        var elements: [LibXMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                elements.append(LibXMLElement(node: current))
            }
            child = current.pointee.next
        }
        return elements
    }

    /// Attributes in document order. Namespace declarations are not attributes in libxml2's tree,
    /// so `xmlns` and `xmlns:*` never appear here.
    var attributes: [Attribute] {
        var result: [Attribute] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let namespace = current.pointee.ns?.pointee.href.map { String(cString: $0) }
            let localName = current.pointee.name.map { String(cString: $0) } ?? ""
            result.append(Attribute(namespace: namespace, localName: localName,
                                    value: Self.concatenatedText(startingAt: current.pointee.children)))
            attribute = current.pointee.next
        }
        return result
    }

    func attributeValue(namespace: String, localName: String) -> String? {
        attributes.first { $0.namespace == namespace && $0.localName == localName }?.value
    }

    /// The text and CDATA directly inside this element; comments and processing instructions are
    /// skipped. Entity references cannot occur: without a DTD only the predefined entities and
    /// character references exist, and libxml2 always substitutes those.
    var directText: String {
        Self.concatenatedText(startingAt: node.pointee.children)
    }

    private static func concatenatedText(startingAt first: xmlNodePtr?) -> String {
        var text = ""
        var node = first
        while let current = node {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
               let content = current.pointee.content {
                text += String(cString: content)
            }
            node = current.pointee.next
        }
        return text
    }
}
