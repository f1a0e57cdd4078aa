import AdjustKit
import ArgumentParser
import Foundation

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two images: PSNR, and max and mean absolute difference per channel.",
        discussion: """
        A and B are PNG, JPEG or HEIC/HEIF files of the same size (told apart by their content). \
        JPEGs and HEICs are compared as stored: no EXIF orientation or HEIF irot/imir is applied. \
        PNGs are read as 8-bit RGBA.

        PSNR is 10·log10(255² / MSE) in dB, MSE over R, G, B of every pixel — and over alpha too \
        when either image has a pixel that is not fully opaque (then an A row is shown). Identical \
        images have an infinite PSNR, printed "inf" (in JSON, the string "inf"). Mean difference \
        is Σ|a − b| over all pixels divided by the pixel count.

        Exit status: 0 the images are within the thresholds (always, without thresholds); 1 the \
        images differ beyond --max-diff or --min-psnr (one line on standard error says which); \
        64 bad command line; 65 an image is not a valid PNG, JPEG or HEIC, or the sizes differ; 66 an \
        image is missing or unreadable; 73 the diff image cannot be written.

        EXAMPLES:
          adjust compare expected.png actual.png --max-diff 1
          adjust compare IMG_E1234.JPG IMG_1234-edited.jpg --min-psnr 35 --diff-image diff.png --json
        """)

    @Argument(help: ArgumentHelp("The reference image (PNG, JPEG or HEIC).", valueName: "A"))
    var first: String

    @Argument(help: ArgumentHelp("The image to compare with it (PNG, JPEG or HEIC).", valueName: "B"))
    var second: String

    @Option(name: .long, help: ArgumentHelp(
        "Fail (exit 1) when any channel's largest absolute difference exceeds N (0–255).", valueName: "N"))
    var maxDiff: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Fail (exit 1) when the PSNR is below DB decibels.", valueName: "DB"))
    var minPsnr: Double?

    @Option(name: .long, help: ArgumentHelp(
        "Write |A − B| per channel, amplified ×8 (clamped to 255), opaque, as a PNG (written whole or not at all).",
        valueName: "OUT.png"))
    var diffImage: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if let maxDiff, !(0...255).contains(maxDiff) {
            throw ValidationError("--max-diff must be 0–255, got \(maxDiff)")
        }
        if let minPsnr, !minPsnr.isFinite {
            throw ValidationError("--min-psnr must be a finite number of dB, got \(minPsnr)")
        }
        if let diffImage, ImageFormat(pathExtension: URL(fileURLWithPath: diffImage).pathExtension) != .png {
            throw ValidationError("--diff-image must name a .png file, got '\(diffImage)'")
        }
    }

    func run() throws {
        let comparison: ImageComparison
        do {
            let a = try ImageComparator.load(first)
            let b = try ImageComparator.load(second)
            guard a.image.size == b.image.size else {
                throw FileError(path: second, kind: .invalidContent,
                                problem: "size \(b.image.size) differs from \(first)'s \(a.image.size)")
            }
            comparison = try ImageComparator.compare(a.image, b.image)
            if let diffImage {
                if FileIdentity.same(diffImage, first) || FileIdentity.same(diffImage, second) {
                    throw FileError(path: diffImage, kind: .unwritable, problem: "refusing to overwrite an input image")
                }
                let difference = try ImageComparator.differenceImage(a.image, b.image)
                do {
                    try AtomicFileWriter.write(try PNGCodec.encode(difference), to: diffImage)
                } catch {
                    throw FileError(path: diffImage, kind: .unwritable, error)
                }
            }
            print(json ? jsonReport(comparison, formats: (a.format, b.format))
                       : textReport(comparison, formats: (a.format, b.format)))
        } catch let error as FileError {
            throw Diagnostics.fail(error)
        } catch let error as ComparisonError {
            throw Diagnostics.fail(FileError(path: second, kind: .invalidContent, problem: error.description))
        }

        let failures = thresholdFailures(comparison)
        if !failures.isEmpty {
            FileHandle.standardError.write(Data(
                "adjust: images differ: \(first) vs \(second): \(failures.joined(separator: "; "))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Each exceeded threshold, in words.
    func thresholdFailures(_ comparison: ImageComparison) -> [String] {
        var failures: [String] = []
        if let maxDiff, comparison.maxDifference > maxDiff {
            let worst = comparison.channels.filter { $0.maxDifference > maxDiff }.map(\.name).joined(separator: ",")
            failures.append("max difference \(comparison.maxDifference) (\(worst)) exceeds --max-diff \(maxDiff)")
        }
        if let minPsnr, comparison.psnr < minPsnr {
            failures.append("PSNR \(Self.psnrText(comparison.psnr)) dB is below --min-psnr \(NumberStyle.exact.format(minPsnr))")
        }
        return failures
    }

    private func textReport(_ c: ImageComparison, formats: (ComparedImage.Format, ComparedImage.Format)) -> String {
        var lines = [
            "A: \(first) (\(formats.0.rawValue), \(c.size))",
            "B: \(second) (\(formats.1.rawValue), \(c.size))",
            "PSNR: \(c.isIdentical ? "inf" : Self.psnrText(c.psnr) + " dB")",
            "differing pixels: \(c.differingPixels) of \(c.size.pixelCount)",
            "channel  max  mean",
        ]
        for channel in c.channels {
            let maxText = String(channel.maxDifference)
            lines.append(channel.name + String(repeating: " ", count: max(1, 12 - channel.name.count - maxText.count)) + maxText
                         + "  " + String(format: "%.6g", channel.meanDifference))
        }
        return lines.joined(separator: "\n")
    }

    private func jsonReport(_ c: ImageComparison, formats: (ComparedImage.Format, ComparedImage.Format)) -> String {
        var channels: [String: Any] = [:]
        for channel in c.channels {
            channels[channel.name] = ["max": channel.maxDifference, "mean": channel.meanDifference]
        }
        var root: [String: Any] = [
            "a": ["path": first, "format": formats.0.rawValue],
            "b": ["path": second, "format": formats.1.rawValue],
            "width": c.size.width, "height": c.size.height,
            "alphaCompared": c.comparesAlpha,
            "psnr": c.isIdentical ? "inf" as Any : c.psnr as Any,
            "mse": c.meanSquaredError,
            "differingPixels": c.differingPixels,
            "channels": channels,
        ]
        let failures = thresholdFailures(c)
        root["withinThresholds"] = failures.isEmpty
        root["failedThresholds"] = failures
        if let diffImage { root["diffImage"] = diffImage }
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func psnrText(_ psnr: Double) -> String {
        psnr.isInfinite ? "inf" : String(format: "%.4f", psnr)
    }
}
