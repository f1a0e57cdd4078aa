/// A single linear pass over the inflated payload that enforces `AAELimits`' JSON limits before
/// the JSON parser sees the text: nesting depth, value count, entries per container, and the
/// length and finiteness of every number. Foundation's JSONDecoder recurses once per level and
/// builds every value it reads, so these must hold before it starts.
///
/// The scan checks only what it needs for the limits (strings are skipped with their escapes,
/// brackets must pair up); everything else about JSON syntax is the decoder's job.
enum AAEJSONScan {
    /// Throws the first limit the text breaks; returns normally when the decoder may have it.
    static func check(_ text: [UInt8], limits: AAELimits) throws(AAEError) {
        // One entry per open container: its closing bracket and its entry count so far.
        var open: [(close: UInt8, entries: Int)] = []
        var values = 0
        var index = 0
        let count = text.count

        func countValue() throws(AAEError) {
            values += 1
            guard values <= limits.maxJSONValues else { throw .tooManyJSONValues(limit: limits.maxJSONValues) }
        }

        while index < count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                try countValue()
                guard open.count < limits.maxJSONDepth else { throw .jsonNestingTooDeep(limit: limits.maxJSONDepth) }
                open.append((byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"), 0))
                index += 1
                // An entry begins at the first non-space byte unless the container is empty.
                var next = index
                while next < count, isJSONSpace(text[next]) { next += 1 }
                if next < count, text[next] != open[open.count - 1].close {
                    open[open.count - 1].entries = 1
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let top = open.popLast(), top.close == byte else {
                    throw .payloadNotJSON("unbalanced \(Character(Unicode.Scalar(byte))) at byte \(index)")
                }
                index += 1
            case UInt8(ascii: ","):
                guard !open.isEmpty else { throw .payloadNotJSON("comma outside any array or object at byte \(index)") }
                open[open.count - 1].entries += 1
                guard open[open.count - 1].entries <= limits.maxContainerCount else {
                    throw .containerTooLarge(limit: limits.maxContainerCount)
                }
                index += 1
            case UInt8(ascii: "\""):
                try countValue()
                index += 1
                while index < count, text[index] != UInt8(ascii: "\"") {
                    index += text[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < count else { throw .payloadNotJSON("unterminated string") }
                index += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try countValue()
                let start = index
                while index < count, isNumberByte(text[index]) { index += 1 }
                let literal = String(decoding: text[start..<index], as: UTF8.self)
                guard index - start <= limits.maxNumberLength else {
                    throw .numberOutOfRange(String(literal.prefix(20)) + "… (\(index - start) characters)")
                }
                guard let value = Double(literal) else { throw .payloadNotJSON("bad number \(literal)") }
                guard value.isFinite else { throw .numberOutOfRange(literal) }
            default:
                if isJSONSpace(byte) || byte == UInt8(ascii: ":") {
                    index += 1
                } else if isLetter(byte) {
                    // true, false or null (the decoder refuses other words): one value.
                    try countValue()
                    while index < count, isLetter(text[index]) { index += 1 }
                } else {
                    throw .payloadNotJSON("unexpected byte 0x\(String(byte, radix: 16)) at byte \(index)")
                }
            }
        }
        guard open.isEmpty else { throw .payloadNotJSON("unterminated array or object") }
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
             UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
