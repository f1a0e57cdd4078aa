/// What a colour kernel does to a grey pixel (R = G = B), so that the program can tell whether
/// every pixel it leaves is grey (`ColourProgram.leavesGrey`): a JPEG of such a picture has
/// constant chroma, which the encoder then samples at half resolution (`JPEGChroma`).
///
/// `makesGrey` and `keepsGrey` are promises about bits, not about appearance: the kernel writes
/// the same `Float` to all three channels. A kernel that does not declare one is `mayColour`,
/// which only ever costs the smaller, cheaper file, never a pixel.
enum GreyEffect: Sendable {
    /// Every pixel out is grey, whatever came in (SmartBlackAndWhite).
    case makesGrey
    /// A grey pixel in is a grey pixel out (the same arithmetic on each channel).
    case keepsGrey
    /// Anything else: the default.
    case mayColour

    /// This effect, then `next`'s.
    func followed(by next: GreyEffect) -> GreyEffect { next == .keepsGrey ? self : next }
}
