import Foundation

/// The one line a C codec shim leaves in its message buffer (libjpeg's and libpng's own text),
/// as an error shows it: without the surrounding whitespace, and "unknown error" where the
/// library said nothing.
enum CLibraryMessage {
    /// The NUL-terminated text in `buffer` (all of it where there is no NUL).
    static func text(_ buffer: [CChar]) -> String { text(bytes: buffer.lazy.map { UInt8(bitPattern: $0) }) }

    /// The NUL-terminated text in `bytes` (a library's fixed-size message field).
    static func text(bytes: some Sequence<UInt8>) -> String {
        line(String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
    }

    /// The NUL-terminated text at `pointer`.
    static func text(_ pointer: UnsafePointer<CChar>) -> String { line(String(cString: pointer)) }

    private static func line(_ text: String) -> String {
        let message = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? "unknown error" : message
    }
}
