@testable import AdjustKit
import XCTest

/// docs/spec/aae-format.md §6: a modern `Effect` at intensity t is (1 − t)·before + t·after in
/// linear light. Checked through the whole renderer against a reference computed here, from the
/// decoded pixels, with a user table whose trilinear interpolation is exact (an inversion, linear
/// in the encoded values), so the reference needs no interpolation of its own.
final class EffectIntensityDissolveTests: XCTestCase {
    /// out = 1 − in on sRGB-encoded values, as a 2×2×2 `.cube` (red fastest).
    private static let inversion: ColourCube = {
        var values: [Float] = []
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { values += [1 - Float(r), 1 - Float(g), 1 - Float(b)] } } }
        return try! ColourCube(size: 2, values: values)
    }()

    private func render(_ chain: EditChain, photo: String) throws -> (rendered: RGBA8Image, decoded: RGB8Image) {
        let jpeg = try TestFixtures.bytes(TestFixtures.image(photo))
        let decoded = try JPEGDecoder().decode(jpeg, scale: .full)
        let plan = try RenderPlanner().plan(storedSize: decoded.size, exifOrientation: nil, chain: chain, size: .full)
        let renderer = Renderer(colour: ColourOptions(workingSpace: .linear, effectCubes: [.noir: Self.inversion]))
        return (try renderer.render(plan, jpeg: jpeg).image, decoded)
    }

    func testHalfIntensityIsTheLinearLightDissolveWithin1Of255() throws {
        let t = 0.5
        let (rendered, decoded) = try render(EditChain([EffectIntensityDissolve(effect: .noir, intensity: t)]),
                                             photo: "Landscape_1.jpg")
        XCTAssertEqual(rendered.size, decoded.size)
        var worst = 0.0, total = 0.0
        for i in 0..<(decoded.size.pixelCount) {
            for c in 0..<3 {
                let encoded = Double(decoded.pixels[3 * i + c]) / 255
                let before = ColourOracle.decode(encoded), after = ColourOracle.decode(1 - encoded)
                let expected = ColourOracle.encode((1 - t) * before + t * after) * 255
                let difference = abs(Double(rendered.pixels[4 * i + c]) - expected)
                worst = max(worst, difference)
                total += difference
            }
        }
        let mean = total / Double(3 * decoded.size.pixelCount)
        print("effect dissolve t=0.5 against the linear-light reference: max \(worst) mean \(mean) (of 255)")
        XCTAssertLessThanOrEqual(worst, 1, "within 1/255 of the reference dissolve")
        XCTAssertLessThan(mean, 0.5)
    }

    func testIntensityOneIsTheEffectAndZeroIsTheOriginal() throws {
        let whole = try render(EditChain([EffectIntensityDissolve(effect: .noir, intensity: 1)]), photo: "Landscape_1.jpg")
        let plain = try render(EditChain(serializedFilters: [SerializedFilter(name: PhotoEffect.noir.rawValue)]),
                               photo: "Landscape_1.jpg")
        XCTAssertEqual(whole.rendered.pixels, plain.rendered.pixels, "t = 1 is the effect alone")
        let none = try render(EditChain([EffectIntensityDissolve(effect: .noir, intensity: 0)]), photo: "Landscape_1.jpg")
        XCTAssertEqual(none.rendered.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element),
                       none.decoded.pixels, "t = 0 leaves the photo alone")
    }

    func testInspectNamesTheStepAndItsSupport() {
        let step = EditChain([EffectIntensityDissolve(effect: .fade, intensity: 0.25)]).steps[0]
        XCTAssertEqual(step.filterName, "Effect (CIPhotoEffectFade)")
        XCTAssertEqual(step.support, .approximate)
        XCTAssertEqual(step.support(exactEffects: [.fade]), .exact)
        XCTAssertFalse(step.isGeometry)
    }
}
