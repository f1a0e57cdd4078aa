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
        IN-stem.AAE (any case) or the capture-time IMG_O1234.aae of IMG_1234; with none, the \
        original is written upright and \
        "no adjustments found" is said on standard error. EXIF orientation is applied after the \
        edit; the output is upright. Nothing is written unless the whole render succeeds.
        """)

    @Argument(help: ArgumentHelp("The original JPEG or HEIC.", valueName: "IN"))
    var input: String

    @Option(name: [.customLong("edit"), .customLong("xmp")], help: ArgumentHelp(
        "The edit: an .AAE (modern Photos edit), an XMP packet, a plist/JSON metadata dump with an AdjustmentXMP key, or a JPEG carrying aas XMP. --xmp is an alias.",
        valueName: "FILE"))
    var xmp: String?

    @Option(name: [.short, .long], help: ArgumentHelp(
        "Output path (default: IN-stem-edited.jpg, or .png with --format png, in the current directory).",
        valueName: "OUT"))
    var output: String?

    @OptionGroup var size: SizeOptions

    @OptionGroup var colour: ColourOptionGroup

    @OptionGroup var metadata: MetadataOptionGroup

    @OptionGroup(title: "Limits") var limits: LimitOptions

    @Option(name: .long, help: ArgumentHelp(
        "Output format, jpeg or png (default: from OUT's extension, else jpeg). PNG keeps transparency.",
        valueName: "jpeg|png"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("JPEG quality, 1–100.", valueName: "Q"))
    var quality: Int = 90

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100, got \(quality)") }
        if let format, ImageFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("--format must be jpeg or png, got '\(format)'")
        }
        _ = try outputFormatAndPath()
    }

    /// The format from --format or the output's extension, and the output path.
    func outputFormatAndPath() throws -> (ImageFormat, String) {
        let requested = format.flatMap { ImageFormat(rawValue: $0.lowercased()) }
        guard let output else {
            let format = requested ?? .jpeg
            let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
            return (format, "\(stem)-edited.\(format.fileExtension)")
        }
        let ext = URL(fileURLWithPath: output).pathExtension
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
        let (format, outputPath) = try outputFormatAndPath()
        do {
            if FileIdentity.same(input, outputPath) {
                throw FileError(path: outputPath, kind: .unwritable, problem: "refusing to overwrite the input image")
            }
            let renderer = Renderer(decoder: limits.decoder, colour: try colour.options())
            let photo = try PhotoEdit(imagePath: input, editPath: xmp, size: size.request, editSource: limits.editSource,
                                      planner: limits.planner, renderer: renderer)
            Diagnostics.report(photo.edit, plan: photo.plan, image: input)
            let (rendering, metadataWarnings) = try photo.renderAndWrite(to: outputPath, format: format, quality: quality,
                                                                         metadata: metadata.options)
            if let line = Diagnostics.notReplayedLine(photo.edit.chain, image: input) { Diagnostics.warn(line) }
            for warning in metadataWarnings { Diagnostics.warn("\(input): \(warning)") }
            for warning in rendering.warnings { Diagnostics.warn("\(input): \(warning)") }
            if !rendering.approximations.isEmpty {
                Diagnostics.note("\(input): approximate filters used: " + rendering.approximations.joined(separator: "; "))
            }
            if photo.edit.origin == .none {
                FileHandle.standardError.write(Data("adjust: \(input): no adjustments found\n".utf8))
            }
        } catch let error as FileError {
            throw Diagnostics.fail(error)
        }
    }
}
