/// Why a JPEG could not be read. Messages are one line, without the file name.
package enum DecodeError: Error, Equatable, CustomStringConvertible {
    case notAJPEG
    case corrupt(String)
    case tooLarge(PixelSize, maxSide: Int, maxPixels: Int)
    case unsupportedColorspace(String)
    case unsupportedScale(DecodeScale)

    /// One line, without the file name.
    package var description: String {
        switch self {
        case .notAJPEG: return "not a JPEG file"
        case .corrupt(let message): return "corrupt or truncated JPEG: \(message)"
        case let .tooLarge(size, maxSide, maxPixels):
            return "JPEG is \(size) pixels, over the limit of \(maxSide) per side and \(maxPixels) in all"
        case .unsupportedColorspace(let name): return "\(name) JPEGs are not supported"
        case .unsupportedScale(let scale): return "libjpeg-turbo cannot decode at scale \(scale)"
        }
    }
}
