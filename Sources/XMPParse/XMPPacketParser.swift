/// Parses untrusted XMP packets (standalone `.xmp` files, JPEG APP1 payloads, metadata dumps).
public enum XMPPacketParser {
    /// Parses an XMP packet into its top-level properties.
    ///
    /// Accepts an optional `<?xpacket?>` wrapper (whose closing PI may be cut short or followed by
    /// bytes that are not XML: read without them, with a warning, `PacketTrailer`), an optional `x:xmpmeta` wrapper (or any other
    /// element around `rdf:RDF`), several `rdf:Description` elements, element and attribute forms,
    /// any prefixes, and trailing NUL padding; UTF-8, UTF-16 or UTF-32 text (by byte order mark
    /// or leading `<?`; a declared encoding is otherwise ignored). Simple values have surrounding
    /// XML white space trimmed. Rejects oversized input, any DOCTYPE or ENTITY declaration,
    /// malformed XML, nesting, value, attribute or namespace counts over `limits`, a missing
    /// `rdf:RDF`, and duplicate properties, each with the matching `XMPError`. A packet with an
    /// `rdf:RDF` but no properties is valid and empty.
    public static func parse(_ bytes: [UInt8], limits: XMPLimits = .default) throws(XMPError) -> XMPPacket {
        guard bytes.count <= limits.maxPacketBytes else {
            throw .packetTooLarge(bytes: bytes.count, limit: limits.maxPacketBytes)
        }
        if DeclarationScan.containsDeclaration(bytes) { throw .doctypeForbidden }
        let utf8 = try XMLTextEncoding.utf8(from: bytes)
        // Some JPEG writers pad the APP1 payload with NULs, which libxml2 would call extra content.
        let end = (utf8.lastIndex { $0 != 0 }).map { $0 + 1 } ?? 0
        let content = end == utf8.count ? utf8 : Array(utf8[..<end])
        try MarkupComplexityScan.check(content, limits: limits)

        do {
            return try read(content, limits: limits)
        } catch .malformedXML(let line, let message) {
            // A broken xpacket trailer (PacketTrailer): read the packet without it, as exiftool
            // does, and say so; any other malformed packet is refused as it was.
            guard let (repaired, repair) = PacketTrailer.repaired(content) else {
                throw .malformedXML(line: line, message: message)
            }
            var packet: XMPPacket
            do {
                packet = try read(repaired, limits: limits)
            } catch .malformedXML {
                throw .malformedXML(line: line, message: message)
            }
            packet.warnings.insert(repair.description, at: 0)
            return packet
        }
    }

    private static func read(_ content: [UInt8], limits: XMPLimits) throws(XMPError) -> XMPPacket {
        do {
            return try HardenedXMLReader.withRootElement(ofUTF8: content) { (root) throws(XMPError) -> XMPPacket in
                let rootElement = LibXMLElement(node: root)
                try RDFPropertyReader.checkDepth(from: rootElement, limit: limits.maxDepth)
                var reader = RDFPropertyReader(limits: limits)
                return try reader.readPacket(root: rootElement)
            }
        } catch .malformedXML(_, let message) where message.hasPrefix("Excessive depth in document") {
            // libxml2 stops at 256 levels on its own (we never set XML_PARSE_HUGE), before our
            // walk can count: the same problem, said the same way.
            throw .nestingTooDeep(limit: min(limits.maxDepth, 255))
        }
    }
}
