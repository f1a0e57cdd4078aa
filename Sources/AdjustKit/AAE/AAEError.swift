/// Everything that can go wrong while reading an AAE sidecar.
///
/// `description` is one short line without a file name, so callers can prefix the file themselves.
/// Text taken from the file is quoted and shortened, so the line stays short whatever the input.
package enum AAEError: Error, Equatable, CustomStringConvertible {
    /// The file exceeds `AAELimits.maxFileBytes`.
    case fileTooLarge(bytes: Int, limit: Int)
    /// The bytes are neither an XML nor a binary property list.
    case notAPropertyList
    /// A property list that Foundation (or the pre-scan) could not read: truncated, damaged,
    /// or of a root type other than a dictionary.
    case malformedPropertyList(String)
    /// Arrays and dictionaries nested deeper than `AAELimits.maxPlistDepth`, or a binary property
    /// list whose objects refer to themselves (a cycle).
    case plistNestingTooDeep(limit: Int)
    /// A binary property list declaring more objects than `AAELimits.maxPlistObjects`.
    case tooManyPlistObjects(count: Int, limit: Int)
    /// A required key of the property list is missing or has the wrong type.
    case missingPlistKey(String)
    /// The `adjustmentFormatIdentifier` is not `com.apple.photo`: an edit adjust cannot replay.
    case unsupportedFormat(identifier: String, editor: String)
    /// `adjustmentData` exceeds `AAELimits.maxCompressedBytes`.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// `adjustmentData` is not a complete raw DEFLATE stream (zlib's message).
    case payloadNotDeflate(String)
    /// The payload inflates to more than `AAELimits.maxInflatedBytes`.
    case inflatedTooLarge(limit: Int)
    /// The inflated payload is not JSON (the parser's or the scan's message).
    case payloadNotJSON(String)
    /// JSON nested deeper than `AAELimits.maxJSONDepth`.
    case jsonNestingTooDeep(limit: Int)
    /// More JSON values than `AAELimits.maxJSONValues`.
    case tooManyJSONValues(limit: Int)
    /// One JSON array or object with more entries than `AAELimits.maxContainerCount`.
    case containerTooLarge(limit: Int)
    /// A JSON number that is longer than `AAELimits.maxNumberLength` or not finite as a Double.
    case numberOutOfRange(String)
    /// More adjustments than `AAELimits.maxAdjustments`.
    case tooManyAdjustments(count: Int, limit: Int)
    /// The payload lacks a required field, or has it with the wrong type (`path` as in
    /// `metadata.masterWidth` or `adjustments[2].identifier`).
    case malformedPayload(path: String, problem: String)
    /// A setting that an accessor asked for is not there.
    case missingSetting(adjustment: String, key: String)
    /// A setting has another type than the accessor asked for.
    case wrongSettingType(adjustment: String, key: String, expected: String, found: String)
    /// A pixel-valued setting (or metadata size) beyond ±`AAELimits.maxPixelValue`.
    case pixelValueOutOfRange(adjustment: String, key: String, value: Double, limit: Double)

    /// One short line describing the error, without a file name.
    package var description: String {
        switch self {
        case .fileTooLarge(let bytes, let limit):
            return "AAE file is \(bytes) bytes, over the \(limit)-byte limit"
        case .notAPropertyList:
            return "AAE file is neither an XML nor a binary property list"
        case .malformedPropertyList(let detail):
            return "AAE file is not a readable property list: \(Self.shortened(detail))"
        case .plistNestingTooDeep(let limit):
            return "AAE property list nests deeper than \(limit) levels"
        case .tooManyPlistObjects(let count, let limit):
            return "AAE property list has \(count) objects, over the limit of \(limit)"
        case .missingPlistKey(let key):
            return "AAE property list has no \(key)"
        case .unsupportedFormat(let identifier, let editor):
            return "AAE edit in format \(Self.quoted(identifier)) by \(Self.quoted(editor)) cannot be replayed "
                + "(only com.apple.photo can)"
        case .payloadTooLarge(let bytes, let limit):
            return "AAE adjustmentData is \(bytes) bytes, over the \(limit)-byte limit"
        case .payloadNotDeflate(let detail):
            return "AAE adjustmentData is not raw DEFLATE: \(Self.shortened(detail))"
        case .inflatedTooLarge(let limit):
            return "AAE adjustmentData inflates to more than \(limit) bytes"
        case .payloadNotJSON(let detail):
            return "AAE adjustmentData is not JSON: \(Self.shortened(detail))"
        case .jsonNestingTooDeep(let limit):
            return "AAE adjustment JSON nests deeper than \(limit) levels"
        case .tooManyJSONValues(let limit):
            return "AAE adjustment JSON has more than \(limit) values"
        case .containerTooLarge(let limit):
            return "AAE adjustment JSON has an array or object with more than \(limit) entries"
        case .numberOutOfRange(let text):
            return "AAE adjustment JSON has a number out of range: \(Self.quoted(text))"
        case .tooManyAdjustments(let count, let limit):
            return "AAE edit has \(count) adjustments, over the limit of \(limit)"
        case .malformedPayload(let path, let problem):
            return "AAE adjustment JSON: \(Self.shortened(path)) \(problem)"
        case .missingSetting(let adjustment, let key):
            return "AAE adjustment \(Self.quoted(adjustment)) has no setting \(Self.quoted(key))"
        case .wrongSettingType(let adjustment, let key, let expected, let found):
            return "AAE adjustment \(Self.quoted(adjustment)) setting \(Self.quoted(key)) must be \(expected), got \(found)"
        case .pixelValueOutOfRange(let adjustment, let key, let value, let limit):
            return "AAE adjustment \(Self.quoted(adjustment)) setting \(Self.quoted(key)) is \(value), "
                + "beyond the ±\(limit) pixel limit"
        }
    }

    /// Quotes untrusted text (shortened) so that the description stays one short line.
    static func quoted(_ text: String) -> String { shortened(text).debugDescription }

    /// The first 60 characters, with line breaks and other controls replaced, so that untrusted
    /// or library text stays on one short line.
    static func shortened(_ text: String) -> String {
        let limit = 60
        let flat = String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }
}
