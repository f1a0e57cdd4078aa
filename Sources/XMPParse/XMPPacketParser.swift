/// Parses untrusted XMP packets (standalone `.xmp` files, JPEG APP1 payloads, metadata dumps).
public enum XMPPacketParser {
    /// Parses an XMP packet into its top-level properties.
    ///
    /// Accepts an optional `<?xpacket?>` wrapper, an optional `x:xmpmeta` wrapper (or any other
    /// element around `rdf:RDF`), several `rdf:Description` elements, element and attribute forms,
    /// any prefixes, and trailing NUL padding. Simple values have surrounding XML white space
    /// trimmed. Rejects oversized input, any DOCTYPE or ENTITY declaration, malformed XML, nesting
    /// or value counts over `limits`, a missing `rdf:RDF`, and duplicate properties, each with the
    /// matching `XMPError`. A packet with an `rdf:RDF` but no properties is valid and empty.
    public static func parse(_ bytes: [UInt8], limits: XMPLimits = .default) throws(XMPError) -> XMPPacket {
        guard bytes.count <= limits.maxPacketBytes else {
            throw .packetTooLarge(bytes: bytes.count, limit: limits.maxPacketBytes)
        }
        if DeclarationScan.containsDeclaration(bytes) { throw .doctypeForbidden }

        // Some JPEG writers pad the APP1 payload with NULs, which libxml2 would call extra content.
        let end = (bytes.lastIndex { $0 != 0 }).map { $0 + 1 } ?? 0
        let content = end == bytes.count ? bytes : Array(bytes[..<end])

        return try HardenedXMLReader.withRootElement(of: content) { (root) throws(XMPError) -> XMPPacket in
            let rootElement = LibXMLElement(node: root)
            try RDFPropertyReader.checkDepth(from: rootElement, limit: limits.maxDepth)
            var reader = RDFPropertyReader(limits: limits)
            return try reader.readPacket(root: rootElement)
        }
    }
}
