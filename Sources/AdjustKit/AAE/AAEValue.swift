import Foundation

/// A JSON value from an AAE payload, kept as the file has it (the mapping layer interprets it).
///
/// Numbers are Doubles (JSON has one number type; every one is finite — the reader refuses others).
/// `true`/`false` stay booleans: older files write flags as 0/1, newer as booleans, and the
/// accessors on `AAEAdjustment` accept both where a flag is meant.
package indirect enum AAEValue: Sendable, Equatable {
    case number(Double)
    case bool(Bool)
    case string(String)
    case array([AAEValue])
    case object([String: AAEValue])
    case null

    /// The name of the value's JSON type, for error messages.
    package var typeName: String {
        switch self {
        case .number: return "a number"
        case .bool: return "a boolean"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .null: return "null"
        }
    }

    /// The number, or nil for any other type.
    package var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    /// The string, or nil for any other type.
    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The members, or nil for any other type.
    package var objectValue: [String: AAEValue]? { if case .object(let o) = self { return o } else { return nil } }
    /// The elements, or nil for any other type.
    package var arrayValue: [AAEValue]? { if case .array(let a) = self { return a } else { return nil } }

    /// A flag: `true`/`false`, or the numbers 1/0 that older files write; nil for anything else.
    package var flagValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(1): return true
        case .number(0): return false
        default: return nil
        }
    }

    /// A number as real files write one (aae-format.md §10): a JSON number, or a string holding a
    /// finite decimal number ("0.5"); nil for anything else (a boolean where a number is meant is
    /// a wrong type: the adjustment is not replayed).
    package var lenientNumber: Double? {
        switch self {
        case .number(let n): return n
        case .string(let s):
            guard s.count <= 40, let n = Double(s.trimmingCharacters(in: .whitespaces)), n.isFinite else { return nil }
            return n
        default: return nil
        }
    }

    /// A flag as real files write one: `flagValue`, or the strings "true"/"false"/"yes"/"no"/"1"/"0".
    package var lenientFlag: Bool? {
        if let flag = flagValue { return flag }
        switch stringValue?.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: return nil
        }
    }

    /// The member `key` of an object; nil when absent or when this is not an object.
    package subscript(key: String) -> AAEValue? { objectValue?[key] }
}

extension AAEValue: Decodable {
    /// Decodes any JSON value. Booleans are tried before numbers: JSONDecoder refuses to read a
    /// JSON number as Bool, so `1` stays a number and `true` a boolean.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([AAEValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: AAEValue].self))
        }
    }
}
