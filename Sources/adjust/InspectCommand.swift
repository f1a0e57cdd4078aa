import AdjustKit
import ArgumentParser
import Foundation

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print an edit's chain, where it came from, and the render plan.",
        discussion: """
        Give IN (the edit is found as `render` finds it — its own XMP, IN-stem.xmp, IN-stem.AAE or \
        IMG_O….AAE — or taken from --edit), or --edit FILE alone (an .AAE, Adjustments.plist, a \
        Photos library's resources/renders/…/UUID.plist, an XMP packet). A plan needs the image's \
        size: from IN, or from --image-size for --edit alone.

        Exit status: 0 printed; 64 bad command line; 65 invalid photo or edit; 66 a file is \
        missing; 69 HEIC needs a newer libheif.

        EXAMPLES:
          adjust inspect IMG_1234.HEIC
          adjust inspect IMG_1234.JPG --edit IMG_1234.AAE --max-size 1024 --json
          adjust inspect --edit IMG_1234.AAE --image-size 4032x3024 --orientation 6
        """)

    @Argument(help: ArgumentHelp("The original JPEG or HEIC.", valueName: "IN"))
    var input: String?

    @Option(name: [.customLong("edit"), .customLong("xmp")], help: ArgumentHelp("The edit file (.AAE, Adjustments.plist, XMP packet, metadata dump or JPEG). --xmp is an alias.", valueName: "FILE"))
    var xmp: String?

    @Option(name: .long, help: ArgumentHelp(
        "Stored pixel size to plan for when there is no IN, e.g. 2592x1936.", valueName: "WxH"))
    var imageSize: String?

    @Option(name: .long, help: ArgumentHelp(
        "EXIF orientation to plan for with --image-size (default 1).", valueName: "N"))
    var orientation: Int?

    @OptionGroup var size: SizeOptions

    @OptionGroup var colour: ColourOptionGroup


    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    // Last and untitled: help lists the options a user reaches for first, then the limits
    // (swift-argument-parser shows every titled group before the untitled options).
    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if input == nil, xmp == nil { throw ValidationError("give an image IN, or --edit FILE") }
        if let input, EditFileName.isEdit(input) {
            throw ValidationError("\(input) is an edit, not a photo: adjust inspect PHOTO --edit \(input), "
                + "or adjust inspect --edit \(input) --image-size WxH")
        }
        if input != nil, imageSize != nil { throw ValidationError("--image-size is only for --xmp without IN") }
        if input != nil, orientation != nil { throw ValidationError("--orientation is only for --xmp without IN") }
        if let imageSize, Self.parseSize(imageSize) == nil {
            throw ValidationError("--image-size must be WxH with positive integers, got '\(imageSize)'")
        }
    }

    func run() throws {
        do {
            let edit: LoadedEdit
            var plan: RenderPlan?
            var decode: String?
            if let input {
                let photo = try PhotoEdit(imagePath: input, editPath: xmp, size: size.request, editSource: limits.editSource,
                                          planner: limits.planner, renderer: Renderer(decoder: limits.decoder))
                (edit, plan) = (photo.edit, photo.plan)
                if case .heic(_, let header) = photo.original {
                    decode = HEICTiling.decodeSummary(header.tiling, region: photo.plan.decodeRegion, libheif: LibheifVersion.loaded)
                }
            } else {
                let path = xmp!   // validate() requires one of the two
                edit = try limits.editSource.load(editFile: path)
                if let imageSize, let stored = Self.parseSize(imageSize) {
                    do {
                        plan = try limits.planner.plan(storedSize: stored, exifOrientation: orientation,
                                                        chain: edit.chain, size: size.request)
                    } catch {
                        throw FileError(path: path, kind: .invalidContent, error)
                    }
                }
            }
            Diagnostics.report(edit, plan: plan, image: input)
            let exact = Set(try colour.options().effectCubes.keys)
            print(json ? InspectReport.json(edit: edit, plan: plan, exactEffects: exact, heicDecode: decode)
                       : InspectReport.text(edit: edit, plan: plan, exactEffects: exact, heicDecode: decode))
        } catch let error as FileError {
            throw Diagnostics.fail(error)
        }
    }

    static func parseSize(_ text: String) -> PixelSize? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0,
              w <= 1 << 20, h <= 1 << 20 else { return nil }
        return PixelSize(width: w, height: h)
    }
}
