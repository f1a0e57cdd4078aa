/// Reads XMP boolean text the way Core Image does.
public enum XMPBool {
    /// True iff `text`, with surrounding XML white space removed, is `True` in any letter case;
    /// everything else (including `1` and `yes`) is false.
    public static func parse(_ text: String) -> Bool {
        let candidate = XMLWhitespace.trimmed(text)
        // ASCII-only comparison: Unicode case folding could map exotic letters onto "true".
        let expected = Array("true".utf8)
        let actual = Array(candidate.utf8)
        guard actual.count == expected.count else { return false }
        return zip(actual, expected).allSatisfy { pair in
            let (byte, letter) = pair
            return byte == letter || byte == letter - 0x20
        }
    }
}
