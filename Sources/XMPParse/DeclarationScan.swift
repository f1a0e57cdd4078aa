/// A cheap pre-parse filter for markup declarations in single-byte-compatible encodings.
///
/// It only spares libxml2 the obvious attacks; the SAX hooks in `HardenedXMLReader` are the real
/// guard, since this scan misses UTF-16 input. It may also reject a harmless packet that merely
/// mentions `<!DOCTYPE` inside a comment, which no real XMP writer produces.
enum DeclarationScan {
    private static let forbiddenMarkers: [[UInt8]] = [Array("<!DOCTYPE".utf8), Array("<!ENTITY".utf8)]

    /// Whether `bytes` contains `<!DOCTYPE` or `<!ENTITY` anywhere.
    static func containsDeclaration(_ bytes: [UInt8]) -> Bool {
        forbiddenMarkers.contains { contains(bytes, $0) }
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let firstByte = needle.first, bytes.count >= needle.count else { return false }
        var start = 0
        while start + needle.count <= bytes.count {
            if bytes[start] == firstByte, bytes[start..<(start + needle.count)].elementsEqual(needle) {
                return true
            }
            start += 1
        }
        return false
    }
}
