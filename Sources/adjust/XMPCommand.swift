import AdjustKit
import ArgumentParser
import Foundation

struct XMPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xmp",
        abstract: "Write an AdjustmentXMP packet from flags, in the iOS writer's style.",
        discussion: """
        Builds an edit and prints its AdjustmentXMP packet (or writes it, whole or not at all, \
        to -o OUT). Use it with `render --xmp` or `inspect --xmp` to create, check and replay an \
        edit without Apple hardware.

        --crop X,Y,W,H is in the stored (un-rotated, EXIF orientation ignored) image's top-left \
        raster coordinates: X, Y is the top-left kept pixel. It needs --image-size WxH, the stored \
        size, because AdjustmentXMP keeps geometry in Core Image's frame (origin bottom-left, y \
        up). It is written as iOS wrote crops: AffineX = −X, AffineY = −(H − Y − h), then CropX \
        CropY CropW CropH = 0 0 W h (e.g. --crop 331,355,1938,1420 --image-size 2592x1936 gives \
        iOS 5.1.1's AffineX −331, AffineY −161, crop 0 0 1938 1420).

        --straighten DEG turns the picture DEG degrees counter-clockwise about the crop's centre \
        (the image's centre without --crop; needs --image-size). The output keeps the crop's \
        size (the whole image's without --crop), shrunk about its centre, same aspect, only as \
        much as needed for the turned rectangle to stay inside the image (0.5 px in), so the \
        result has no transparent corners. It is written as one affine (rotation + translation) \
        and CropX = CropY = 0, CropW × CropH the kept size.

        Colour: --vibrance A (−1…1), --shadows S (−1…1) and --highlights H (0…1; either alone \
        takes the other's identity, shadows 0 or highlights 1), --curve with five x,y points \
        in [0, 1] and increasing x. iOS's writer omits identity vibrance (|A| ≤ 0.001) and \
        highlight/shadow (|S| < 0.005 and H > 0.995), and so does this one. aas:Filters gets \
        --exposure EV (CIExposureAdjust) and then --effect NAME (chrome, fade, instant, mono, \
        noir, process, tonal, transfer, or the full CIPhotoEffect… name).

        Numbers are written like Core Image's %g (6 significant digits), or exactly with --exact.

        Exit status: 0 written; 64 bad command line (a value out of range, a crop outside \
        --image-size); 73 OUT cannot be written.

        EXAMPLES:
          adjust xmp --image-size 1800x1200 --crop 100,100,1400,900 --vibrance 0.4 -o edit.xmp
          adjust xmp --effect noir --exposure 0.5 -o noir.xmp && adjust render photo.jpg --edit noir.xmp
        """)

    @Option(name: [.short, .long], help: ArgumentHelp("Write the packet to OUT instead of standard output.",
                                                      valueName: "OUT.xmp"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "The stored image's pixel size (needed by --crop and --straighten), e.g. 2592x1936.", valueName: "WxH"))
    var imageSize: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep this rectangle of the stored image: top-left X, Y, width, height in pixels (top-left origin).",
        valueName: "X,Y,W,H"))
    var crop: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Straighten: turn counter-clockwise by DEG degrees (−45…45) about the crop's (or image's) centre.",
        valueName: "DEG"))
    var straighten: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("CIVibrance amount, −1…1.", valueName: "A"))
    var vibrance: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("CIHighlightShadowAdjust shadows, −1…1.", valueName: "S"))
    var shadows: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("CIHighlightShadowAdjust highlights, 0…1.", valueName: "H"))
    var highlights: Double?

    @Option(name: .long, help: ArgumentHelp(
        "CIToneCurve: five points x0,y0,…,x4,y4, each in [0, 1], x increasing.", valueName: "x0,y0,...,x4,y4"))
    var curve: String?

    @Option(name: .long, help: ArgumentHelp(
        "Photo effect: chrome, fade, instant, mono, noir, process, tonal, transfer (or CIPhotoEffect…).",
        valueName: "NAME"))
    var effect: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("CIExposureAdjust EV, −10…10.", valueName: "EV"))
    var exposure: Double?

    @Flag(name: .long, help: "Write numbers exactly (shortest round-trip form) instead of Core Image's %g.")
    var exact = false

    func validate() throws {
        _ = try makeChain()
    }

    func run() throws {
        let chain = try makeChain()
        let text = chain.adjustmentXMP(numberStyle: exact ? .exact : .coreImage)
        guard let output else {
            print(text, terminator: "")
            return
        }
        do {
            try AtomicFileWriter.write(Array(text.utf8), to: output)
        } catch {
            throw Diagnostics.fail(FileError(path: output, kind: .unwritable, error))
        }
    }

    /// The edit the flags describe; every malformed or out-of-range value is a ValidationError.
    func makeChain() throws -> EditChain {
        let anything = [crop, curve, effect].contains { $0 != nil }
            || [straighten, vibrance, shadows, highlights, exposure].contains { $0 != nil }
        guard anything else {
            throw ValidationError("give at least one adjustment (--crop, --straighten, --vibrance, --shadows, "
                                  + "--highlights, --curve, --effect, --exposure)")
        }
        var chain = EditChain()
        try addGeometry(to: &chain)
        try addColourFilters(to: &chain)
        try addSerializedFilters(to: &chain)
        return chain
    }

    /// `--image-size`, parsed; nil when not given.
    private func storedSize() throws -> PixelSize? {
        guard let imageSize else { return nil }
        guard let size = InspectCommand.parseSize(imageSize) else {
            throw ValidationError("--image-size must be WxH with positive integers, got '\(imageSize)'")
        }
        return size
    }

    /// `--crop` and `--straighten`: the affine + crop, in Core Image's frame.
    private func addGeometry(to chain: inout EditChain) throws {
        let stored = try storedSize()
        guard crop != nil || straighten != nil else { return }
        guard let stored else {
            throw ValidationError("\(crop != nil ? "--crop" : "--straighten") needs --image-size WxH (the stored image's size)")
        }
        var region = Rect(x: 0, y: 0, width: Double(stored.width), height: Double(stored.height))
        if let crop {
            let v = try Self.numbers(crop, option: "--crop", count: 4)
            let (x, y, w, h) = (v[0], v[1], v[2], v[3])
            guard x >= 0, y >= 0 else { throw ValidationError("--crop X and Y must be at least 0, got \(crop)") }
            guard w > 0, h > 0 else { throw ValidationError("--crop W and H must be positive, got \(crop)") }
            guard x + w <= Double(stored.width), y + h <= Double(stored.height) else {
                throw ValidationError("--crop \(crop) reaches outside the \(stored) image")
            }
            // Top-left raster → Core Image frame (y up).
            region = Rect(x: x, y: Double(stored.height) - y - h, width: w, height: h)
        }
        let degrees = straighten ?? 0
        guard degrees.isFinite, abs(degrees) <= 45 else {
            throw ValidationError("--straighten must be −45…45 degrees, got \(degrees)")
        }
        let geometry = StraightenGeometry.keeping(region, turnedBy: degrees, storedSize: stored)
        chain.affine = geometry.affine
        chain.crop = geometry.crop
    }

    /// `--vibrance`, `--shadows`/`--highlights`, `--curve`: the stored-frame filters.
    private func addColourFilters(to chain: inout EditChain) throws {
        if let vibrance {
            try Self.check(vibrance, "--vibrance", -1...1)
            chain.vibrance = Vibrance(amount: vibrance)
        }
        if shadows != nil || highlights != nil {
            if let shadows { try Self.check(shadows, "--shadows", -1...1) }
            if let highlights { try Self.check(highlights, "--highlights", 0...1) }
            chain.highlightShadow = HighlightShadow(shadows: shadows ?? 0, highlights: highlights ?? 1)
        }
        if let curve {
            let v = try Self.numbers(curve, option: "--curve", count: 10)
            guard v.allSatisfy({ (0...1).contains($0) }) else {
                throw ValidationError("--curve values must be in [0, 1], got \(curve)")
            }
            let points = stride(from: 0, to: 10, by: 2).map { Point(x: v[$0], y: v[$0 + 1]) }
            guard zip(points, points.dropFirst()).allSatisfy({ $0.x < $1.x }) else {
                throw ValidationError("--curve x values must increase, got \(curve)")
            }
            chain.toneCurve = ToneCurve(points: points)
        }
    }

    /// `--exposure` then `--effect`: the `aas:Filters` items, in that order.
    private func addSerializedFilters(to chain: inout EditChain) throws {
        if let exposure {
            try Self.check(exposure, "--exposure", -10...10)
            chain.serializedFilters.append(ExposureAdjust(ev: exposure).serialized)
        }
        if let effect {
            guard let photoEffect = PhotoEffect(name: effect) else {
                throw ValidationError("--effect must be one of chrome, fade, instant, mono, noir, process, tonal, "
                                      + "transfer (or the CIPhotoEffect… name), got '\(effect)'")
            }
            chain.serializedFilters.append(SerializedFilter(name: photoEffect.rawValue))
        }
    }

    private static func numbers(_ text: String, option: String, count: Int) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let values = parts.compactMap(Double.init)
        guard parts.count == count, values.count == count, values.allSatisfy(\.isFinite) else {
            throw ValidationError("\(option) needs \(count) comma-separated finite numbers, got '\(text)'")
        }
        return values
    }

    private static func check(_ value: Double, _ option: String, _ range: ClosedRange<Double>) throws {
        guard value.isFinite, range.contains(value) else {
            throw ValidationError("\(option) must be \(number(range.lowerBound))…\(number(range.upperBound)), got \(value)")
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : "\(value)"
    }
}
