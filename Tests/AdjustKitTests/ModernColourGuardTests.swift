@testable import AdjustKit
import XCTest

/// The guard of the modern colour replay: no setting does what no Photos slider does. Every slider
/// of SmartTone, SmartColor and WhiteBalance is swept over its range, one at a time, with each
/// shared photo's own stored statistics (and light map), on a reduced sample of that photo's
/// pixels and on grey ramps: every output is finite, every tone curve on greys never turns back,
/// and the Light slider (the fitted law: the one place where adjust, not the user, chooses the
/// amounts) crushes or clips no more than a few per cent of the photo beyond the original.
final class ModernColourGuardTests: XCTestCase {
    /// A shared photo with Apple's edit of it (Fixtures/SOURCES.md).
    private struct SharedPhoto {
        var name: String, original: String, edit: String
    }

    private static let library = "Fixtures/photos-library/Test-10.15.7.photoslibrary/"
    private static let colourLibrary = "Fixtures/apple-renders/colour-library/"
    private static let photos = [
        SharedPhoto(name: "7783E8E6 (HEIC)", original: library + "originals/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266.heic",
                    edit: library + "resources/renders/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266.plist"),
        SharedPhoto(name: "IMG_3092 (the HEIC, Photos 4)", original: "Fixtures/apple-renders/photos4-export/IMG_3092.heic",
                    edit: "Fixtures/apple-renders/photos4-export/IMG_3092.AAE"),
        SharedPhoto(name: "CA6925A9 (the HEIC, Color +0.43)",
                    original: colourLibrary + "originals/C/CA6925A9-B198-4A2C-90DA-5583E69E16CA.heic",
                    edit: colourLibrary + "resources/renders/C/CA6925A9-B198-4A2C-90DA-5583E69E16CA.plist"),
        SharedPhoto(name: "IMG_1994", original: "Fixtures/apple-renders/export-macos13/IMG_1994.JPG",
                    edit: "Fixtures/apple-renders/export-macos13/IMG_1994.AAE"),
        SharedPhoto(name: "3A71DE26", original: colourLibrary + "originals/3/3A71DE26-EDEF-41D3-86C1-E8328DFC9FA0.jpeg",
                    edit: colourLibrary + "resources/renders/3/3A71DE26-EDEF-41D3-86C1-E8328DFC9FA0.plist"),
    ]

    /// Slider positions swept: −1…1 by 0.25.
    private static let positions = stride(from: -1.0, through: 1.0, by: 0.25).map { $0 }

    /// Pixels of the photo on a grid of at most `side` × `side` (linear sRGB) with their place
    /// (u, v) in the stored image.
    private struct Sample {
        var pixels: [(Float, Float, Float)] = []
        var places: [(Float, Float)] = []
    }

    private static func sample(_ photo: SharedPhoto, side: Int = 48) throws -> Sample {
        let bytes = try TestFixtures.bytes(TestFixtures.path(photo.original))
        let image = photo.original.lowercased().hasSuffix(".heic") ? try HEICDecoder().decode(bytes) : try JPEGDecoder().decode(bytes)
        let (w, h) = (image.size.width, image.size.height)
        var sample = Sample()
        for j in 0..<side {
            for i in 0..<side {
                let x = (2 * i + 1) * w / (2 * side), y = (2 * j + 1) * h / (2 * side)
                let o = (y * w + x) * 3
                sample.pixels.append((SRGBTransfer.decode(Float(image.pixels[o]) / 255), SRGBTransfer.decode(Float(image.pixels[o + 1]) / 255),
                                      SRGBTransfer.decode(Float(image.pixels[o + 2]) / 255)))
                sample.places.append(((Float(x) + 0.5) / Float(w), (Float(y) + 0.5) / Float(h)))
            }
        }
        return sample
    }

    private static func settings(_ photo: SharedPhoto, _ identifier: String) throws -> [String: AAEValue]? {
        let document = try AAEDocument(contentsOf: TestFixtures.bytes(TestFixtures.path(photo.edit)))
        return document.adjustments.first { $0.identifier == identifier }?.settings
    }

    /// Runs `filter`'s colour stage (linear working space) on one pixel at (u, v).
    private typealias Apply = (_ rgb: (Float, Float, Float), _ u: Float, _ v: Float) -> (Float, Float, Float)

    private static func apply(_ filter: any ColourFilter) throws -> Apply {
        let stage = try filter.colourStage(options: ColourOptions(workingSpace: .linear))
        guard let kernel = stage.kernel else { return { rgb, _, _ in rgb } }
        return try apply(kernel, of: filter)
    }

    private static func apply(_ kernel: any ColourKernel, of filter: any ColourFilter) throws -> Apply {
        switch kernel {
        case let kernel as any PixelKernel:
            return { rgb, _, _ in var (r, g, b) = rgb; kernel.apply(&r, &g, &b); return (r, g, b) }
        case let kernel as any StoredPositionalKernel:
            return { rgb, u, v in var (r, g, b) = rgb; kernel.apply(&r, &g, &b, u: u, v: v); return (r, g, b) }
        case let kernels as ColourKernels:   // SmartTone's local stages, then its global ones
            let parts = try kernels.kernels.map { try apply($0, of: filter) }
            return { rgb, u, v in parts.reduce(rgb) { rgb, part in part(rgb, u, v) } }
        default:
            XCTFail("an unexpected kernel kind for \(filter)"); throw CancellationError()
        }
    }

    /// Finite outputs on the sample, and a grey ramp (257 steps) that never decreases, at five
    /// places of the stored image. Returns the shares of the sample newly crushed (a channel ≤ 0
    /// where the original had none) and newly clipped (a channel ≥ 1 likewise).
    @discardableResult
    private func check(_ filter: any ColourFilter, on sample: Sample, _ label: String) throws -> (crushed: Double, clipped: Double) {
        let run = try Self.apply(filter)
        var (crushed, clipped) = (0, 0)
        for (pixel, place) in zip(sample.pixels, sample.places) {
            let out = run(pixel, place.0, place.1)
            guard out.0.isFinite, out.1.isFinite, out.2.isFinite else {
                XCTFail("\(label): not finite on \(pixel)"); return (1, 1)
            }
            if min(out.0, out.1, out.2) <= 0 && min(pixel.0, pixel.1, pixel.2) > 0 { crushed += 1 }
            if max(out.0, out.1, out.2) >= 1 && max(pixel.0, pixel.1, pixel.2) < 1 { clipped += 1 }
        }
        for place in [(0.5, 0.5), (0.1, 0.1), (0.9, 0.2), (0.3, 0.8), (0.7, 0.6)] as [(Float, Float)] {
            var previous: Float = -.infinity
            for step in 0...256 {
                let v = Float(step) / 256
                let out = run((v, v, v), place.0, place.1)
                let grey = (out.0 + out.1 + out.2) / 3
                XCTAssertGreaterThanOrEqual(grey, previous - 1e-5, "\(label): the grey curve turns back at \(v), \(place)")
                if grey < previous - 1e-5 { break }
                previous = grey
            }
        }
        let count = Double(sample.pixels.count)
        return (Double(crushed) / count, Double(clipped) / count)
    }

    func testSmartToneSlidersOnEverySharedPhoto() throws {
        let keys = ["inputLight", "offsetExposure", "offsetContrast", "offsetBrightness", "offsetShadows",
                    "offsetHighlights", "offsetBlackPoint", "offsetLocalLight"]
        for photo in Self.photos {
            let statistics = try XCTUnwrap(try Self.settings(photo, "SmartTone")?["statistics"], photo.name)
            let sample = try Self.sample(photo)
            // What the stored statistics allow: the levels map the stored black point to 0, so the
            // pixels with a channel up to it may go black; the stored p98 leaves 2 % above it.
            let blackPoint = Float(try XCTUnwrap(statistics.objectValue?["blackPoint"]?.numberValue))
            let belowBlack = Double(sample.pixels.count { min($0.0, $0.1, $0.2) <= blackPoint }) / Double(sample.pixels.count)
            for key in keys {
                for value in Self.positions {
                    let adjustment = AAEAdjustment(identifier: "SmartTone", settings: [key: .number(value), "statistics": statistics])
                    guard let tone = try SmartTone.read(aae: adjustment, assumptions: .default) else { continue }
                    let share = try check(tone, on: sample, "\(photo.name) SmartTone \(key) \(value)")
                    if key == "inputLight" {
                        // The law (adjust's choice, not the user's) may crush what lies below the
                        // stored black point and clip about what lies above the stored p98, plus
                        // 1 % of the photo: not a large part of it.
                        XCTAssertLessThanOrEqual(share.crushed, belowBlack + 0.01, "\(photo.name) Light \(value): newly crushed")
                        XCTAssertLessThanOrEqual(share.clipped, 0.03, "\(photo.name) Light \(value): newly clipped")
                    }
                }
            }
        }
    }

    func testSmartColorSlidersOnEverySharedPhoto() throws {
        let fallback = try XCTUnwrap(try Self.settings(Self.photos[2], "SmartColor")?["statistics"])
        for photo in Self.photos {
            let statistics = try Self.settings(photo, "SmartColor")?["statistics"] ?? fallback
            let sample = try Self.sample(photo)
            for key in ["inputColor", "offsetSaturation", "offsetContrast", "offsetCast"] {
                for value in Self.positions {
                    let adjustment = AAEAdjustment(identifier: "SmartColor", settings: [key: .number(value), "statistics": statistics])
                    guard let colour = try SmartColor.read(aae: adjustment, assumptions: .default) else { continue }
                    try check(colour, on: sample, "\(photo.name) SmartColor \(key) \(value)")
                    if key != "offsetCast" {
                        // Colour, not tone: a grey stays the same grey.
                        let run = try Self.apply(colour)
                        for v in [0.05, 0.3, 0.7] as [Float] {
                            let out = run((v, v, v), 0.5, 0.5)
                            XCTAssertEqual(out.0, v, accuracy: 1e-5, "\(photo.name) SmartColor \(key) \(value) grey \(v)")
                            XCTAssertEqual(out.2, v, accuracy: 1e-5, "\(photo.name) SmartColor \(key) \(value) grey \(v)")
                        }
                    }
                }
            }
        }
    }

    func testWhiteBalanceSlidersOnEverySharedPhoto() throws {
        var settings: [[String: AAEValue]] = []
        for value in Self.positions {
            settings.append(["colorType": .string("warmTint"), "warmTemp": .number(value)])
            settings.append(["colorType": .string("warmTint"), "warmTint": .number(value)])
            settings.append(["colorType": .string("neutralGray"), "grayI": .number(value * 0.2)])
            settings.append(["colorType": .string("neutralGray"), "grayQ": .number(value * 0.2)])
            settings.append(["colorType": .string("neutralGray"), "grayWarmth": .number(value)])
            settings.append(["colorType": .string("tempTint"), "temperature": .number(6500 * pow(2, value * 1.9))])
            settings.append(["colorType": .string("tempTint"), "temperature": .number(6500), "tint": .number(150 * value)])
            settings.append(["colorType": .number(1), "faceI": .number(value * 0.3), "faceQ": .number(0.05),
                             "faceStrength": .number(1), "faceWarmth": .number((value + 1) / 2)])
        }
        for photo in Self.photos {
            let sample = try Self.sample(photo, side: 24)
            for s in settings {
                guard let balance = try WhiteBalance.read(aae: AAEAdjustment(identifier: "WhiteBalance", settings: s),
                                                          assumptions: .default) else { continue }
                try check(balance, on: sample, "\(photo.name) WhiteBalance \(s)")
                if let g = balance.channelGains {
                    // Gains on linear light: a grey keeps its luminance.
                    XCTAssertEqual(0.2126 * g.0 + 0.7152 * g.1 + 0.0722 * g.2, 1, accuracy: 0.02, "\(s)")
                }
            }
        }
    }
}
