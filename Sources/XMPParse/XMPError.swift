/// Everything that can go wrong while locating, parsing or interpreting an XMP packet.
///
/// `description` is one short line without a file name, so callers can prefix the file themselves.
public enum XMPError: Error, Equatable, CustomStringConvertible {
    /// The packet exceeds `XMPLimits.maxPacketBytes`.
    case packetTooLarge(bytes: Int, limit: Int)
    /// The packet contains a DOCTYPE or ENTITY declaration; DTDs are the vehicle for entity
    /// expansion and external-entity attacks and have no place in XMP.
    case doctypeForbidden
    /// libxml2 rejected the document (including namespace errors such as an unbound prefix).
    case malformedXML(line: Int, message: String)
    /// Elements are nested deeper than `XMPLimits.maxDepth`.
    case nestingTooDeep(limit: Int)
    /// The packet holds more values than `XMPLimits.maxProperties`.
    case tooManyProperties(limit: Int)
    /// An element carries more attributes than `XMPLimits.maxAttributesPerElement`.
    case tooManyAttributes(limit: Int)
    /// The packet declares more namespaces than `XMPLimits.maxNamespaceDeclarations`.
    case tooManyNamespaceDeclarations(limit: Int)
    /// The packet starts like UTF-16 or UTF-32 (by byte order mark or XML declaration pattern)
    /// but does not decode as such.
    case invalidEncoding(String)
    /// The document contains no `rdf:RDF` element.
    case noRDF
    /// Well-formed XML whose RDF does not follow the XMP serialization rules.
    case malformedRDF(String)
    /// The same property (or struct field) appears twice.
    case duplicateProperty(XMPName)
    /// The bytes do not start with a JPEG SOI marker.
    case notAJPEG
    /// Where a JPEG marker was expected, the byte at `offset` is not 0xFF (or is an invalid marker).
    case badJPEGMarker(offset: Int)
    /// The JPEG segment whose marker starts at `offset` runs past the end of the data, or the
    /// data ends before the start-of-scan marker.
    case truncatedJPEGSegment(offset: Int)
    /// The JPEG has no standard XMP APP1 segment (for callers that require one).
    case noXMPInJPEG
    /// The metadata dump exceeds its size cap.
    case metadataDumpTooLarge(bytes: Int, limit: Int)
    /// The metadata dump could not be read as JSON or as a property list, or its root is not a
    /// dictionary or array.
    case unreadableMetadataDump
    /// No dictionary in the metadata dump has an `AdjustmentXMP` key holding a string or data.
    case noAdjustmentXMPKey
    /// The text is not a decimal number.
    case notANumber(String)
    /// The text is a decimal number too large to represent as a finite Double.
    case nonFiniteNumber(String)

    /// One short line describing the error, without a file name.
    public var description: String {
        switch self {
        case .packetTooLarge(let bytes, let limit):
            return "XMP packet is \(bytes) bytes, over the \(limit)-byte limit"
        case .doctypeForbidden:
            return "DOCTYPE declarations are not allowed in XMP"
        case .malformedXML(let line, let message):
            return "malformed XML at line \(line): \(message)"
        case .nestingTooDeep(let limit):
            return "XMP nesting deeper than \(limit) levels"
        case .tooManyProperties(let limit):
            return "XMP packet has more than \(limit) values"
        case .tooManyAttributes(let limit):
            return "an XML element in the XMP packet has more than \(limit) attributes"
        case .tooManyNamespaceDeclarations(let limit):
            return "XMP packet declares more than \(limit) namespaces"
        case .invalidEncoding(let encoding):
            return "XMP packet is not valid \(encoding) text"
        case .noRDF:
            return "no rdf:RDF element in XMP packet"
        case .malformedRDF(let detail):
            return "malformed RDF: \(detail)"
        case .duplicateProperty(let name):
            return "property \(name) appears twice"
        case .notAJPEG:
            return "not a JPEG file"
        case .badJPEGMarker(let offset):
            return "invalid JPEG marker at offset \(offset)"
        case .truncatedJPEGSegment(let offset):
            return "truncated JPEG segment at offset \(offset)"
        case .noXMPInJPEG:
            return "no XMP packet in JPEG"
        case .metadataDumpTooLarge(let bytes, let limit):
            return "metadata dump is \(bytes) bytes, over the \(limit)-byte limit"
        case .unreadableMetadataDump:
            return "metadata dump is neither a property list nor JSON"
        case .noAdjustmentXMPKey:
            return "no AdjustmentXMP key in metadata dump"
        case .notANumber(let text):
            return "not a number: \(Self.quoted(text))"
        case .nonFiniteNumber(let text):
            return "non-finite number: \(Self.quoted(text))"
        }
    }

    /// Quotes untrusted text so that the description stays one short line whatever the input.
    private static func quoted(_ text: String) -> String {
        let limit = 40
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return shown.debugDescription
    }
}
