/// A linear pre-parse check that keeps libxml2 2.9.14 away from its quadratic paths.
///
/// libxml2 checks each start tag's attributes and namespace declarations for duplicates pairwise,
/// appends each attribute to the tree by walking the attribute list, and resolves every prefix by
/// scanning all namespaces in scope. A 4 MiB packet of attributes on one element takes it many
/// minutes. The counts below are over-estimates that hold whatever libxml2 makes of the text:
///
/// * Attribute values may not contain a raw `<`, so all attributes of one start tag lie within a
///   `<`-free stretch after its `<`, each contributing an `=`. The most `=` between two `<` bytes
///   bounds the attributes (namespace declarations included) of any element.
/// * Every namespace declaration is an attribute named `xmlns` or `xmlns:…`, literally, so the
///   number of `xmlns` substrings bounds the declarations, and with them the namespaces in scope.
///
/// Runs on UTF-8 (see `XMLTextEncoding`), where multi-byte sequences never contain ASCII bytes.
enum MarkupComplexityScan {
    static func check(_ utf8: [UInt8], limits: XMPLimits) throws(XMPError) {
        let lessThan = UInt8(ascii: "<"), equals = UInt8(ascii: "="), letterX = UInt8(ascii: "x")
        let xmlns = Array("xmlns".utf8)
        var equalsSinceTagStart = 0
        var namespaceDeclarations = 0
        var index = 0
        while index < utf8.count {
            switch utf8[index] {
            case lessThan:
                equalsSinceTagStart = 0
            case equals:
                equalsSinceTagStart += 1
                guard equalsSinceTagStart <= limits.maxAttributesPerElement else {
                    throw .tooManyAttributes(limit: limits.maxAttributesPerElement)
                }
            case letterX where index + xmlns.count <= utf8.count
                && utf8[index..<(index + xmlns.count)].elementsEqual(xmlns):
                namespaceDeclarations += 1
                guard namespaceDeclarations <= limits.maxNamespaceDeclarations else {
                    throw .tooManyNamespaceDeclarations(limit: limits.maxNamespaceDeclarations)
                }
            default:
                break
            }
            index += 1
        }
    }
}
