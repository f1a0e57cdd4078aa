import AdjustKit
import ArgumentParser
import XMPParse

/// The resource limits on untrusted input, shared by `render` and `inspect`.
struct LimitOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Largest input file read, in bytes.", valueName: "N"))
    var maxInputBytes: Int = InputLimits().maxInputBytes

    @Option(name: .long, help: ArgumentHelp("Largest XMP packet, in bytes.", valueName: "N"))
    var maxXmpBytes: Int = XMPLimits.default.maxPacketBytes

    @Option(name: .long, help: ArgumentHelp("Deepest XML nesting in an XMP packet.", valueName: "N"))
    var maxXmpDepth: Int = XMPLimits.default.maxDepth

    @Option(name: .long, help: ArgumentHelp("Longest JPEG side, in pixels.", valueName: "N"))
    var maxSide: Int = JPEGDecoder().maxSide

    @Option(name: .long, help: ArgumentHelp("Most JPEG pixels.", valueName: "N"))
    var maxPixels: Int = JPEGDecoder().maxPixels

    @Option(name: .long, help: ArgumentHelp("Most output pixels.", valueName: "N"))
    var maxOutputPixels: Int = RenderPlanner().maxOutputPixels

    @Option(name: .long, help: ArgumentHelp("Most aas:Filters items in one edit.", valueName: "N"))
    var maxFilters: Int = InputLimits().maxChainFilters

    @Option(name: .long, help: ArgumentHelp("Most red-eye records in one edit.", valueName: "N"))
    var maxRedEye: Int = InputLimits().maxRedEyeCorrections

    @Flag(name: .long, help: "Render JPEGs whose image data is damaged (libjpeg's premature end, bad Huffman code, …: missing parts come out grey) instead of refusing them. Harmless warnings never refuse.")
    var tolerateJpegWarnings = false

    @Flag(name: .long, help: "Decode progressive JPEGs with more than libjpeg-turbo's 500 scans (slow by design).")
    var allowManyScans = false

    func validate() throws {
        for (name, value) in [("--max-input-bytes", maxInputBytes), ("--max-xmp-bytes", maxXmpBytes),
                              ("--max-xmp-depth", maxXmpDepth), ("--max-side", maxSide), ("--max-pixels", maxPixels),
                              ("--max-output-pixels", maxOutputPixels), ("--max-filters", maxFilters),
                              ("--max-red-eye", maxRedEye)] where value < 1 {
            throw ValidationError("\(name) must be at least 1, got \(value)")
        }
    }

    var editSource: EditSource {
        var limits = InputLimits()
        limits.maxInputBytes = maxInputBytes
        limits.xmp.maxPacketBytes = maxXmpBytes
        limits.xmp.maxDepth = maxXmpDepth
        limits.maxChainFilters = maxFilters
        limits.maxRedEyeCorrections = maxRedEye
        return EditSource(limits: limits)
    }

    var planner: RenderPlanner { RenderPlanner(maxOutputPixels: maxOutputPixels) }

    var decoder: JPEGDecoder {
        JPEGDecoder(maxSide: maxSide, maxPixels: maxPixels, tolerateWarnings: tolerateJpegWarnings,
                    allowManyScans: allowManyScans)
    }
}
