import AdjustKit
import ArgumentParser
import Foundation

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Apply a photo's edit and write the edited image.",
        discussion: """
        Without --edit (or its alias --xmp) the edit is the JPEG's own XMP (if it has aas \
        properties), else a sidecar IN-stem.xmp or .XMP beside it, else a modern Photos edit \
        IN-stem.AAE (any case) or the capture-time IMG_O1234.aae of IMG_1234. With none, nothing \
        is written (exit 66) unless --unedited says what to write. EXIF orientation (or a modern \
        edit's own orientation) is applied after the edit; the output is upright. Nothing is \
        written unless the whole render succeeds.

        Exit status: 0 success; 64 bad command line; 65 invalid input (a damaged photo or edit, \
        an edit that keeps nothing); 66 the photo, or any edit for it, is missing; 69 the edit \
        cannot be replayed (--strict, another app's edit, nothing replayable) or HEIC needs a \
        newer libheif; 73 the output cannot be written.

        EXAMPLES:
          adjust render IMG_1234.HEIC                      (finds IMG_1234.AAE; writes IMG_1234-edited.jpg)
          adjust render IMG_1234.JPG --edit IMG_1234.AAE -o edited/ --max-size 2048
          adjust render photo.jpg --xmp edits.xmp -o photo-edited.png
        """)

    @Argument(help: ArgumentHelp("The original JPEG or HEIC.", valueName: "IN"))
    var input: String

    /// Caught so that `render IN OUT` gets a suggestion rather than "Unexpected argument".
    @Argument(help: .hidden)
    var unexpected: [String] = []

    @Option(name: [.customLong("edit"), .customLong("xmp")], help: ArgumentHelp(
        "The edit: an .AAE (modern Photos edit), an XMP packet, a plist/JSON metadata dump with an AdjustmentXMP key, or a JPEG carrying aas XMP. --xmp is an alias.",
        valueName: "FILE"))
    var xmp: String?

    @Option(name: [.short, .long], help: ArgumentHelp(
        "Output path, an existing folder to write into, or - for standard output (the whole image or nothing: JPEG unless --format png) (default: IN-stem-edited.jpg, or .png with --format png, in the current directory).",
        valueName: "OUT"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "For a photo without an edit: copy (the original's bytes when nothing asked for changes them, else rendered) or render (always decoded and written). Without it nothing is written.",
        valueName: "copy|render"))
    var unedited: UneditedPolicy.ForRender?

    @OptionGroup var size: SizeOptions

    @OptionGroup var colour: ColourOptionGroup

    @OptionGroup var metadata: MetadataOptionGroup


    @Option(name: .long, help: ArgumentHelp(
        "Output format, jpeg or png (default: from OUT's extension, else jpeg). PNG keeps transparency.",
        valueName: "jpeg|png"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("JPEG quality, 1–100.", valueName: "Q"))
    var quality: Int = 90

    @Option(name: .long, help: ArgumentHelp(
        "PNG compression (zlib level), 0 (stored, fastest) to 9 (slowest, usually smallest). Only the file's size changes, never its pixels.",
        valueName: "N"))
    var pngCompression: Int = PNGCompression.default.level

    // Last and untitled: help lists the options a user reaches for first, then the limits
    // (swift-argument-parser shows every titled group before the untitled options).
    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if let extra = unexpected.first {
            throw ValidationError("render takes one photo; name the output with -o: adjust render \(input) -o \(extra)")
        }
        if EditFileName.isEdit(input) {
            throw ValidationError("\(input) is an edit, not a photo: adjust render PHOTO --edit \(input)")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100, got \(quality)") }
        guard PNGCompression(level: pngCompression) != nil else {
            throw ValidationError("--png-compression must be 0–9, got \(pngCompression)")
        }
        if let format, ImageFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("--format must be jpeg or png, got '\(format)'")
        }
        _ = try outputFormatAndPath()
    }

    /// `--png-compression`, valid once `validate` has run.
    private var compression: PNGCompression { PNGCompression(level: pngCompression)! }

    /// The format from --format or the output's extension, and the output path.
    func outputFormatAndPath() throws -> (ImageFormat, String) {
        let requested = format.flatMap { ImageFormat(rawValue: $0.lowercased()) }
        let stem = LayoutNames.stem(input)
        guard let output else {
            let format = requested ?? .jpeg
            return (format, "\(stem)-edited.\(format.fileExtension)")
        }
        if output == "-" { return (requested ?? .jpeg, output) }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue {
            let format = requested ?? .jpeg
            return (format, (output.hasSuffix("/") ? output : output + "/") + "\(stem)-edited.\(format.fileExtension)")
        }
        let ext = (output as NSString).pathExtension
        let implied = ImageFormat(pathExtension: ext)
        switch (requested, implied) {
        case let (requested?, implied?) where requested != implied:
            throw ValidationError("--format \(requested.rawValue) contradicts the output extension .\(ext)")
        case let (format?, _), let (nil, format?):
            return (format, output)
        case (nil, nil):
            throw ValidationError("cannot tell the output format from '\(output)': use a .jpg or .png name, or --format")
        }
    }

    func run() throws {
        MallocPolicy.keepFreedMemoryForReuse()
        let (format, requestedPath) = try outputFormatAndPath()
        // `-o -`: rendered to a private temporary file first, so that a failure writes nothing
        // to standard output (the per-file contract: docs/spec/photos-library.md §6).
        let toStandardOutput = requestedPath == "-"
        var scratch: String?
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        let outputPath: String
        if toStandardOutput {
            var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("adjust-render.XXXXXX").utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw Diagnostics.fail(FileError(path: NSTemporaryDirectory(), kind: .unwritable,
                                                 problem: "cannot make a temporary folder: \(String(cString: strerror(errno)))"))
            }
            scratch = String(cString: made)
            outputPath = scratch! + "/out." + format.fileExtension
        } else {
            outputPath = requestedPath
        }
        try renderOutput(format: format, to: outputPath)
        if toStandardOutput {
            do { try Self.copyToStandardOutput(outputPath) } catch { throw Diagnostics.fail(error) }
        }
    }

    /// Streams the finished file at `path` to standard output.
    private static func copyToStandardOutput(_ path: String) throws(FileError) {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileError(path: path, kind: .unreadable, problem: String(cString: strerror(errno))) }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, count - offset) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    throw FileError(path: "standard output", kind: .unwritable, problem: "cannot write: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }

    private func renderOutput(format: ImageFormat, to outputPath: String) throws {
        do {
            if FileIdentity.same(input, outputPath) {
                throw FileError(path: outputPath, kind: .unwritable, problem: "refusing to overwrite the input image")
            }
            let renderer = Renderer(decoder: limits.decoder, colour: try colour.options())
            let photo = try PhotoEdit(imagePath: input, editPath: xmp, size: size.request, editSource: limits.editSource,
                                      planner: limits.planner, renderer: renderer)
            Diagnostics.report(photo.edit, plan: photo.plan, image: input)
            if photo.edit.origin == .none {
                try writeUnedited(photo, format: format, to: outputPath)
                return
            }
            let (rendering, metadataWarnings) = try photo.renderAndWrite(to: outputPath, format: format, quality: quality,
                                                                         pngCompression: compression, metadata: metadata.options)
            if let line = Diagnostics.notReplayedLine(photo.edit.chain, image: input) { Diagnostics.warn(line) }
            for warning in metadataWarnings { Diagnostics.warn("\(input): \(warning)") }
            for warning in rendering.warnings { Diagnostics.warn("\(input): \(warning)") }
            if !rendering.approximations.isEmpty {
                Diagnostics.note("\(input): approximate filters used: " + rendering.approximations.joined(separator: "; "))
            }
        } catch let error as FileError {
            throw Diagnostics.fail(error)
        }
    }

    /// A photo without an edit: nothing written unless --unedited asks; a copy when faithful.
    private func writeUnedited(_ photo: PhotoEdit, format: ImageFormat, to outputPath: String) throws(FileError) {
        guard let unedited else {
            throw FileError(path: input, kind: .unreadable, problem: "no edit found (its own XMP, \(Self.sidecarNames(input))); "
                + "nothing written: --edit FILE names the edit, --unedited copy|render writes the photo anyway")
        }
        if unedited.policy == .copy, UneditedPolicy.copyIsFaithful(photo, to: outputPath, size: size.request, metadata: metadata.options) {
            try UneditedPolicy.copy(photo, to: outputPath)
            Diagnostics.note("\(input): no edit found; copied unchanged")
            return
        }
        let (rendering, metadataWarnings) = try photo.renderAndWrite(to: outputPath, format: format, quality: quality,
                                                                     pngCompression: compression, metadata: metadata.options)
        for warning in metadataWarnings + rendering.warnings { Diagnostics.warn("\(input): \(warning)") }
        Diagnostics.note("\(input): no edit found; written upright")
    }

    /// The sidecar names looked for, for the "no edit found" line.
    private static func sidecarNames(_ input: String) -> String {
        let stem = LayoutNames.stem(input)
        var names = ["\(stem).xmp", "\(stem).AAE"]
        if stem.uppercased().hasPrefix("IMG_") { names.append("IMG_O\(stem.dropFirst(4)).AAE") }
        return names.joined(separator: ", ")
    }
}
