import CJPEGRegion
import Foundation

/// Encodes a JPEG row by row through libjpeg's API, so that rows can be compressed as they are
/// rendered instead of after the whole image exists. The bytes are those `JPEGEncoder` writes
/// for the same opaque pixels (without restart markers, unless asked for): baseline, its chroma
/// sampled as `JPEGChroma` says, set up as TurboJPEG's `tjCompress2` does. One thread at a time.
final class JPEGRowWriter {
    /// Width × height of the image being written.
    let size: PixelSize
    /// The row the next `write` starts at.
    private(set) var nextRow = 0

    private let encoder: OpaquePointer

    /// The bytes of one pixel of the rows `write` takes: 3 (RGB), or 4 (RGBX, the fourth byte
    /// ignored: an opaque RGBA row goes in as it is, without a copy).
    let bytesPerPixel: Int

    /// Starts a `size` image at `quality` (1…100), every pixel of it grey if `greyPicture`
    /// (`JPEGChroma`); with `restartEachMCURow`, a restart marker after every row of MCUs
    /// (`StripedJPEGEncoder` joins stripes at them). The file is the same for the same RGB,
    /// whatever `bytesPerPixel`.
    init(size: PixelSize, quality: Int, greyPicture: Bool = false, restartEachMCURow: Bool = false,
         bytesPerPixel: Int = 3) throws(EncodeError) {
        precondition(bytesPerPixel == 3 || bytesPerPixel == 4, "\(bytesPerPixel) bytes a pixel")
        var message = [CChar](repeating: 0, count: 256)
        guard let encoder = jr_encoder_open(Int32(size.width), Int32(size.height), Int32(quality),
                                            JPEGChroma(quality: quality, greyPicture: greyPicture) == .full ? 1 : 0,
                                            restartEachMCURow ? 1 : 0,
                                            bytesPerPixel == 4 ? 1 : 0, &message, message.count) else {
            throw EncodeError(description: "JPEG encoding failed: \(CLibraryMessage.text(message))")
        }
        (self.size, self.encoder, self.bytesPerPixel) = (size, encoder, bytesPerPixel)
    }

    deinit { jr_encoder_close(encoder) }

    /// Compresses the next `count` rows (`bytesPerPixel` bytes a pixel, `size.width` a row),
    /// rows `stride` bytes apart.
    func write(rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws(EncodeError) {
        precondition(count >= 0 && count <= size.height - nextRow, "\(count) rows from row \(nextRow) of \(size.height)")
        precondition(stride >= size.width * bytesPerPixel, "stride \(stride) under \(size.width) pixels")
        guard jr_encoder_write(encoder, rows, stride, Int32(count)) == Int32(JR_OK) else { throw failure() }
        nextRow += count
    }

    /// The finished file, once every row has been written.
    func finish() throws(EncodeError) -> [UInt8] {
        var bytes: UnsafePointer<UInt8>? = nil
        var count = 0
        guard jr_encoder_finish(encoder, &bytes, &count) == Int32(JR_OK), let bytes else { throw failure() }
        return Array(UnsafeBufferPointer(start: bytes, count: count))
    }

    private func failure() -> EncodeError {
        EncodeError(description: "JPEG encoding failed: \(CLibraryMessage.text(jr_encoder_message(encoder)))")
    }
}
