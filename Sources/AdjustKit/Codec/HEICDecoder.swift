import CHeifLoader
import Dispatch

/// Why a HEIC/HEIF file could not be read. Messages are one line, without the file name.
package enum HEICError: Error, Equatable, CustomStringConvertible {
    /// libheif refused the container (truncated, malformed boxes, no primary image, …).
    case malformed(String)
    case tooLarge(PixelSize, maxSide: Int, maxPixels: Int)
    /// libheif's own security limits (set to `maxSide`) refused a size while reading the boxes.
    case overLimit(String)
    /// The image data failed to decode (truncated or corrupt HEVC, a missing tile).
    case decodeFailed(String)
    /// libheif (libheif.so.1) cannot be loaded: HEIC support is not installed.
    case libraryMissing(String)
    /// The libheif loaded is older than `LibheifVersion.required` and refused the file: current
    /// iPhone HEICs (gain maps, portrait auxiliary images) need 1.19 (aae-format.md §8).
    case libraryTooOld(found: LibheifVersion, message: String)

    package var description: String {
        switch self {
        case .malformed(let message): return "corrupt or truncated HEIF: \(message)"
        case let .tooLarge(size, maxSide, maxPixels):
            return "HEIF image is \(size) pixels, over the limit of \(maxSide) per side and \(maxPixels) in all"
        case .overLimit(let message): return "HEIF image over the size limits: \(message)"
        case .decodeFailed(let message): return "HEIF image data cannot be decoded: \(message)"
        case .libraryMissing(let reason): return "HEIC needs libheif (Debian: libheif1), which cannot be loaded: \(reason)"
        case let .libraryTooOld(found, message):
            return "libheif \(found) cannot open this HEIC (\(message)); it needs libheif \(LibheifVersion.required) or later "
                + "(Debian 12: apt-get install -t bookworm-backports libheif1 libheif-plugin-libde265)"
        }
    }

    /// True when the fault is in the machine (no libheif, or one too old), not in the file.
    package var isMissingSupport: Bool {
        switch self {
        case .libraryMissing, .libraryTooOld: return true
        default: return false
        }
    }
}

/// What a HEIC's primary image says, read without decoding pixels.
package struct HEICHeader: Equatable, Sendable {
    /// Width × height of the stored frame (`ispe`: before `irot`/`imir`), in pixels.
    package var size: PixelSize
    /// The primary item's `irot`/`imir` (and `clap`) properties.
    package var transforms: HEIFTransformProperties
    /// EXIF, XMP and ICC profile, as stored.
    package var metadata: HEICMetadata
    /// Kinds of the auxiliary images attached to the primary image (depth, matte, HDR gain map,
    /// alpha, or the auxC URN), none of which is used.
    package var auxiliaryImages: [String]
    /// The grid the primary image is stored in, as libheif's tile API reports it; nil when the
    /// libheif loaded has no tile API (then a render decodes the image whole).
    package var tiling: HEICTiling? = nil
    /// The normative orientation: `irot`/`imir` composed into EXIF 1–8.
    package var orientation: Int { transforms.exifOrientation }

    /// Remarks for the caller, one line each: an EXIF orientation the properties overrule, a
    /// clean aperture not applied, auxiliary images not used.
    package var notes: [String] { notes(usingDepth: false) }

    /// `notes`, for an edit that uses the depth image (a portrait's `DepthEffect`) when
    /// `usingDepth`: the depth image and the portrait-effects matte are then not among those named
    /// as not used.
    package func notes(usingDepth: Bool) -> [String] {
        var notes: [String] = []
        if let exif = metadata.exifOrientation, exif != orientation {
            notes.append("EXIF orientation \(exif) disagrees with the HEIF irot/imir properties (orientation "
                         + "\(orientation)); the properties win")
        }
        if transforms.hasCleanAperture {
            notes.append("HEIF clean aperture (clap) not applied: the whole stored frame is used")
        }
        notes += metadata.headerNotes
        // The HDR gain map is not news: every recent iPhone HEIC has one, and an 8-bit SDR output
        // leaves it out as Photos' own SDR exports do (it only lifts highlights on HDR displays).
        let unused = (usingDepth ? auxiliaryImages.filter { $0 != "depth" && $0 != "portrait matte" } : auxiliaryImages)
            .filter { $0 != "HDR gain map" }
        if !unused.isEmpty {
            notes.append("HEIF auxiliary images not used: \(unused.joined(separator: ", "))")
        }
        return notes
    }
}

/// 8-bit RGB rows held by the decoder (libheif's own plane), valid only inside
/// `HEICDecoder.withDecodedRows`.
struct RGB8Rows {
    let base: UnsafePointer<UInt8>
    /// Bytes from one row to the next (libheif pads rows).
    let stride: Int
    let size: PixelSize

    /// The rows copied into an image of their own.
    func copied() -> RGB8Image {
        var pixels = [UInt8](repeating: 0, count: size.pixelCount * 3)
        let rowBytes = size.width * 3
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<size.height { (out.baseAddress! + y * rowBytes).update(from: base + y * stride, count: rowBytes) }
        }
        return RGB8Image(size: size, pixels: pixels)
    }
}

/// Decodes HEIC/HEIF photos with libheif (HEVC through libde265): the primary image in its stored
/// frame, `irot`/`imir` not applied (`ignore_transformations`), since edits are defined on it
/// and the orientation is applied after them like a JPEG's EXIF orientation. With libheif 1.19's
/// tile API a render decodes only the grid tiles its region overlaps, tile row by tile row
/// (`openTiles`, `HEICTileRows`); without it, the whole image (`withDecodedRows`). There is no
/// reduced (downscaled) decode.
package struct HEICDecoder: Sendable {
    /// Checked against the handle's stored size before any pixel is decoded.
    package var maxSide: Int
    /// Largest width × height accepted, checked the same way.
    package var maxPixels: Int
    /// Threads libheif decodes grid tiles on; nil keeps libheif's default.
    package var decodingThreads: Int?

    /// Largest EXIF, XMP or ICC block read (larger ones are skipped with a note).
    static let maxMetadataBytes = 16 << 20

    package init(maxSide: Int = 16_384, maxPixels: Int = 100_000_000, decodingThreads: Int? = nil) {
        (self.maxSide, self.maxPixels, self.decodingThreads) = (maxSide, maxPixels, decodingThreads)
    }

    /// True when `bytes` start with an ISO BMFF `ftyp` box whose major or compatible brands name
    /// a HEIF image (`heic`, `heix`, `heim`, `heis`, `hevc`, `hevx`, `mif1`, `msf1`): chosen by
    /// content, never by the file's extension.
    package static func isHEIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(bytes.count, max(16, size))
        let brands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        // Major brand at 8, minor version at 12, compatible brands from 16.
        var offsets = [8]
        offsets += stride(from: 16, to: end - 3, by: 4)
        return offsets.contains { brands.contains(String(decoding: bytes[$0..<($0 + 4)], as: UTF8.self)) }
    }

    /// Reads the container and the primary image's handle (no pixels) and checks the size limits.
    package func header(of bytes: [UInt8]) throws(HEICError) -> HEICHeader {
        let file = try HEIFFile(bytes, maxSide: maxSide)
        return try header(of: file, bytes: bytes)
    }

    /// As `header(of:)`, reading `file` as libheif asks for it (`HEIFFileReader`): only the
    /// top-level `meta` box is held, for `HEIFTransformProperties`. A libheif error is a
    /// `FileError` of kind `.invalidContent` with the `HEICError` as its cause, as `PhotoEdit`
    /// reports one; a failed read, one of kind `.unreadable`.
    func header(ofFile file: OpenInputFile) throws(FileError) -> HEICHeader {
        let reader = HEIFFileReader(file: file)
        let meta = try reader.metaBox()
        let header: HEICHeader
        do {
            header = try self.header(of: try HEIFFile(reader: reader, maxSide: maxSide), bytes: meta)
        } catch {
            throw file.readFailure ?? FileError(path: file.path, kind: error.isMissingSupport ? .unsupported : .invalidContent, error)
        }
        // A metadata block libheif could not read for want of the file is no note: a failure.
        if let failure = file.readFailure { throw failure }
        return header
    }

    /// Decodes the primary image in its stored frame to 8-bit RGB.
    package func decode(_ bytes: [UInt8]) throws(HEICError) -> RGB8Image {
        try withDecodedRows(bytes) { rows, _ in rows.copied() }
    }

    /// Decodes the primary image and lends its rows to `body` without copying them (a body that
    /// can fail returns a `Result`), with the seconds spent in libheif (the container read and the
    /// decode).
    func withDecodedRows<T>(_ bytes: [UInt8], _ body: (RGB8Rows, _ decodeSeconds: Double) -> T) throws(HEICError) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        return try withDecodedRows(try HEIFFile(bytes, maxSide: maxSide), since: start, body)
    }

    /// As `withDecodedRows(_:_:)`, reading `file` as libheif asks for it (`HEIFFileReader`).
    /// Throws `HEICError`, or the `FileError` of a failed read.
    func withDecodedRows<T>(file: OpenInputFile, _ body: (RGB8Rows, _ decodeSeconds: Double) -> T) throws -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            return try withDecodedRows(try HEIFFile(reader: HEIFFileReader(file: file), maxSide: maxSide), since: start, body)
        } catch {
            throw file.readFailure ?? error
        }
    }

    /// As `withDecodedRows(file:_:)`, also handing `depth` the primary image's depth (or
    /// disparity) auxiliary image when it has one (nil when it has none or it cannot be decoded).
    func withDecodedRows<T>(file: OpenInputFile, depth: (DepthMap?) -> Void,
                            _ body: (RGB8Rows, _ decodeSeconds: Double) -> T) throws -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let heif = try HEIFFile(reader: HEIFFileReader(file: file), maxSide: maxSide)
            depth(Self.depthMap(heif.handle))
            return try withDecodedRows(heif, since: start, body)
        } catch {
            throw file.readFailure ?? error
        }
    }

    /// As `withDecodedRows(_:_:)`, with the depth image as `withDecodedRows(file:depth:_:)`.
    func withDecodedRows<T>(_ bytes: [UInt8], depth: (DepthMap?) -> Void,
                            _ body: (RGB8Rows, _ decodeSeconds: Double) -> T) throws(HEICError) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let heif = try HEIFFile(bytes, maxSide: maxSide)
        depth(Self.depthMap(heif.handle))
        return try withDecodedRows(heif, since: start, body)
    }

    /// The primary image's depth or disparity auxiliary image (`urn:mpeg:hevc:2015:auxid:2`, or a
    /// URN naming depth or disparity), decoded to one grey plane in its own stored frame, with the
    /// disparity range its XMP states and the portrait-effects matte when the file has one; nil
    /// when there is no depth image or libheif cannot decode it. At most 4096 pixels a side.
    static func depthMap(_ handle: OpaquePointer) -> DepthMap? {
        guard var depth = auxiliaryPlane(handle, where: { $0.hasSuffix("auxid:2") || $0.contains("depth") || $0.contains("disparity") })
        else { return nil }
        depth.map.disparityRange = depth.xmp.flatMap(DepthMap.disparityRange(xmp:))
        depth.map.matte = auxiliaryPlane(handle, where: { $0.hasSuffix(":aux:portraiteffectsmatte") })
            .map { PortraitMatte(size: $0.map.size, values: $0.map.values) }
        return depth.map
    }

    /// The first auxiliary image whose (lower-cased) URN `matches`, decoded to one grey plane 0…1,
    /// with its XMP (libheif attaches an item's `cdsc` metadata to it).
    private static func auxiliaryPlane(_ handle: OpaquePointer, where matches: (String) -> Bool) -> (map: DepthMap, xmp: [UInt8]?)? {
        let count = Int(adjust_heif_image_handle_get_number_of_auxiliary_images(handle, 0))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(adjust_heif_image_handle_get_list_of_auxiliary_image_IDs(handle, 0, &ids, Int32(count)))
        for id in ids.prefix(listed) {
            var auxiliary: OpaquePointer?
            guard adjust_heif_image_handle_get_auxiliary_image_handle(handle, id, &auxiliary).code == heif_error_Ok,
                  let auxiliary else { continue }
            defer { adjust_heif_image_handle_release(auxiliary) }
            var type: UnsafePointer<CChar>?
            guard adjust_heif_image_handle_get_auxiliary_type(auxiliary, &type).code == heif_error_Ok, let text = type else { continue }
            let urn = String(cString: text).lowercased()
            adjust_heif_image_handle_free_auxiliary_types(auxiliary, &type)
            guard matches(urn) else { continue }
            guard let options = adjust_heif_decoding_options_alloc() else { return nil }
            defer { adjust_heif_decoding_options_free(options) }
            options.pointee.ignore_transformations = 1
            options.pointee.convert_hdr_to_8bit = 1
            var image: OpaquePointer?
            guard adjust_heif_decode_image(auxiliary, &image, heif_colorspace_monochrome, heif_chroma_monochrome, options).code
                    == heif_error_Ok, let image else { return nil }
            defer { adjust_heif_image_release(image) }
            let (w, h) = (Int(adjust_heif_image_get_width(image, heif_channel_Y)), Int(adjust_heif_image_get_height(image, heif_channel_Y)))
            var stride: Int32 = 0
            guard w > 0, h > 0, w <= 4096, h <= 4096,
                  let base = adjust_heif_image_get_plane_readonly(image, heif_channel_Y, &stride), Int(stride) >= w else { return nil }
            var values = [Float](repeating: 0, count: w * h)
            for y in 0..<h { for x in 0..<w { values[y * w + x] = Float(base[y * Int(stride) + x]) / 255 } }
            return (DepthMap(size: PixelSize(width: w, height: h), values: values), xmp(of: auxiliary))
        }
        return nil
    }

    /// The XMP packet attached to an image (at most 1 MB); nil when there is none.
    private static func xmp(of image: OpaquePointer) -> [UInt8]? {
        let count = Int(adjust_heif_image_handle_get_number_of_metadata_blocks(image, nil))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(adjust_heif_image_handle_get_list_of_metadata_block_IDs(image, nil, &ids, Int32(count)))
        for id in ids.prefix(listed) {
            let content = adjust_heif_image_handle_get_metadata_content_type(image, id).map { String(cString: $0) } ?? ""
            let type = adjust_heif_image_handle_get_metadata_type(image, id).map { String(cString: $0) } ?? ""
            guard content.contains("rdf+xml") || type == "mime" else { continue }
            let size = adjust_heif_image_handle_get_metadata_size(image, id)
            guard size > 0, size <= 1 << 20 else { continue }
            var bytes = [UInt8](repeating: 0, count: size)
            guard adjust_heif_image_handle_get_metadata(image, id, &bytes).code == heif_error_Ok else { continue }
            return bytes
        }
        return nil
    }

    private func withDecodedRows<T>(_ file: HEIFFile, since start: UInt64,
                                    _ body: (RGB8Rows, _ decodeSeconds: Double) -> T) throws(HEICError) -> T {
        let header = try checkedSize(of: file)
        if let decodingThreads { adjust_heif_context_set_max_decoding_threads(file.context, Int32(decodingThreads)) }
        guard let options = adjust_heif_decoding_options_alloc() else { throw .decodeFailed("libheif could not start") }
        defer { adjust_heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = 1   // the stored frame
        options.pointee.convert_hdr_to_8bit = 1
        options.pointee.strict_decoding = 1          // a missing or broken tile fails, never grey
        var image: OpaquePointer?
        let status = adjust_heif_decode_image(file.handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options)
        guard status.code == heif_error_Ok, let image else { throw .decodeFailed(Self.message(status)) }
        defer { adjust_heif_image_release(image) }
        let size = PixelSize(width: Int(adjust_heif_image_get_width(image, heif_channel_interleaved)),
                             height: Int(adjust_heif_image_get_height(image, heif_channel_interleaved)))
        guard size == header else {
            throw .decodeFailed("decoded \(size) pixels where the image's ispe says \(header)")
        }
        var stride: Int32 = 0
        guard let base = adjust_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= size.width * 3 else { throw .decodeFailed("libheif returned no RGB plane") }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return body(RGB8Rows(base: base, stride: Int(stride), size: size), seconds)
    }

    /// Opens `bytes` to be decoded by region, tile row by tile row (`HEICTileRows`), when the
    /// libheif loaded has the tile API (1.19); nil when it has not (then `withDecodedRows`).
    func openTiles(_ bytes: [UInt8]) throws(HEICError) -> HEICTileSource? {
        guard adjust_heif_has_tile_api() == 1 else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        return try openTiles(try HEIFFile(bytes, maxSide: maxSide), input: nil, since: start)
    }

    /// As `openTiles(_:)`, reading `file` as libheif asks for it (`HEIFFileReader`). Throws
    /// `HEICError`, or the `FileError` of a failed read.
    func openTiles(file: OpenInputFile) throws -> HEICTileSource? {
        guard adjust_heif_has_tile_api() == 1 else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            return try openTiles(try HEIFFile(reader: HEIFFileReader(file: file), maxSide: maxSide), input: file, since: start)
        } catch {
            throw file.readFailure ?? error
        }
    }

    private func openTiles(_ file: HEIFFile, input: OpenInputFile?, since start: UInt64) throws(HEICError) -> HEICTileSource? {
        let size = try checkedSize(of: file)
        guard let tiling = try HEICTiling.read(file.handle, size: size) else { return nil }
        return HEICTileSource(file: file, tiling: tiling, input: input, threads: decodingThreads,
                              openSeconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// The primary image's stored size (`ispe`), within the limits.
    private func checkedSize(of file: HEIFFile) throws(HEICError) -> PixelSize {
        let size = PixelSize(width: Int(adjust_heif_image_handle_get_ispe_width(file.handle)),
                             height: Int(adjust_heif_image_handle_get_ispe_height(file.handle)))
        guard size.width > 0, size.height > 0 else { throw .malformed("the primary image has no size (ispe)") }
        guard size.width <= maxSide, size.height <= maxSide, size.pixelCount <= maxPixels else {
            throw .tooLarge(size, maxSide: maxSide, maxPixels: maxPixels)
        }
        return size
    }

    /// `bytes`: the file, or at least its first top-level `meta` box (`HEIFFileReader.metaBox`).
    private func header(of file: HEIFFile, bytes: [UInt8]) throws(HEICError) -> HEICHeader {
        let size = try checkedSize(of: file)
        var primary: heif_item_id = 0
        _ = adjust_heif_context_get_primary_image_ID(file.context, &primary)
        return HEICHeader(size: size, transforms: HEIFTransformProperties.read(in: bytes, itemID: primary),
                          metadata: HEICMetadata(handle: file.handle), auxiliaryImages: Self.auxiliaryKinds(file.handle),
                          tiling: try? HEICTiling.read(file.handle, size: size))
    }

    /// The kinds of the primary image's auxiliary images, in a word each.
    private static func auxiliaryKinds(_ handle: OpaquePointer) -> [String] {
        let count = Int(adjust_heif_image_handle_get_number_of_auxiliary_images(handle, 0))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(adjust_heif_image_handle_get_list_of_auxiliary_image_IDs(handle, 0, &ids, Int32(count)))
        var kinds: [String] = []
        for id in ids.prefix(listed) {
            var auxiliary: OpaquePointer?
            guard adjust_heif_image_handle_get_auxiliary_image_handle(handle, id, &auxiliary).code == heif_error_Ok,
                  let auxiliary else { kinds.append("unknown"); continue }
            defer { adjust_heif_image_handle_release(auxiliary) }
            var type: UnsafePointer<CChar>?
            guard adjust_heif_image_handle_get_auxiliary_type(auxiliary, &type).code == heif_error_Ok, let text = type else {
                kinds.append("unknown"); continue
            }
            let urn = String(cString: text)
            adjust_heif_image_handle_free_auxiliary_types(auxiliary, &type)
            let lower = urn.lowercased()
            kinds.append(lower.contains("hdrgainmap") ? "HDR gain map"
                         : lower.contains("depth") || lower.contains("disparity") || lower.hasSuffix("auxid:2") ? "depth"
                         : lower.hasSuffix(":aux:portraiteffectsmatte") ? "portrait matte"
                         : lower.contains("matte") ? "matte"
                         : lower.contains("alpha") ? "alpha" : urn)
        }
        return kinds
    }

    static func message(_ error: heif_error) -> String {
        guard let text = error.message else { return "unknown libheif error \(error.code.rawValue)" }
        let message = String(cString: text).split(whereSeparator: \.isNewline).joined(separator: " ")
        return message.isEmpty ? "libheif error \(error.code.rawValue)" : message
    }
}

/// A HEIC opened for a decode by region (`HEICDecoder.openTiles`): its tiles are decoded when a
/// `HEICTileRows` made by `rows(region:)` is asked for rows.
final class HEICTileSource {
    let file: HEIFFile
    let tiling: HEICTiling
    let input: OpenInputFile?
    let threads: Int?
    /// Seconds spent in libheif opening the file.
    let openSeconds: Double

    init(file: HEIFFile, tiling: HEICTiling, input: OpenInputFile?, threads: Int?, openSeconds: Double) {
        (self.file, self.tiling, self.input, self.threads, self.openSeconds) = (file, tiling, input, threads, openSeconds)
    }

    /// A reader whose first tile rows `decodeAhead` started decoding; `rows(region:)` hands it
    /// over when asked for its region (and drops it otherwise, its decoding stopped).
    private var decodingAhead: HEICTileRows?

    /// Starts decoding the first tile rows of `region` (inside the image) on the reader's threads,
    /// to overlap what comes before the render: a portrait's depth image and matte, which libheif
    /// decodes on the calling thread, one after the other, with the other core idle (50–125 ms at
    /// the start of the 24 MP portrait's render in `perf` timelines, docs/benchmark.md).
    func decodeAhead(region: PixelRect) {
        guard region.width > 0, region.height > 0, tiling.contains(region) else { return }
        let rows = HEICTileRows(file: file, tiling: tiling, region: region, input: input, threads: threads,
                                openSeconds: openSeconds)
        rows.startDecodingAhead()
        decodingAhead = rows
    }

    /// The rows of `region` (inside the image), decoded as they are read.
    func rows(region: PixelRect) -> HEICTileRows {
        defer { decodingAhead = nil }
        if let started = decodingAhead, started.region == region { return started }
        return HEICTileRows(file: file, tiling: tiling, region: region, input: input, threads: threads, openSeconds: openSeconds)
    }
}

/// A libheif context holding one file and the handle of its primary image.
final class HEIFFile {
    let context: OpaquePointer
    let handle: OpaquePointer
    /// For a file read as libheif asks: the reader and the functions libheif calls, which must
    /// outlive the context.
    private let reader: HEIFFileReader?
    private let functions: UnsafeMutablePointer<heif_reader>?

    /// The file in memory (libheif copies it).
    convenience init(_ bytes: [UInt8], maxSide: Int) throws(HEICError) {
        try self.init(maxSide: maxSide, reader: nil) { context in
            bytes.withUnsafeBytes { adjust_heif_context_read_from_memory(context, $0.baseAddress, $0.count, nil) }
        }
    }

    /// The file read through `reader` as libheif asks for it.
    convenience init(reader: HEIFFileReader, maxSide: Int) throws(HEICError) {
        try self.init(maxSide: maxSide, reader: reader) { _ in heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil) }
    }

    private init(maxSide: Int, reader: HEIFFileReader?, read readMemory: (OpaquePointer) -> heif_error) throws(HEICError) {
        // Every libheif call starts from a context made here: the one place to load the library.
        guard adjust_heif_load() == 1 else { throw .libraryMissing(String(cString: adjust_heif_load_error())) }
        self.reader = reader
        functions = reader.map { _ in
            let functions = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)
            functions.initialize(to: HEIFFileReader.functions())
            return functions
        }
        guard let context = adjust_heif_context_alloc() else {
            functions?.deallocate()
            throw .malformed("libheif could not start")
        }
        // libheif's own security limit, also applied to grid and tile sizes it reads later.
        adjust_heif_context_set_maximum_image_size_limit(context, Int32(clamping: maxSide))
        let read = if let reader, let functions {
            adjust_heif_context_read_from_reader(context, functions, Unmanaged.passUnretained(reader).toOpaque(), nil)
        } else {
            readMemory(context)
        }
        // The message lives in the context: read it before freeing the context.
        guard read.code == heif_error_Ok else {
            let message = HEICDecoder.message(read)
            adjust_heif_context_free(context)
            functions?.deallocate()
            throw read.subcode == heif_suberror_Security_limit_exceeded ? .overLimit(message) : Self.refusal(message)
        }
        var handle: OpaquePointer?
        let primary = adjust_heif_context_get_primary_image_handle(context, &handle)
        guard primary.code == heif_error_Ok, let handle else {
            let message = HEICDecoder.message(primary)
            adjust_heif_context_free(context)
            functions?.deallocate()
            throw Self.refusal(message)
        }
        (self.context, self.handle) = (context, handle)
    }

    /// A file libheif refuses: malformed, unless the libheif loaded is too old to tell (an old
    /// libheif refuses current iPhone HEICs with messages that read like corruption).
    static func refusal(_ message: String, loaded: LibheifVersion? = LibheifVersion.loaded) -> HEICError {
        if let loaded, loaded < .required { return .libraryTooOld(found: loaded, message: message) }
        return .malformed(message)
    }

    deinit {
        adjust_heif_image_handle_release(handle)
        adjust_heif_context_free(context)
        functions?.deallocate()
    }
}
