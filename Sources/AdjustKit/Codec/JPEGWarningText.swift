/// The one-line warnings a decode reports for libjpeg's warnings it let through (the message is
/// libjpeg's own text as `CLibraryMessage` gives it, e.g. "Corrupt JPEG data: 2 extraneous bytes
/// before marker 0xdb").
enum JPEGWarningText {
    /// A warning that leaves every pixel intact (see `jr_is_harmless` in jpeg_region.c).
    static func harmless(_ message: String, count: Int) -> String {
        let more = count > 1 ? " (and \(count - 1) more of this kind)" : ""
        return "harmless JPEG warning, pixels intact: \(message)\(more)"
    }

    /// Damaged or missing image data, rendered because --tolerate-jpeg-warnings asked for it.
    static func damage(_ message: String) -> String {
        "the image data is damaged, rendered anyway (--tolerate-jpeg-warnings): \(message)"
    }
}
