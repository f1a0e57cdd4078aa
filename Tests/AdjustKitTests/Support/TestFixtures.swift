import AdjustKit
import Foundation
import XCTest

/// Paths into the repository's Fixtures/, and small conversions between the library's images
/// and the oracle's plain `TestImage`.
enum TestFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    static func image(_ name: String) -> String { path("Fixtures/images/\(name)") }
    static func xmp(_ name: String) -> String { path("Fixtures/xmp/\(name)") }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The stored raster, decoded at `scale`, as the oracle's RGB image.
    static func decoded(_ imageName: String, scale: DecodeScale = .full) throws -> TestImage {
        let rgb = try JPEGDecoder().decode(bytes(image(imageName)), scale: scale)
        return TestImage(width: rgb.size.width, height: rgb.size.height, channels: 3, pixels: rgb.pixels)
    }

    static func chain(_ xmpName: String) throws -> EditChain {
        try EditSource().load(editFile: xmp(xmpName)).chain
    }

    /// The library's full pipeline on a fixture image and edit.
    static func render(_ imageName: String, xmp xmpName: String?, size: SizeRequest = .full,
                       space: WorkingSpace = .linear) throws -> (image: TestImage, plan: RenderPlan) {
        let edit = try PhotoEdit(imagePath: image(imageName), editPath: xmpName.map(xmp), size: size,
                                 renderer: Renderer(colour: ColourOptions(workingSpace: space)))
        return (TestImage(try edit.render().image), edit.plan)
    }

    /// The chain's geometry in the oracle's terms (the chain must have no Camera Raw crop).
    static func oracleEdit(_ chain: EditChain) -> OracleEdit {
        OracleEdit(affine: chain.affine.map { ($0.a, $0.b, $0.c, $0.d, $0.tx, $0.ty) },
                   crop: chain.crop.map { ($0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height) })
    }

    static func exifOrientation(_ imageName: String) throws -> Int {
        ExifOrientation.value(inJPEG: try bytes(image(imageName))) ?? 1
    }
}

extension TestImage {
    init(_ image: RGBA8Image) {
        self.init(width: image.size.width, height: image.size.height, channels: 4, pixels: image.pixels)
    }

    /// Drops alpha (asserting the image is opaque), for comparisons with RGB decodes.
    func rgb(file: StaticString = #filePath, line: UInt = #line) -> TestImage {
        guard channels == 4 else { return self }
        var out = [UInt8](); out.reserveCapacity(width * height * 3)
        for i in 0..<(width * height) {
            XCTAssertEqual(pixels[i * 4 + 3], 255, "pixel \(i) is not opaque", file: file, line: line)
            out += pixels[(i * 4)..<(i * 4 + 3)]
        }
        return TestImage(width: width, height: height, channels: 3, pixels: out)
    }

    /// The sub-rectangle at (x, y) of size w × h, top-left raster.
    func crop(x: Int, y: Int, width w: Int, height h: Int) -> TestImage {
        var out = [UInt8](); out.reserveCapacity(w * h * channels)
        for row in y..<(y + h) {
            let start = (row * width + x) * channels
            out += pixels[start..<(start + w * channels)]
        }
        return TestImage(width: w, height: h, channels: channels, pixels: out)
    }
}
