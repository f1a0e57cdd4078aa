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
/// CMYK and YCCK files are delivered as RGB too: the shim hands over CMYK rows, converted here
/// by `CMYKConversion` (the file's ICC profile through Little CMS, or the naive formula).
///
/// libjpeg's warnings are sorted by what they mean (`jpeg_region.c`, `jr_is_harmless`):
/// harmless ones never stop the decode and are reported in `headerWarnings`; damaged or missing
/// image data fails the decode unless `tolerateWarnings`, and is then reported in
/// `headerWarnings` or `dataWarnings`, by where it was found.
///
/// Size limits are not checked here: read the header with `JPEGDecoder.header(of:)` first.
/// Reading stops where the caller stops, so damage below the last row read goes unnoticed in
/// baseline files (progressive files are read whole when decoding starts). One thread at a time.
final class JPEGRegionReader {
    /// The whole image at the reader's scale: ⌈W·n/8⌉ × ⌈H·n/8⌉, as `DecodeScale.decodedSize(of:)`.
    let decodedSize: PixelSize
    /// The first column delivered, in the decoded image.
    let columnOffset: Int
    /// Columns delivered per row, covering the columns asked for.
    let width: Int
    /// The columns libjpeg decodes beside the delivered ones (the iMCUs around them, and one more
    /// on each side for the upsampling: jpeg_region.c), which `readRowsInPlace` writes too. None
    /// for a CMYK file, whose rows are converted.
    let inPlaceMargins: RowMargins
    /// The row the next `readRows` starts at, in the decoded image.
    private(set) var nextRow: Int

    /// What reading the header let through (harmless warnings, tolerated damage) and a CMYK
    /// conversion's caveat, one line each.
    let headerWarnings: [String]

    private let decoder: OpaquePointer
    /// For CMYK files: the conversion, and a buffer for the CMYK rows of one read.
    private let cmyk: CMYKConversion?
    private let cmykRows: UnsafeMutablePointer<UInt8>?
    private static let cmykRowsPerRead = 16
    /// Damage already in `headerWarnings`.
    private let headerDamageCount: Int32
    /// libjpeg reads from the file between calls, so its address must last as long as the
    /// reader: a copy of an array (`init(jpeg: [UInt8], …)`), or nil when the caller vouches for
    /// the bytes (`init(bytes:…)`) or libjpeg reads a file (`init(file:…)`).
    private let ownedCopy: UnsafeMutableBufferPointer<UInt8>?
    /// The file libjpeg reads as it decodes (`init(file:…)`), kept open while the reader lives;
    /// a failed read is recorded in its `readFailure`.
    private let file: OpenInputFile?

    /// Where libjpeg reads the JPEG from.
    private enum Input {
        case bytes(UnsafeBufferPointer<UInt8>)
        /// `head`: the file's first bytes as read before, which libjpeg must find there again;
        /// `bufferSize`: the shim's buffer (0: 128 KiB; at least 64 KiB).
        case file(OpenInputFile, head: [UInt8], bufferSize: Int)
    }

    /// Reads the header and starts decoding `columns` of the image decoded at `scale`, from row
    /// `firstRow` (the rows above it are skipped by the first `readRows`, on the thread that
    /// decodes). Damage warnings (corrupt data libjpeg can paper over) fail unless `tolerateWarnings`;
    /// progressive files stop after 500 scans unless `allowManyScans`. CMYK and YCCK come out RGB.
    /// The file is copied (a Swift array promises an address only inside `withUnsafeBufferPointer`).
    convenience init(jpeg: [UInt8], scale: DecodeScale = .full, columns: Range<Int>? = nil, firstRow: Int = 0,
                     tolerateWarnings: Bool = false, allowManyScans: Bool = false) throws(DecodeError) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: jpeg.count)
        _ = copy.initialize(from: jpeg)
        try self.init(input: .bytes(UnsafeBufferPointer(copy)), owned: copy, scale: scale, columns: columns,
                      firstRow: firstRow, tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
    }

    /// As `init(jpeg:…)`, reading `bytes` in place: they must stay valid and unchanged until the
    /// reader is gone (the fused renderer decodes inside the file's `withUnsafeBufferPointer`).
    convenience init(bytes: UnsafeBufferPointer<UInt8>, scale: DecodeScale = .full, columns: Range<Int>? = nil,
                     firstRow: Int = 0, tolerateWarnings: Bool = false, allowManyScans: Bool = false) throws(DecodeError) {
        try self.init(input: .bytes(bytes), owned: nil, scale: scale, columns: columns, firstRow: firstRow,
                      tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
    }

    /// As `init(jpeg:…)`, reading `file` as libjpeg consumes it through a buffer of `bufferSize` bytes (0: 128 KiB),
    /// never past the size it had when opened; `head` is its start as read before (at least its
    /// first 3 bytes, when it has them), which libjpeg must find there again. Decodes exactly as
    /// the same bytes in memory. A read that fails, or finds the file shorter or its head changed,
    /// fails the init or the `readRows` it happens in with `DecodeError.corrupt`, and is recorded
    /// in `file.readFailure`, the error to report (`inputFailure`).
    convenience init(file: OpenInputFile, head: [UInt8], bufferSize: Int = 0, scale: DecodeScale = .full,
                     columns: Range<Int>? = nil, firstRow: Int = 0, tolerateWarnings: Bool = false,
                     allowManyScans: Bool = false) throws(DecodeError) {
        try self.init(input: .file(file, head: head, bufferSize: bufferSize), owned: nil, scale: scale, columns: columns,
                      firstRow: firstRow, tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
    }

    private init(input: Input, owned: UnsafeMutableBufferPointer<UInt8>?, scale: DecodeScale,
                 columns: Range<Int>?, firstRow: Int, tolerateWarnings: Bool, allowManyScans: Bool) throws(DecodeError) {
        ownedCopy = owned
        let start: [UInt8], count: Int
        switch input {
        case .bytes(let jpeg): (start, count, file) = (Array(jpeg.prefix(3)), jpeg.count, nil)
        case .file(let opened, let head, _): (start, count, file) = (Array(head.prefix(3)), opened.size, opened)
        }
        guard count >= 3, start.count == 3, start[0] == 0xFF, start[1] == 0xD8 else { owned?.deallocate(); throw .notAJPEG }
        guard JPEGDecoder.supportedScales.contains(scale) else { owned?.deallocate(); throw .unsupportedScale(scale) }
        let decoder: OpaquePointer, warnings: [String], conversion: CMYKConversion?
        do {
            switch input {
            case .bytes(let jpeg):
                (decoder, warnings) = try Self.open(jpeg, tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
            case .file(let file, let head, let bufferSize):
                (decoder, warnings) = try Self.open(file, head: head, bufferSize: bufferSize,
                                                    tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
            }
        } catch {
            owned?.deallocate()
            throw error
        }
        do { conversion = try Self.cmykConversion(decoder) } catch {
            jr_decoder_close(decoder)
            owned?.deallocate()
            throw error
        }
        self.decoder = decoder
        cmyk = conversion
        headerWarnings = warnings + (conversion?.warning.map { [$0] } ?? [])
        headerDamageCount = jr_decoder_damage_count(decoder)
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
        var left: Int32 = 0, right: Int32 = 0
        if started == Int32(JR_OK), conversion == nil { jr_decoder_margins(decoder, &left, &right) }
        inPlaceMargins = RowMargins(left: Int(left), right: Int(right))
        cmykRows = conversion == nil ? nil : .allocate(capacity: Int(delivered) * 4 * Self.cmykRowsPerRead)
        guard started == Int32(JR_OK) else { throw failure() }
    }

    /// The failed read behind the last error, if that is what it was (a reader on a file only).
    var inputFailure: FileError? { file?.readFailure }

    deinit {
        jr_decoder_close(decoder)
        cmykRows?.deallocate()
        ownedCopy?.deallocate()
    }

    /// Tolerated damage found while decoding rows (below the header), one line; empty if none.
    var dataWarnings: [String] {
        let count = jr_decoder_damage_count(decoder)
        guard count > headerDamageCount else { return [] }
        return [JPEGWarningText.damage(CLibraryMessage.text(jr_decoder_damage_message(decoder)))]
    }

    /// Reads the header only: the size as stored and what `headerWarnings` would hold. The
    /// classified path behind `JPEGDecoder.header(of:)` for files TurboJPEG will not read plainly.
    static func header(of jpeg: [UInt8], tolerateWarnings: Bool, allowManyScans: Bool) throws(DecodeError)
        -> (size: PixelSize, warnings: [String]) {
        guard jpeg.count >= 3, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .notAJPEG }
        return try jpeg.withUnsafeBufferPointer { (bytes) throws(DecodeError) -> (size: PixelSize, warnings: [String]) in
            let (decoder, warnings) = try open(bytes, tolerateWarnings: tolerateWarnings, allowManyScans: allowManyScans)
            defer { jr_decoder_close(decoder) }
            let size = PixelSize(width: Int(jr_decoder_width(decoder)), height: Int(jr_decoder_height(decoder)))
            let conversion = try cmykConversion(decoder)
            return (size, warnings + (conversion?.warning.map { [$0] } ?? []))
        }
    }

    /// Opens the shim's decoder on `bytes` (header read); the warnings the header let through.
    private static func open(_ jpeg: UnsafeBufferPointer<UInt8>, tolerateWarnings: Bool,
                             allowManyScans: Bool) throws(DecodeError) -> (OpaquePointer, [String]) {
        var status: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard let decoder = jr_decoder_open(jpeg.baseAddress, jpeg.count, tolerateWarnings ? 1 : 0,
                                            allowManyScans ? 0 : 1, &status, &message, message.count) else {
            throw .corrupt(CLibraryMessage.text(message))
        }
        return (decoder, headerWarnings(decoder))
    }

    /// As `open(_:…)`, on a file read as libjpeg consumes it; a failed read is recorded in
    /// `file.readFailure`.
    private static func open(_ file: OpenInputFile, head: [UInt8], bufferSize: Int, tolerateWarnings: Bool,
                             allowManyScans: Bool) throws(DecodeError) -> (OpaquePointer, [String]) {
        var status: Int32 = 0, inputError: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let opened = head.withUnsafeBufferPointer { head in
            jr_decoder_open_file(file.descriptor, Int64(file.size), head.baseAddress, head.count, bufferSize,
                                 tolerateWarnings ? 1 : 0, allowManyScans ? 0 : 1, &status, &inputError,
                                 &message, message.count)
        }
        guard let decoder = opened else {
            if inputError != 0 { file.failed(OpenInputFile.readError(file.path, code: inputError)) }
            throw .corrupt(CLibraryMessage.text(message))
        }
        return (decoder, headerWarnings(decoder))
    }

    /// The warnings reading the header let through, one line each.
    private static func headerWarnings(_ decoder: OpaquePointer) -> [String] {
        var warnings: [String] = []
        if jr_decoder_harmless_count(decoder) > 0 {
            warnings.append(JPEGWarningText.harmless(CLibraryMessage.text(jr_decoder_harmless_message(decoder)),
                                                     count: Int(jr_decoder_harmless_count(decoder))))
        }
        if jr_decoder_damage_count(decoder) > 0 {
            warnings.append(JPEGWarningText.damage(CLibraryMessage.text(jr_decoder_damage_message(decoder))))
        }
        return warnings
    }

    /// The conversion a CMYK file needs (nil for others), through its ICC profile if it has one.
    private static func cmykConversion(_ decoder: OpaquePointer) throws(DecodeError) -> CMYKConversion? {
        guard jr_decoder_components(decoder) == 4 else { return nil }
        var profile: UnsafeMutablePointer<UInt8>?
        var length: UInt32 = 0
        guard jr_decoder_icc_profile(decoder, &profile, &length) == Int32(JR_OK) else { throw .corrupt(message(decoder)) }
        defer { jr_free(profile) }
        let bytes = profile.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
        return CMYKConversion(profile: bytes, adobeInverted: jr_decoder_adobe_inverted(decoder) != 0)
    }

    /// Decodes the next `count` rows (at most those left) into `destination`, `width` RGB pixels
    /// each, rows `stride` bytes apart.
    func readRows(into destination: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) throws(DecodeError) {
        precondition(count >= 0 && count <= decodedSize.height - nextRow, "\(count) rows from row \(nextRow) of \(decodedSize.height)")
        precondition(stride >= width * 3, "stride \(stride) under \(width) pixels")
        if let cmyk, let cmykRows {
            var done = 0
            while done < count {
                let rows = min(count - done, Self.cmykRowsPerRead)
                guard jr_decoder_read(decoder, cmykRows, width * 4, Int32(rows)) == Int32(JR_OK) else { throw failure() }
                for row in 0..<rows {
                    cmyk.convert(cmykRows + row * width * 4, into: destination + (done + row) * stride, count: width)
                }
                done += rows
            }
        } else {
            guard jr_decoder_read(decoder, destination, stride, Int32(count)) == Int32(JR_OK) else { throw failure() }
        }
        nextRow += count
    }

    /// As `readRows`, but libjpeg decodes straight into `destination`'s rows rather than into the
    /// shim's buffer, whose delivered columns `readRows` then copies (every decoded byte of a crop
    /// or a rotation: about 1 % of those renders' time, docs/benchmark.md, twenty-third part):
    /// each row must have room for `inPlaceMargins` beside its `width` pixels, and those columns
    /// are written too. A CMYK file's rows are converted as `readRows` converts them.
    func readRowsInPlace(into destination: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) throws(DecodeError) {
        guard cmyk == nil else { return try readRows(into: destination, stride: stride, count: count) }
        precondition(count >= 0 && count <= decodedSize.height - nextRow, "\(count) rows from row \(nextRow) of \(decodedSize.height)")
        precondition(stride >= (inPlaceMargins.left + width + inPlaceMargins.right) * 3,
                     "stride \(stride) under \(width) pixels and the margins \(inPlaceMargins)")
        guard jr_decoder_read_in_place(decoder, destination, stride, Int32(count)) == Int32(JR_OK) else { throw failure() }
        nextRow += count
    }

    /// The last error, a failed read recorded in `file.readFailure` first.
    private func failure() -> DecodeError {
        let code = jr_decoder_input_error(decoder)
        if code != 0, let file { file.failed(OpenInputFile.readError(file.path, code: code)) }
        return .corrupt(Self.message(decoder))
    }

    private static func message(_ decoder: OpaquePointer) -> String {
        CLibraryMessage.text(jr_decoder_message(decoder))
    }
}
