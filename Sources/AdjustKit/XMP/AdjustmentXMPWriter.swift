/// Accumulates the property elements of the one `rdf:Description` of a written packet, in the
/// iOS writer's style (element form, 3-space indent), and the namespaces they use.
struct AdjustmentXMPWriter {
    let numberStyle: NumberStyle
    private(set) var lines: [String] = []
    /// Prefix → namespace URI of every prefix written; `aas` always.
    private(set) var namespaces = ["aas": AdjustmentNamespace.aas]
    private let indent = String(repeating: " ", count: 9)

    init(numberStyle: NumberStyle) { self.numberStyle = numberStyle }

    /// Declares `prefix` for the packet (e.g. `crs`, or a red-eye struct namespace).
    mutating func declare(_ prefix: String, _ uri: String) { namespaces[prefix] = uri }

    mutating func numbers(_ names: [String], _ values: [Double], prefix: String = "aas") {
        for (name, value) in zip(names, values) { text(name, numberStyle.format(value), prefix: prefix) }
    }

    mutating func text(_ name: String, _ value: String, prefix: String = "aas") {
        lines.append("\(indent)<\(prefix):\(name)>\(escaped(value))</\(prefix):\(name)>")
    }

    mutating func textArray(_ name: String, _ items: [String]) {
        lines.append("\(indent)<aas:\(name)>")
        lines.append("\(indent)   <rdf:Seq>")
        for item in items { lines.append("\(indent)      <rdf:li>\(escaped(item))</rdf:li>") }
        lines.append("\(indent)   </rdf:Seq>")
        lines.append("\(indent)</aas:\(name)>")
    }

    mutating func structArray(_ name: String, _ items: [(prefix: String, fields: [(key: String, value: String)])]) {
        lines.append("\(indent)<aas:\(name)>")
        lines.append("\(indent)   <rdf:Seq>")
        for item in items {
            lines.append("\(indent)      <rdf:li rdf:parseType=\"Resource\">")
            for field in item.fields {
                lines.append("\(indent)         <\(item.prefix):\(field.key)>\(escaped(field.value))</\(item.prefix):\(field.key)>")
            }
            lines.append("\(indent)      </rdf:li>")
        }
        lines.append("\(indent)   </rdf:Seq>")
        lines.append("\(indent)</aas:\(name)>")
    }

    private func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
