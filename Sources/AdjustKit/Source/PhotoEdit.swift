/// One photo and its edit, read and planned: the library's main entry point. The photo is a JPEG
/// or a HEIC/HEIF (`OriginalImage`, chosen by content).
///
/// ```swift
/// let edit = try PhotoEdit(imagePath: "IMG_0001.JPG")          // finds embedded XMP or a sidecar
/// let rendering = try edit.render()                              // rendering.image: RGBA8Image, upright
/// try edit.write(rendering.encoded(as: .jpeg), to: "IMG_0001-edited.jpg")   // keeps EXIF, ICC, XMP
/// ```
public struct PhotoEdit: Sendable {
    /// The photo's path, as given.
    public var imagePath: String
    /// The photo's file and what kind of image it is: its head read (header and metadata), the
    /// rest read from the file as a render decodes it.
    package var original: OriginalImage
    /// The photo's whole file (a JPEG's or a HEIC's bytes; the name is from when only JPEGs were
    /// read), read again from the file; empty when that fails.
    @available(*, deprecated, message: "the photo's file is not held in memory: use original.source.whole(), which reports a failed read")
    package var jpeg: [UInt8] { (try? original.source.whole()) ?? [] }
    /// The edit found or loaded, and where it came from.
    public var edit: LoadedEdit
    /// The render plan for this photo, its edit and the requested size.
    package var plan: RenderPlan
    /// What runs `plan` on `original`.
    package var renderer: Renderer

    /// Reads the photo at `imagePath` and its edit, and plans the render, with the defaults of
    /// `adjust render`: the input limits, Photos' own reading of a modern edit, the streaming
    /// renderer.
    /// - Parameters:
    ///   - editPath: an explicit edit file (XMP, AAE, metadata dump or JPEG); nil to look for one:
    ///     where a Photos library or an iPhone backup keeps it for an original inside one, else the
    ///     photo's own XMP, then a sidecar beside it (`IMG_0001.xmp`, `IMG_0001.AAE`, …).
    ///   - size: full size, a DCT scale, or a longest-side limit.
    /// - Throws: `FileError` naming the photo or the edit file and the problem.
    public init(imagePath: String, editPath: String? = nil, size: SizeRequest = .full) throws(FileError) {
        try self.init(imagePath: imagePath, editPath: editPath, size: size, editSource: EditSource(),
                      planner: RenderPlanner(), renderer: Renderer())
    }

    /// As `init(imagePath:editPath:size:)`, with the edit reader, planner and renderer given (the
    /// CLI's limits and options).
    package init(imagePath: String, editPath: String? = nil, size: SizeRequest = .full,
                 editSource: EditSource = EditSource(), planner: RenderPlanner = RenderPlanner(),
                 renderer: Renderer = Renderer()) throws(FileError) {
        let original = try OriginalImage(path: imagePath, limit: editSource.limits.maxInputBytes, heic: renderer.heicDecoder)
        let storedSize: PixelSize
        var exif: (value: Int?, warning: String?)
        var notes: [String] = []
        var heicHeader: HEICHeader?
        do {
            switch original {
            case .jpeg(let source):
                // The header segments are all a header read and the EXIF reader look at.
                storedSize = try renderer.decoder.header(of: source.head).size
                exif = ExifOrientation.read(inJPEG: source.head)
            case .heic(_, let header):
                // irot/imir are normative; the EXIF Orientation is informative (header.notes
                // says when the two disagree).
                storedSize = header.size
                exif = (header.orientation, nil)
                heicHeader = header
            }
        } catch let error {
            throw FileError(path: imagePath, kind: .invalidContent, error)
        }
        let edit: LoadedEdit
        if let editPath {
            edit = try editSource.load(editFile: editPath)
        } else if editSource.searches, editSource.findsLayoutEdits, let layoutEdit = PhotoWalker.layoutEdit(ofOriginal: imagePath) {
            // A library's or backup's original: its edit is where the layout keeps it, not beside it.
            edit = try editSource.load(editFile: layoutEdit)
        } else {
            edit = try editSource.find(forImage: imagePath, jpeg: original.metadataJPEG)
        }
        // A portrait's DepthEffect uses the depth image: it is then not named as unused.
        if let heicHeader { notes = heicHeader.notes(usingDepth: edit.chain[DepthEffect.self] != nil) }
        var plan: RenderPlan
        do {
            plan = try planner.plan(storedSize: storedSize, exifOrientation: exif.value, chain: edit.chain, size: size,
                                    scaledDecode: original.hasScaledDecode)
            if let warning = exif.warning { plan.warnings.insert(warning, at: 0) }
            plan.warnings.insert(contentsOf: notes, at: 0)
            if let warning = edit.masterSizeWarning(storedSize: storedSize) { plan.warnings.append(warning) }
        } catch {
            throw FileError(path: edit.origin.path ?? imagePath, kind: .invalidContent, error)
        }
        (self.imagePath, self.original, self.edit, self.plan, self.renderer) = (imagePath, original, edit, plan, renderer)
    }

    /// Renders the planned output, reading the photo's file as the decoder consumes it.
    public func render() throws(FileError) -> Rendering {
        try refuseWhenNothingReplayable()
        do {
            return try renderer.render(plan, original: original)
        } catch {
            throw renderFailure(error)
        }
    }

    /// Renders and encodes in one pass, the fast path (`Renderer.renderEncoded`): an upright
    /// JPEG is encoded row by row as it is rendered, so no whole image is ever held.
    public func renderEncoded(format: ImageFormat, quality: Int = 90) throws(FileError) -> EncodedRendering {
        try refuseWhenNothingReplayable()
        do {
            return try renderer.renderEncoded(plan, original: original, format: format, quality: quality)
        } catch {
            throw renderFailure(error)
        }
    }

    /// A render's failure as the error to report: the photo's file could not be read again or
    /// changed since it was planned (its own `FileError`); the edit's fault, found before anything
    /// is decoded (named by the edit's file); else the photo's content.
    func renderFailure(_ error: any Error) -> FileError {
        switch error {
        case let error as FileError: error
        case let error as RenderError where error.isTheEditsFault:
            FileError(path: edit.origin.path ?? imagePath, kind: .unsupported, error)
        default: FileError(path: imagePath, kind: .invalidContent, error)
        }
    }

    /// `metadata` as this photo's output carries it: the original's XMP left out without a word
    /// when the edit reader could not read it (`EditSource.unreadableXMP`: it said so already).
    func carried(_ metadata: MetadataOptions) -> MetadataOptions {
        var metadata = metadata
        if edit.warnings.contains(where: { $0.hasPrefix(EditSource.unreadableXMP) }) { metadata.leaveOutXMP = true }
        return metadata
    }

    /// Writes an encoded rendering (`renderEncoded`, or `render()` then `Rendering.encoded(as:)`)
    /// atomically: to a temporary file beside `path`, renamed into place, so there is never a
    /// partial file. A JPEG gets this photo's metadata carried over by `MetadataCarryOver`: EXIF
    /// with Orientation 1 and the new size, the ICC profile, the XMP without the aas edit. A PNG gets
    /// the ICC profile (`iCCP`) and the same rewritten EXIF (`eXIf`) by `PNGMetadata`, and
    /// `metadata.provenance` as an XMP iTXt chunk; no other XMP. Returns the carry-over's warnings.
    @discardableResult
    public func write(_ rendering: EncodedRendering, to path: String,
                      metadata: MetadataOptions = MetadataOptions()) throws(FileError) -> [String] {
        var (bytes, warnings) = (rendering.bytes, [String]())
        let metadata = carried(metadata)
        switch rendering.format {
        case .jpeg:
            (bytes, warnings) = MetadataCarryOver.carryOver(from: original.metadataJPEG, into: bytes,
                                                            outputSize: rendering.size, options: metadata)
        case .png:
            (bytes, warnings) = PNGMetadata.carryOver(from: original.metadataJPEG, into: bytes,
                                                      outputSize: rendering.size, options: metadata)
        }
        do { try AtomicFileWriter.write(bytes, to: path) } catch { throw FileError(path: path, kind: .unwritable, error) }
        return warnings
    }

    /// An edit all of whose adjustments are left out would render as the unedited photo: refused
    /// (exit 69 in the CLI) whatever `ColourOptions.skipUnknownFilters` says.
    func refuseWhenNothingReplayable() throws(FileError) {
        guard edit.chain.replaysNothing else { return }
        throw FileError(path: edit.origin.path ?? imagePath, kind: .unsupported,
                        RenderError.nothingReplayable(edit.chain.notReplayed))
    }

    /// `renderEncoded` then `write`: the quickest way from a photo to an edited file. A PNG is
    /// written to the file as it is encoded, at the default `PNGCompression`
    /// (`renderAndWritePNG`): the rendering returned then has no `bytes`.
    @discardableResult
    public func renderAndWrite(to path: String, format: ImageFormat, quality: Int = 90,
                               metadata: MetadataOptions = MetadataOptions()) throws(FileError)
        -> (rendering: EncodedRendering, metadataWarnings: [String]) {
        try renderAndWrite(to: path, format: format, quality: quality, pngCompression: .default, metadata: metadata)
    }

    /// `renderAndWrite`, a PNG deflated as `pngCompression` says.
    @discardableResult
    package func renderAndWrite(to path: String, format: ImageFormat, quality: Int, pngCompression: PNGCompression,
                                metadata: MetadataOptions) throws(FileError)
        -> (rendering: EncodedRendering, metadataWarnings: [String]) {
        if format == .png { return try renderAndWritePNG(to: path, compression: pngCompression, metadata: metadata) }
        let rendering = try renderEncoded(format: format, quality: quality)
        return (rendering, try write(rendering, to: path, metadata: metadata))
    }
}
