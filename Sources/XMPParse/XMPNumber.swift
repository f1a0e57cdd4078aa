/// Reads XMP numeric text, which writers produce with C `%g` (`-331`, `0.0919118`, `1.23457e+06`).
public enum XMPNumber {
    /// Parses a decimal number, independent of the process locale.
    ///
    /// Surrounding XML white space is ignored. Accepted: `[+-]digits[.digits][(e|E)[+-]digits]`,
    /// including `.5` and `5.` forms. Rejected with `XMPError.notANumber`: empty text, `nan`,
    /// `inf`, hexadecimal, digit grouping, decimal commas and trailing garbage — all of which
    /// Swift's `Double(_:)` or `strtod` would partly accept. Values that overflow to ±infinity are
    /// rejected with `XMPError.nonFiniteNumber`; underflow to zero is accepted.
    public static func parse(_ text: String) throws(XMPError) -> Double {
        let candidate = XMLWhitespace.trimmed(text)
        guard isDecimalLiteral(candidate.utf8), let value = Double(candidate) else {
            throw .notANumber(text)
        }
        guard value.isFinite else { throw .nonFiniteNumber(text) }
        return value
    }

    /// Validates the grammar ourselves because `Double(_:)` also accepts `nan`, `inf` and hex.
    private static func isDecimalLiteral(_ bytes: String.UTF8View) -> Bool {
        var index = bytes.startIndex
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func skipDigits() -> Int {
            var count = 0
            while index < bytes.endIndex, isDigit(bytes[index]) {
                count += 1
                index = bytes.index(after: index)
            }
            return count
        }
        func skipSign() {
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index = bytes.index(after: index)
            }
        }

        skipSign()
        var mantissaDigits = skipDigits()
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            mantissaDigits += skipDigits()
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            skipSign()
            guard skipDigits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}
