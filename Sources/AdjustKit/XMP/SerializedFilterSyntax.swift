import XMPParse

/// The text form of one `aas:Filters` item (xmp-format.md §6):
/// `Name` then `,Key=Value` pairs (optionally `, `); Value is a number, `[x y z]`, `"text"` or `nil`.
enum SerializedFilterSyntax {
    static func parse(_ text: String) throws(ChainError) -> SerializedFilter {
        var rest = Substring(text)
        func fail(_ reason: String) -> ChainError { .malformedFilterString(text, reason: reason) }

        let name = rest.prefix { $0 != "," }.trimmingSpaces
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw fail("the filter name must be letters, digits or _")
        }
        rest = rest.drop { $0 != "," }

        var parameters: [SerializedFilter.Parameter] = []
        while !rest.isEmpty {
            rest = rest.dropFirst().drop(while: \.isWhitespace)   // the "," and optional spaces
            guard let equals = rest.firstIndex(of: "=") else { throw fail("a parameter lacks '='") }
            let key = rest[..<equals].trimmingSpaces
            guard !key.isEmpty else { throw fail("a parameter has an empty key") }
            rest = rest[rest.index(after: equals)...].drop(while: \.isWhitespace)

            let value: SerializedFilter.Value
            switch rest.first {
            case "\"":
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { throw fail("unterminated string") }
                value = .text(String(body[..<close]))
                rest = body[body.index(after: close)...]
            case "[":
                guard let close = rest.firstIndex(of: "]") else { throw fail("unterminated vector") }
                let numbers = rest[rest.index(after: rest.startIndex)..<close].split(whereSeparator: \.isWhitespace)
                value = .vector(try numbers.map { item throws(ChainError) in try number(String(item), text) })
                rest = rest[rest.index(after: close)...]
            default:
                let token = rest.prefix { $0 != "," }.trimmingSpaces
                rest = rest.drop { $0 != "," }
                value = token == "nil" ? .null : .number(try number(token, text))
            }
            rest = rest.drop(while: \.isWhitespace)
            guard rest.isEmpty || rest.first == "," else { throw fail("unexpected text after \(key)") }
            parameters.append(.init(key: key, value: value))
        }
        return SerializedFilter(name: name, parameters: parameters)
    }

    static func format(_ filter: SerializedFilter, style: NumberStyle) -> String {
        filter.parameters.reduce(filter.name) { text, parameter in
            let value: String
            switch parameter.value {
            case .number(let number): value = style.format(number)
            case .vector(let numbers): value = "[" + numbers.map(style.format).joined(separator: " ") + "]"
            case .text(let string): value = "\"\(string)\""
            case .null: value = "nil"
            }
            return text + ",\(parameter.key)=\(value)"
        }
    }

    private static func number(_ token: String, _ text: String) throws(ChainError) -> Double {
        do { return try XMPNumber.parse(token) } catch {
            throw .malformedFilterString(text, reason: "\(error)")
        }
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
