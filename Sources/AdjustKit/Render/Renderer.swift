import Dispatch

/// Why a planned render cannot run.
package enum RenderError: Error, Equatable, CustomStringConvertible {
    /// An `aas:Filters` name this version does not know; never skipped unless asked.
    case unknownFilter(String)
    /// Modern Photos adjustments this version cannot render; never skipped unless asked.
    case unsupportedAdjustments([String])
    /// A modern Photos edit none of whose adjustments can be replayed: rendering it would give
    /// the unedited photo, so it is refused however lenient the render (aae-format.md §3).
    case nothingReplayable([String])
    case decodedSizeMismatch(expected: PixelSize, got: PixelSize)

    /// One line, without the file name.
    package var description: String {
        switch self {
        case .unknownFilter(let name):
            return "unknown filter \(name) in aas:Filters"
        case .unsupportedAdjustments(let names):
            return "the edit uses adjustments this version cannot render: \(names.joined(separator: ", "))"
        case .nothingReplayable(let names):
            return "nothing in this edit can be replayed (\(names.joined(separator: ", "))): only Photos' own render shows it"
        case let .decodedSizeMismatch(expected, got):
            return "libjpeg-turbo decoded \(got) pixels where the plan expects \(expected)"
        }
    }
}

extension RenderError {
    /// True for the errors that come from what the edit asks for, not from the image.
    package var isTheEditsFault: Bool {
        switch self {
        case .unknownFilter, .unsupportedAdjustments, .nothingReplayable: return true
        case .decodedSizeMismatch: return false
        }
    }
}

/// What a render tells its caller besides the pixels, one line each: the approximate steps it
/// applied, and the steps it could not apply or skipped, with other remarks. Both kinds of result
/// carry it.
package struct RenderNotes: Equatable, Sendable {
    /// Approximate steps that were applied.
    package var approximations: [String]
    /// Steps that could not be applied (e.g. convex-hull red-eye records), skipped steps, decoder
    /// warnings and other remarks.
    package var warnings: [String]

    package init(approximations: [String] = [], warnings: [String] = []) {
        (self.approximations, self.warnings) = (approximations, warnings)
    }
}

/// A finished render and what the caller should be told about it.
public struct Rendering: Sendable {
    /// Upright, 8-bit, colour not premultiplied.
    public var image: RGBA8Image
    /// The working space the colour values were computed in (JPEG export composites in it).
    package var workingSpace: WorkingSpace
    /// What the caller should be told.
    package var notes: RenderNotes
    /// Milliseconds of wall time spent inside the decoder (as `EncodedRendering.decodeMs`).
    package var decodeMs: Double = 0
    /// Every pixel is grey, as the program promised (`ColourProgram.leavesGrey`): a JPEG export
    /// samples its chroma at half resolution (`JPEGChroma`).
    package var isGrey: Bool

    package init(image: RGBA8Image, workingSpace: WorkingSpace, approximations: [String], warnings: [String],
                 isGrey: Bool = false) {
        (self.image, self.workingSpace, self.isGrey) = (image, workingSpace, isGrey)
        notes = RenderNotes(approximations: approximations, warnings: warnings)
    }

    /// `notes.approximations`.
    public var approximations: [String] { notes.approximations }
    /// `notes.warnings`.
    public var warnings: [String] {
        get { notes.warnings }
        set { notes.warnings = newValue }
    }
}

/// An encoded render: the file's bytes and what the caller should be told about it.
public struct EncodedRendering: Sendable {
    /// The JPEG or PNG file.
    public var bytes: [UInt8]
    /// JPEG or PNG.
    public var format: ImageFormat
    /// Its pixel size (upright).
    public var size: PixelSize
    /// What the caller should be told.
    package var notes: RenderNotes
    /// Milliseconds of wall time spent inside the decoder, added up: for a JPEG, libjpeg opening
    /// the file (its header; every scan of a progressive file) and decoding the rows of the plan's
    /// source region (`jpeg_skip_scanlines`, `jpeg_read_scanlines`) on the streamed pass's decoder
    /// thread; for a HEIC, libheif reading the container and decoding the image, before the pass.
    /// The streamed pass renders on other threads while the decoder runs, so this overlaps the
    /// render's own work: it is part of the render's wall time, not to be subtracted from it. 0
    /// for an `EncodedRendering` made by the initializers (they do not decode).
    package var decodeMs: Double = 0

    package init(bytes: [UInt8], format: ImageFormat, size: PixelSize, notes: RenderNotes) {
        (self.bytes, self.format, self.size, self.notes) = (bytes, format, size, notes)
    }

    package init(bytes: [UInt8], format: ImageFormat, size: PixelSize, approximations: [String], warnings: [String]) {
        self.init(bytes: bytes, format: format, size: size,
                  notes: RenderNotes(approximations: approximations, warnings: warnings))
    }

    /// `notes.approximations`.
    public var approximations: [String] { notes.approximations }
    /// `notes.warnings`.
    public var warnings: [String] { notes.warnings }
}

/// Executes a `RenderPlan`: decode the plan's source region at the planned scale, the
/// stored-frame colour filters, the geometry, the `aas:Filters` steps, the area shrink that
/// `--max-size` asked for, quantize, orient — streamed row by row by `FusedRenderer`.
package struct Renderer: Sendable {
    /// Decodes the JPEG, enforcing its size and corruption limits.
    package var decoder: JPEGDecoder
    /// Working space, exact effect tables and the unknown-filter policy.
    package var colour: ColourOptions

    /// Defaults: `JPEGDecoder()`'s limits and `ColourOptions()` (linear, built-in effects).
    package init(decoder: JPEGDecoder = JPEGDecoder(), colour: ColourOptions = ColourOptions()) {
        (self.decoder, self.colour) = (decoder, colour)
    }

    /// False: a HEIC is decoded whole even where libheif has the tile API (the path a libheif
    /// older than 1.19 takes; tests compare the two).
    var heicByTile = true

    /// Threads that decode a HEIC's tiles at once; nil: one per core. `batch -j N` gives each of its
    /// N renders its share of the cores, and a render given one thread does not decode ahead, so
    /// it holds one tile row (HEICTileRows).
    package var heicDecodingThreads: Int?

    /// The colour type an upright PNG's first pass takes: nil, the plan's (`isOpaqueForCertain`);
    /// true RGB, false RGBA, whatever the plan says (tests make the pass find the other type).
    var pngFirstPassIsRGB: Bool?

    /// The HEIC decoder, with the same size limits as `decoder`.
    package var heicDecoder: HEICDecoder {
        HEICDecoder(maxSide: decoder.maxSide, maxPixels: decoder.maxPixels, decodingThreads: heicDecodingThreads)
    }

    /// Decodes `jpeg` (the photo the plan was made for) at the plan's scale and runs the plan.
    /// Throws `RenderError` or `DecodeError`; `RenderError.unknownFilter` comes before anything
    /// is decoded, when the chain has an `aas:Filters` name this version does not know (unless
    /// the options skip them).
    package func render(_ plan: RenderPlan, jpeg: [UInt8]) throws -> Rendering {
        try render(plan, original: .jpeg(OriginalBytes(jpeg)))
    }

    /// Decodes `original` (the photo the plan was made for) and runs the plan: a JPEG at the
    /// plan's scale, a HEIC whole (libheif has no reduced decode). An original made from a path
    /// is read from its file as the decoder consumes it. Throws `RenderError`, `DecodeError` or
    /// `HEICError`, or a `FileError` when the file cannot be read again or changed since its head
    /// was read.
    package func render(_ plan: RenderPlan, original: OriginalImage) throws -> Rendering {
        try withPixels(of: original, plan: plan) { pixels, program in try render(plan, pixels: pixels, program: program) }
    }

    /// `withPixels`, with the plan's colour program, made once: with the photo's depth image
    /// (`PhotoInputs`) where the chain has a `DepthEffect` and the photo (a HEIC) has one, read
    /// from the open file before its pixels. The program is made before any pixel is decoded, so
    /// an edit it refuses (an unknown filter, an unsupported adjustment) fails first — except a
    /// portrait's on a libheif without the tile API, which decodes the whole image with its depth
    /// image before the program can be made. (Internal, as `Pixels` and `run`, for the PNG
    /// encoder's pass: Renderer+PNG.swift.)
    func withPixels<T>(of original: OriginalImage, plan: RenderPlan,
                       _ body: (Pixels, ColourProgram) throws -> T) throws -> T {
        guard plan.rescaledChain[DepthEffect.self] != nil else {
            let program = try ColourProgram(chain: plan.rescaledChain, options: colour)
            return try withPixels(of: original) { try body($0, program) }
        }
        var inputs = PhotoInputs()
        return try withPixels(of: original, depth: { inputs.depthMap = $0 }, decodeRegion: plan.decodeRegion) { pixels in
            try body(pixels, try ColourProgram(chain: plan.rescaledChain, options: colour, inputs: inputs))
        }
    }

    /// Where the pixels of the render come from: a JPEG decoded as the render goes, a HEIC whose
    /// tiles are decoded as the render goes (libheif 1.19's tile API), or a HEIC's whole decoded
    /// raster (valid inside `withPixels` only) and the seconds libheif took.
    enum Pixels {
        case jpeg(OriginalBytes)
        case tiles(HEICTileSource)
        case raster(RGB8Rows, decodeSeconds: Double)
    }

    /// Runs `body` with `original`'s pixels: a JPEG's bytes or file, a HEIC opened for a decode
    /// by tiles, or a HEIC decoded once, whole — for a libheif without the tile API. `depth`, when
    /// given, is handed the HEIC's depth image (or nil) before `body` runs, read from the same open
    /// file (`DepthEffect` blurs by it); a JPEG has none. A portrait keeps the decode by tiles: the
    /// depth image is a separate item, and decoding the whole primary image first for it cost the
    /// tiles' overlap of decode and render and a whole raster of memory. `decodeRegion`, when
    /// given with `depth`, is the region the render will read first: its first tile rows start
    /// decoding while the depth image does (`HEICTileSource.decodeAhead`).
    func withPixels<T>(of original: OriginalImage, depth: ((DepthMap?) -> Void)? = nil, decodeRegion: PixelRect? = nil,
                               _ body: (Pixels) throws -> T) throws -> T {
        switch original {
        case .jpeg(let source): depth?(nil); return try body(.jpeg(source))
        case .heic(let source, _):
            if heicByTile {
                let tiles = if let bytes = source.inMemory {
                    try heicDecoder.openTiles(bytes)
                } else {
                    try heicDecoder.openTiles(file: try source.reopen()!)
                }
                if let tiles {
                    if let depth {
                        // The tiles the render reads first decode meanwhile.
                        if let decodeRegion { tiles.decodeAhead(region: decodeRegion) }
                        depth(HEICDecoder.depthMap(tiles.file.handle))
                        // A read that failed while libheif read the depth item is the file's failure.
                        if let failure = tiles.input?.readFailure { throw failure }
                    }
                    return try body(.tiles(tiles))
                }
            }
            let result: Result<T, any Error>
            if let bytes = source.inMemory {
                result = if let depth {
                    try heicDecoder.withDecodedRows(bytes, depth: depth) { rows, seconds in
                        Result { try body(.raster(rows, decodeSeconds: seconds)) }
                    }
                } else {
                    try heicDecoder.withDecodedRows(bytes) { rows, seconds in
                        Result { try body(.raster(rows, decodeSeconds: seconds)) }
                    }
                }
            } else {
                result = if let depth {
                    try heicDecoder.withDecodedRows(file: try source.reopen()!, depth: depth) { rows, seconds in
                        Result { try body(.raster(rows, decodeSeconds: seconds)) }
                    }
                } else {
                    try heicDecoder.withDecodedRows(file: try source.reopen()!) { rows, seconds in
                        Result { try body(.raster(rows, decodeSeconds: seconds)) }
                    }
                }
            }
            return try result.get()
        }
    }

    /// Runs `fused` on `pixels`; returns the decode's warnings and the seconds spent decoding.
    func run(_ fused: FusedRenderer, pixels: Pixels, sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void)
        throws -> (warnings: [String], decodeSeconds: Double) {
        switch pixels {
        case .jpeg(let source): return try fused.run(jpeg: source, sink: sink)
        case .raster(let rows, let seconds): return (try fused.run(raster: rows, sink: sink), seconds)
        case .tiles(let source):
            var opened: HEICTileRows?
            let warnings = try fused.run(open: { region in
                guard source.tiling.imageSize == fused.plan.decodedSize else {
                    throw RenderError.decodedSizeMismatch(expected: fused.plan.decodedSize, got: source.tiling.imageSize)
                }
                let rows = source.rows(region: region)
                opened = rows
                return rows
            }, sink: sink)
            return (warnings, opened?.seconds ?? source.openSeconds)
        }
    }

    /// The rendering in the plan's orientation: each row the sampler makes is placed where the
    /// orientation shows it as it is made (`OrientedPlacement`), so a turned raster costs no pass
    /// of its own after the render.
    func render(_ plan: RenderPlan, pixels: Pixels, program: ColourProgram) throws -> Rendering {
        // Not zero-filled: the pipeline hands over every row and the orientation is one to one,
        // so every byte is written before the raster is read (a throw discards it). Filling it
        // first was a serial memset and its page faults ahead of the render (a 24 MP portrait:
        // 98 MB, about a tenth of a second).
        let bytes = plan.orientedSize.pixelCount * 4
        var image = RGBA8Image(size: plan.orientedSize,
                               pixels: [UInt8](unsafeUninitializedCapacity: bytes) { _, count in count = bytes })
        var decoded: (warnings: [String], decodeSeconds: Double) = ([], 0)
        try image.pixels.withUnsafeMutableBufferPointer { raster in
            // Every page of it is written once: in 2 MB pages, that is a fault per 2 MB.
            HugePages.advise(UnsafeMutableRawBufferPointer(raster))
            let placement = OrientedPlacement(orientation: plan.orientation, unorientedSize: plan.outputSize,
                                              raster: raster.baseAddress!)
            decoded = try run(FusedRenderer(plan: plan, program: program, decoder: decoder), pixels: pixels) { j, row in
                placement.place(row: j, row)
            }
        }
        var rendering = Rendering(image: image, workingSpace: program.space,
                                  approximations: program.approximations,
                                  warnings: Self.warnings(decoded.warnings, plan: plan, program: program),
                                  isGrey: program.leavesGrey)
        rendering.decodeMs = decoded.decodeSeconds * 1000
        return rendering
    }

    /// A render's warnings: the decode's, the steps left out, then the region kernels' remarks.
    static func warnings(_ decoding: [String], plan: RenderPlan, program: ColourProgram) -> [String] {
        decoding + program.skipped + program.storedRegionWarnings(imageSize: plan.decodedSize)
    }

    /// An encoded render's file with its notes (the program's approximations, `warnings`) and the
    /// decode's time.
    static func encoded(_ bytes: [UInt8], format: ImageFormat, size: PixelSize, plan: RenderPlan, program: ColourProgram,
                        decoded: (warnings: [String], decodeSeconds: Double)) -> EncodedRendering {
        var rendering = EncodedRendering(bytes: bytes, format: format, size: size, approximations: program.approximations,
                                         warnings: warnings(decoded.warnings, plan: plan, program: program))
        rendering.decodeMs = decoded.decodeSeconds * 1000
        return rendering
    }

    /// Renders and encodes in one pass: for an upright JPEG or PNG the rows go to the encoder as
    /// they are made, so neither the source nor the output is ever whole in memory (a PNG at the
    /// default `PNGCompression`; the file's bytes are held, as the JPEG's are). EXIF orientations
    /// other than 1 render the raster whole first, each row placed where the orientation shows it
    /// as it is made (`OrientedPlacement`), and encode it from there.
    package func renderEncoded(_ plan: RenderPlan, jpeg: [UInt8], format: ImageFormat, quality: Int) throws -> EncodedRendering {
        try renderEncoded(plan, original: .jpeg(OriginalBytes(jpeg)), format: format, quality: quality)
    }

    /// As `renderEncoded(_:jpeg:format:quality:)`, for a JPEG or a HEIC original (a HEIC is
    /// decoded whole first, then streamed through the same pass).
    package func renderEncoded(_ plan: RenderPlan, original: OriginalImage, format: ImageFormat,
                              quality: Int) throws -> EncodedRendering {
        try withPixels(of: original, plan: plan) { pixels, program in
            try renderEncoded(plan, pixels: pixels, program: program, format: format, quality: quality)
        }
    }

    private func renderEncoded(_ plan: RenderPlan, pixels: Pixels, program: ColourProgram, format: ImageFormat,
                               quality: Int) throws -> EncodedRendering {
        if format == .png {
            return try renderPNG(plan, pixels: pixels, program: program) { hasAlpha in
                try PNGRowWriter.inMemory(size: plan.orientedSize, hasAlpha: hasAlpha, compression: .default)
            }
        }
        guard plan.orientation == .identity else { return try turnedJPEG(plan, pixels: pixels, program: program, quality: quality) }
        let size = plan.outputSize
        let grey = program.leavesGrey
        let writer = try JPEGRowWriter(size: size, quality: quality, greyPicture: grey, bytesPerPixel: 4)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: size.width * 4)
        defer { scratch.deallocate() }
        let working = program.space.fromByte
        let decoded = try run(FusedRenderer(plan: plan, program: program, decoder: decoder), pixels: pixels) { _, row in
            let rgbx = JPEGEncoder.rowOverBlack(row, count: size.width, scratch: scratch, working: working, space: program.space)
            assert(!grey || RGBA8Image.isGrey(rgbx, count: size.width), "a grey program's row is not grey")
            try writer.write(rows: rgbx, stride: size.width * 4, count: 1)
        }
        return Self.encoded(try writer.finish(), format: .jpeg, size: size, plan: plan, program: program, decoded: decoded)
    }

    /// A turned output (EXIF orientation ≠ 1) as a JPEG: each row composited over black where it
    /// is not opaque, as the encoder takes it, and placed where the orientation shows it as it is
    /// made (`OrientedPlacement`), into a raster of RGB, or of one byte a pixel while the picture
    /// is grey; then the raster encoded in stripes on every core: it is whole, so nothing is left
    /// to overlap the encode with (`StripedJPEGEncoder`). RGB rather than the rendering's RGBA,
    /// grey rather than RGB: the same bytes to the encoder, and less memory to touch (a 24 MP
    /// portrait's raster 73 MB instead of 98 MB, and 24 MB in black and white; docs/benchmark.md,
    /// tenth and eleventh parts).
    private func turnedJPEG(_ plan: RenderPlan, pixels: Pixels, program: ColourProgram, quality: Int) throws -> EncodedRendering {
        let (size, width) = (plan.orientedSize, plan.outputSize.width)
        let (working, space) = (program.space.fromByte, program.space)
        // Not zero-filled: every byte is written before it is read, as in `render`. The RGB
        // raster is touched only once a band is not grey.
        let count = size.pixelCount
        var raster = [UInt8](unsafeUninitializedCapacity: count * 3) { _, initialized in initialized = count * 3 }
        var greyRaster = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4)
        defer { scratch.deallocate() }
        var decoded: (warnings: [String], decodeSeconds: Double) = ([], 0)
        let file = try raster.withUnsafeMutableBufferPointer { rgb in
            try greyRaster.withUnsafeMutableBufferPointer { grey in
                HugePages.advise(UnsafeMutableRawBufferPointer(rgb))
                HugePages.advise(UnsafeMutableRawBufferPointer(grey))
                let placement = OrientedPlacement(orientation: plan.orientation, unorientedSize: plan.outputSize,
                                                  raster: rgb.baseAddress!, bytesPerPixel: 3, grey: grey.baseAddress!)
                decoded = try run(FusedRenderer(plan: plan, program: program, decoder: decoder), pixels: pixels) { j, row in
                    placement.place(row: j, JPEGEncoder.rowOverBlack(row, count: width, scratch: scratch, working: working, space: space))
                }
                assert(!program.leavesGrey || placement.isGrey, "a grey program's picture is not grey")
                return try StripedJPEGEncoder.encode(size: size, quality: quality, greyPicture: program.leavesGrey,
                                                     stripes: ChunkedRowPipeline.workers, bytesPerPixel: 3) { row, scratch in
                    placement.rgbRow(row, scratch: scratch)
                }
            }
        }
        return Self.encoded(file, format: .jpeg, size: size, plan: plan, program: program, decoded: decoded)
    }
}
