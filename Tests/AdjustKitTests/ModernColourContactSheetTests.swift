@testable import AdjustKit
import Foundation
import XCTest

/// Contact sheets for the approximate modern adjustments (Fixtures/golden/contact-sheets/NAME.png):
/// a real photo, original then three settings, side by side, rendered by the library
/// (`RenderPlanner` + `Renderer`, upright, 200 px on the longer side per tile). They were looked at
/// before committing (docs/spec/modern-adjustments.md says what each shows); this test re-renders
/// them so that a change in a kernel shows up here. `ADJUST_WRITE_CONTACT_SHEETS=1` rewrites them
/// (look at them again before committing).
final class ModernColourContactSheetTests: XCTestCase {
    struct Sheet {
        let name: String
        let photo: String
        let steps: [any EditFilter]
    }

    static let sheets: [Sheet] = [
        Sheet(name: "white-balance", photo: "Landscape_1.jpg", steps: [
            WhiteBalance(.temperatureTint(temperature: 9000, tint: 0)),
            WhiteBalance(.temperatureTint(temperature: 4000, tint: 30)),
            WhiteBalance(.warmthTint(warmth: 0.6, tint: -0.4, face: 0)),
        ]),
        Sheet(name: "smart-tone", photo: "Landscape_1.jpg", steps: [
            SmartTone(light: 0.6), SmartTone(light: -0.6),
            SmartTone(light: 0.2, offsetContrast: 0.6, offsetShadows: 0.5, offsetHighlights: -0.5),
        ]),
        Sheet(name: "smart-color", photo: "Landscape_1.jpg", steps: [
            SmartColor(color: 0.8), SmartColor(color: -0.85),
            SmartColor(color: 0.2, offsetSaturation: 0.4, offsetContrast: 0.5, offsetCast: 0.6),
        ]),
        Sheet(name: "smart-black-and-white", photo: "Landscape_1.jpg", steps: [
            SmartBlackAndWhite(hue: -0.5889986478365384), SmartBlackAndWhite(hue: 0.6521423969072164),
            SmartBlackAndWhite(hue: 0, offsetStrength: 0.5, offsetTone: 0.6, offsetNeutralGamma: 0.5),
        ]),
        Sheet(name: "curves", photo: "iphone4s-2592x1936.jpg", steps: [
            Curves(rgb: [Point(x: 0, y: 0), Point(x: 0.25, y: 0.18), Point(x: 0.75, y: 0.85), Point(x: 1, y: 1)]),
            Curves(rgb: [Point(x: 0, y: 0.1), Point(x: 0.5, y: 0.6), Point(x: 1, y: 0.95)]),
            Curves(red: [Point(x: 0, y: 0), Point(x: 0.5, y: 0.58), Point(x: 1, y: 1)],
                   blue: [Point(x: 0, y: 0), Point(x: 0.5, y: 0.42), Point(x: 1, y: 1)]),
        ]),
        Sheet(name: "levels", photo: "iphone4s-2592x1936.jpg", steps: [
            Levels(rgb: .init(sources: [0.1, 0.3, 0.5, 0.7, 0.9], destinations: [0, 0.25, 0.5, 0.75, 1])),
            Levels(rgb: .init(sources: [0, 0.25, 0.5, 0.75, 1], destinations: [0.1, 0.3, 0.6, 0.8, 0.95])),
            Levels(blue: .init(sources: [0, 0.25, 0.5, 0.75, 1], destinations: [0, 0.2, 0.4, 0.7, 1])),
        ]),
        Sheet(name: "vignette", photo: "Landscape_1.jpg", steps: [
            Vignette(intensity: 0.5, radius: 0.5, falloff: 0.5), Vignette(intensity: 1, radius: 0.8, falloff: 0.3),
            Vignette(intensity: -0.6, radius: 0.5, falloff: 0.7),
        ]),
    ]

    static let tileSize = 200

    /// Original + one tile per step, side by side on transparent black.
    static func render(_ sheet: Sheet) throws -> RGBA8Image {
        let jpeg = try TestFixtures.bytes(TestFixtures.image(sheet.photo))
        let stored = try JPEGDecoder().decode(jpeg, scale: .full).size
        var tiles: [RGBA8Image] = []
        for chain in [EditChain()] + sheet.steps.map({ EditChain([$0]) }) {
            let plan = try RenderPlanner().plan(storedSize: stored, exifOrientation: ExifOrientation.value(inJPEG: jpeg), chain: chain, size: .maxSize(tileSize))
            tiles.append(try Renderer().render(plan, jpeg: jpeg).image)
        }
        let width = tiles.map(\.size.width).reduce(0, +), height = tiles.map(\.size.height).max() ?? 0
        var out = RGBA8Image(size: PixelSize(width: width, height: height), pixels: [UInt8](repeating: 0, count: width * height * 4))
        var x0 = 0
        for tile in tiles {
            for y in 0..<tile.size.height {
                let src = y * tile.size.width * 4, dst = (y * width + x0) * 4
                out.pixels.replaceSubrange(dst..<(dst + tile.size.width * 4), with: tile.pixels[src..<(src + tile.size.width * 4)])
            }
            x0 += tile.size.width
        }
        return out
    }

    func testContactSheets() throws {
        let write = ProcessInfo.processInfo.environment["ADJUST_WRITE_CONTACT_SHEETS"] == "1"
        for sheet in Self.sheets {
            let image = try Self.render(sheet)
            let path = TestFixtures.path("Fixtures/golden/contact-sheets/\(sheet.name).png")
            if write {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: path))
                continue
            }
            let golden = try PNGCodec.decode(try TestFixtures.bytes(path))
            XCTAssertEqual(golden.size, image.size, sheet.name)
            guard golden.size == image.size else { continue }
            let diff = ImageMetrics.differences(TestImage(golden), TestImage(image))
            // Exact on this libjpeg-turbo; 1 step of slack for another build's IDCT rounding.
            XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 0, 1, "\(sheet.name): \(diff)")
            XCTAssertLessThanOrEqual(diff.meanPerChannel.max() ?? 0, 0.05, "\(sheet.name): \(diff)")
        }
    }
}
