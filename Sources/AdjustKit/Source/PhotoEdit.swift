/// One photo and its edit, read and planned: the library's main entry point.
///
/// ```swift
/// let edit = try PhotoEdit(imagePath: "IMG_0001.JPG")          // finds embedded XMP or a sidecar
/// let rendering = try edit.render()                              // rendering.image: RGBA8Image, upright
/// try PhotoEdit.write(rendering, to: "IMG_0001-edited.jpg", format: .jpeg, quality: 90)
/// ```
public struct PhotoEdit: Sendable {
    public var imagePath: String
    public var jpeg: [UInt8]
    public var edit: LoadedEdit
    public var plan: RenderPlan
    public var renderer: Renderer

    /// - Parameters:
    ///   - editPath: an explicit edit file (XMP, metadata dump or JPEG); nil to look for one.
    ///   - size: full size, a DCT scale, or a longest-side limit.
    public init(imagePath: String, editPath: String? = nil, size: SizeRequest = .full,
                editSource: EditSource = EditSource(), planner: RenderPlanner = RenderPlanner(),
                renderer: Renderer = Renderer()) throws(FileError) {
        let jpeg = try InputFile.read(imagePath, limit: editSource.limits.maxInputBytes)
        let header: JPEGHeader
        do { header = try renderer.decoder.header(of: jpeg) } catch let error {
            throw FileError(path: imagePath, kind: .invalidContent, error)
        }
        let edit: LoadedEdit
        if let editPath {
            edit = try editSource.load(editFile: editPath)
        } else {
            edit = try editSource.find(forImage: imagePath, jpeg: jpeg)
        }
        var plan: RenderPlan
        do {
            let exif = ExifOrientation.read(inJPEG: jpeg)
            plan = try planner.plan(storedSize: header.size, exifOrientation: exif.value, chain: edit.chain, size: size)
            if let warning = exif.warning { plan.warnings.insert(warning, at: 0) }
        } catch {
            throw FileError(path: Self.editPath(edit.origin) ?? imagePath, kind: .invalidContent, error)
        }
        (self.imagePath, self.jpeg, self.edit, self.plan, self.renderer) = (imagePath, jpeg, edit, plan, renderer)
    }

    /// Renders the planned output.
    public func render() throws(FileError) -> Rendering {
        do {
            try renderer.validate(plan)
        } catch {
            throw FileError(path: Self.editPath(edit.origin) ?? imagePath, kind: .unsupported, error)
        }
        do {
            return try renderer.render(plan, jpeg: jpeg)
        } catch {
            throw FileError(path: imagePath, kind: .invalidContent, error)
        }
    }

    /// Encodes a rendering and writes it atomically (no partial file on failure).
    public static func write(_ rendering: Rendering, to path: String, format: ImageFormat, quality: Int = 90) throws(FileError) {
        do {
            let bytes = try format == .jpeg
                ? JPEGEncoder.encode(rendering.image, quality: quality, compositingIn: rendering.workingSpace)
                : PNGCodec.encode(rendering.image)
            try AtomicFileWriter.write(bytes, to: path)
        } catch {
            throw FileError(path: path, kind: .unwritable, error)
        }
    }

    static func editPath(_ origin: EditOrigin) -> String? {
        switch origin {
        case .xmpFile(let path), .metadataDump(let path), .embedded(let path), .sidecar(let path): return path
        case .none: return nil
        }
    }
}
