import CJPEGRegion
import Foundation

/// Decodes a window of a JPEG — some columns, from some row down, at a DCT scale n/8 — through
/// libjpeg's scanline API (`jpeg_crop_scanline`, `jpeg_skip_scanlines`), so that an edit that
/// needs part of the picture decodes little more than that part, and a baseline file is read no
/// further than the last row asked for.
///
/// The pixels delivered are byte-identical to the same pixels of `JPEGDecoder.decode(_:scale:)`
/// (libjpeg-turbo both ways, same IDCT and upsampling): the shim has libjpeg decode an iMCU more
/// on each side and delivers only the columns asked for (jpeg_region.c says why).
///
/// Size limits are not checked here: read the header with `JPEGDecoder.header(of:)` first.
/// Reading stops where the caller stops, so damage below the last row read goes unnoticed in
/// baseline files (progressive files are read whole when decoding starts). One thread at a time.
final class JPEGRegionReader: @unchecked Sendable {
    /// The whole image at the reader's scale: ⌈W·n/8⌉ × ⌈H·n/8⌉, as `DecodeScale.decodedSize(of:)`.
    let decodedSize: PixelSize
    /// The first column delivered, in the decoded image.
    let columnOffset: Int
    /// Columns delivered per row, covering the columns asked for.
    let width: Int
    /// The row the next `readRows` starts at, in the decoded image.
    private(set) var nextRow: Int

    private let decoder: OpaquePointer
    /// libjpeg reads from the file between calls, so its address must last as long as the
    /// reader: a copy of an array (`init(jpeg: [UInt8], …)`), or nil when the caller vouches for
    /// the bytes (`init(bytes:…)`).
    private let ownedCopy: UnsafeMutableBufferPointer<UInt8>?

    /// Reads the header and starts decoding `columns` of the image decoded at `scale`, from row
    /// `firstRow` (the rows above it are skipped by the first `readRows`, on the thread that
    /// decodes). Warnings (corrupt data libjpeg can paper over) fail unless `tolerateWarnings`;
    /// progressive files stop after 500 scans unless `allowManyScans`. CMYK and YCCK are refused.
    /// The file is copied (a Swift array promises an address only inside `withUnsafeBufferPointer`).
    convenience init(jpeg: [UInt8], scale: DecodeScale = .full, columns: Range<Int>? = nil, firstRow: Int = 0,
                     tolerateWarnings: Bool = false, allowManyScans: Bool = false) throws(DecodeError) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: jpeg.count)
        _ = copy.initialize(from: jpeg)
        try self.init(bytes: UnsafeBufferPointer(copy), owned: copy, scale: scale, columns: columns, firstRow: firstRow,
                      tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
    }

    /// As `init(jpeg:…)`, reading `bytes` in place: they must stay valid and unchanged until the
    /// reader is gone (the fused renderer decodes inside the file's `withUnsafeBufferPointer`).
    convenience init(bytes: UnsafeBufferPointer<UInt8>, scale: DecodeScale = .full, columns: Range<Int>? = nil,
                     firstRow: Int = 0, tolerateWarnings: Bool = false, allowManyScans: Bool = false) throws(DecodeError) {
        try self.init(bytes: bytes, owned: nil, scale: scale, columns: columns, firstRow: firstRow,
                      tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
    }

    private init(bytes jpeg: UnsafeBufferPointer<UInt8>, owned: UnsafeMutableBufferPointer<UInt8>?, scale: DecodeScale,
                 columns: Range<Int>?, firstRow: Int, tolerateWarnings: Bool, allowManyScans: Bool) throws(DecodeError) {
        ownedCopy = owned
        guard jpeg.count >= 3, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { owned?.deallocate(); throw .notAJPEG }
        guard JPEGDecoder.supportedScales.contains(scale) else { owned?.deallocate(); throw .unsupportedScale(scale) }
        var status: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard let decoder = jr_decoder_open(jpeg.baseAddress, jpeg.count, tolerateWarnings ? 1 : 0,
                                            allowManyScans ? 0 : 1, &status, &message, message.count) else {
            owned?.deallocate()
            if status == Int32(JR_CMYK) { throw .unsupportedColorspace("CMYK") }
            throw .corrupt(Self.trimmed(String(cString: message)))
        }
        self.decoder = decoder
        let stored = PixelSize(width: Int(jr_decoder_width(decoder)), height: Int(jr_decoder_height(decoder)))
        decodedSize = scale.decodedSize(of: stored)
        let columns = columns ?? 0..<decodedSize.width
        precondition(columns.lowerBound >= 0 && columns.upperBound <= decodedSize.width && !columns.isEmpty,
                     "columns \(columns) outside the decoded width \(decodedSize.width)")
        precondition((0...decodedSize.height).contains(firstRow), "first row \(firstRow) outside 0...\(decodedSize.height)")
        var offset: Int32 = 0, delivered: Int32 = 0
        let started = jr_decoder_start(decoder, Int32(scale.numerator), Int32(columns.lowerBound),
                                       Int32(columns.count), Int32(firstRow), &offset, &delivered)
        (columnOffset, width, nextRow) = (Int(offset), Int(delivered), firstRow)
        guard started == Int32(JR_OK) else { throw .corrupt(Self.message(decoder)) }
    }

    deinit {
        jr_decoder_close(decoder)
        ownedCopy?.deallocate()
    }

    /// Decodes the next `count` rows (at most those left) into `destination`, `width` RGB pixels
    /// each, rows `stride` bytes apart.
    func readRows(into destination: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) throws(DecodeError) {
        precondition(count >= 0 && count <= decodedSize.height - nextRow, "\(count) rows from row \(nextRow) of \(decodedSize.height)")
        precondition(stride >= width * 3, "stride \(stride) under \(width) pixels")
        guard jr_decoder_read(decoder, destination, stride, Int32(count)) == Int32(JR_OK) else {
            throw .corrupt(Self.message(decoder))
        }
        nextRow += count
    }

    private static func message(_ decoder: OpaquePointer) -> String {
        trimmed(String(cString: jr_decoder_message(decoder)))
    }

    private static func trimmed(_ text: String) -> String {
        let message = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? "unknown error" : message
    }
}
