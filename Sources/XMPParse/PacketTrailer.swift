/// The trailer that closes an xpacket-wrapped XMP packet, `<?xpacket end="w"?>` (XMP
/// Specification Part 1, §7.3), as real files break it: a JPEG segment whose length stops a few
/// bytes short leaves it unclosed (`<?xpacket end="w"`, the camera-trap file of
/// metadata-extractor issue 308), and some writers follow it with bytes that are not XML. The
/// trailer carries nothing the packet needs, and exiftool reads such packets, so the parser
/// (`XMPPacketParser`) and the carry-over (`XMPRewriter`) read them without it
/// (xmp-format.md §1, §8).
public enum PacketTrailer {
    private static let pi = Array("<?xpacket".utf8)
    private static let endPI = Array("<?xpacket end".utf8)
    private static let close = Array("?>".utf8)

    /// What was wrong with a trailer that `repaired` cut off.
    public enum Repair: Equatable, Sendable {
        /// The trailer is unclosed: cut where it starts.
        case unclosed
        /// `count` bytes after the trailer's `?>` are not XML: cut after the `?>`.
        case junkAfter(count: Int)

        /// One line for a warning.
        public var description: String {
            switch self {
            case .unclosed: return "the packet's closing <?xpacket end…?> is cut short; read without it"
            case .junkAfter(let count): return "\(count) bytes after the packet's closing <?xpacket end…?> are not XML; read without them"
            }
        }
    }

    /// `utf8` (a packet's text, NUL padding already removed) without a broken trailer, and what
    /// was wrong; nil when its end holds no broken trailer. Only the end is touched: an
    /// unclosed `<?xpacket…` (or any prefix of one, down to `<`) with no `>` after it, or
    /// bytes after the last `<?xpacket end…?>`. The result is a prefix of `utf8`, so every limit
    /// checked on `utf8` holds for it. Callers use it only after the packet as written failed to
    /// parse, so that a well-formed packet is never read differently.
    public static func repaired(_ utf8: [UInt8]) -> (bytes: [UInt8], repair: Repair)? {
        // An unclosed PI at the very end: the last '<' with no '>' after it, starting like
        // "<?xpacket" (a JPEG segment cut short may stop anywhere inside it).
        if let lastOpen = utf8.lastIndex(of: UInt8(ascii: "<")), !utf8[lastOpen...].contains(UInt8(ascii: ">")) {
            let tail = utf8[lastOpen...]
            let known = min(tail.count, pi.count)
            if tail.prefix(known).elementsEqual(pi.prefix(known)) {
                return (Array(utf8[..<lastOpen]), .unclosed)
            }
            return nil
        }
        // A closed trailer followed by bytes that are not XML.
        guard let start = lastRange(of: endPI, in: utf8)?.lowerBound,
              let closing = firstRange(of: close, in: utf8[start...]) else { return nil }
        let end = closing.upperBound
        guard end < utf8.count else { return nil }
        return (Array(utf8[..<end]), .junkAfter(count: utf8.count - end))
    }

    private static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.count - needle.count
        while index >= 0 {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index..<(index + needle.count)
            }
            index -= 1
        }
        return nil
    }

    private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index..<(index + needle.count)
            }
            index += 1
        }
        return nil
    }
}
