/// A packet that is well-formed XMP but not a valid edit. Messages are one line, without the
/// file name (the caller adds it).
package enum ChainError: Error, Equatable, CustomStringConvertible {
    case invalidNumber(property: String, text: String, reason: String)
    case expectedSimpleValue(property: String)
    case expectedArray(property: String)
    case malformedFilterString(String, reason: String)
    case malformedRedEyeCorrection(index: Int, reason: String)
    case tooMany(String, count: Int, limit: Int)

    /// One line, without the file name.
    package var description: String {
        switch self {
        case let .invalidNumber(property, text, reason):
            return "\(property) must be a finite number, got \"\(text.prefix(40))\" (\(reason))"
        case .expectedSimpleValue(let property):
            return "\(property) must be a simple value, not an array or struct"
        case .expectedArray(let property):
            return "\(property) must be an rdf:Seq, rdf:Bag or rdf:Alt array"
        case let .malformedFilterString(text, reason):
            return "aas:Filters item \"\(text.prefix(60))\" is malformed: \(reason)"
        case let .malformedRedEyeCorrection(index, reason):
            return "aas:RedEyeCorrections item \(index + 1) is malformed: \(reason)"
        case let .tooMany(what, count, limit):
            return "\(count) \(what), over the limit of \(limit)"
        }
    }
}
