import AdjustKit
import Foundation
import XCTest

/// The library's phase correlation (`adjust fidelity`'s shift) against shifts made on purpose,
/// and against the tests' own, independent implementation (`ImageMetrics.phaseCorrelationShift`).
final class PhaseCorrelationTests: XCTestCase {
    /// Landscape_1.jpg (1800 × 1200) decoded at `scale`, as RGBA.
    private func photo(scale: DecodeScale = .full) throws -> RGBA8Image {
        let rgb = try JPEGDecoder().decode(TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg")), scale: scale)
        var rgba = [UInt8](repeating: 255, count: rgb.size.pixelCount * 4)
        for i in 0..<rgb.size.pixelCount {
            for c in 0..<3 { rgba[i * 4 + c] = rgb.pixels[i * 3 + c] }
        }
        return RGBA8Image(size: rgb.size, pixels: rgba)
    }

    /// The `width` × `height` window of `image` whose top-left corner is (`x0`, `y0`).
    private func window(_ image: RGBA8Image, x0: Int, y0: Int, width: Int, height: Int) -> RGBA8Image {
        var out = [UInt8](); out.reserveCapacity(width * height * 4)
        for y in y0..<(y0 + height) {
            let start = (y * image.size.width + x0) * 4
            out += image.pixels[start..<(start + width * 4)]
        }
        return RGBA8Image(size: PixelSize(width: width, height: height), pixels: out)
    }

    /// b(x, y) = a(x − dx, y − dy), bilinear, edges clamped, rounded to bytes.
    private func shifted(_ a: RGBA8Image, dx: Double, dy: Double) -> RGBA8Image {
        let w = a.size.width, h = a.size.height
        var out = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            let sy = min(max(Double(y) - dy, 0), Double(h - 1))
            let y0 = min(Int(sy), h - 2), ty = sy - Double(y0)
            for x in 0..<w {
                let sx = min(max(Double(x) - dx, 0), Double(w - 1))
                let x0 = min(Int(sx), w - 2), tx = sx - Double(x0)
                for c in 0..<3 {
                    func v(_ xx: Int, _ yy: Int) -> Double { Double(a.pixels[(yy * w + xx) * 4 + c]) }
                    let top = v(x0, y0) * (1 - tx) + v(x0 + 1, y0) * tx
                    let bottom = v(x0, y0 + 1) * (1 - tx) + v(x0 + 1, y0 + 1) * tx
                    out[(y * w + x) * 4 + c] = UInt8((top * (1 - ty) + bottom * ty).rounded())
                }
            }
        }
        return RGBA8Image(size: a.size, pixels: out)
    }

    func testRecoversSubpixelShiftsWithoutReduction() throws {
        let a = window(try photo(), x0: 700, y0: 400, width: 384, height: 256)   // ≤ 512: no reduction
        for (dx, dy) in [(0.3, -0.7), (0.5, 0.5), (2.25, 1.8), (-5.6, 3.4), (12.1, -7.45), (0, 0)] {
            let found = try PhaseCorrelation().shift(from: a, to: shifted(a, dx: dx, dy: dy))
            XCTAssertEqual(found.dx, dx, accuracy: 0.1, "shift (\(dx), \(dy)): found \(found)")
            XCTAssertEqual(found.dy, dy, accuracy: 0.1, "shift (\(dx), \(dy)): found \(found)")
            XCTAssertGreaterThan(found.peak, 0.5, "a translated copy lines up: \(found)")
        }
    }

    func testRecoversSubpixelShiftsOfAReducedPhoto() throws {
        let a = try photo()   // 1800 × 1200: reduced ×4 to 450 × 300
        for (dx, dy) in [(0.4, -0.3), (3.7, 2.2), (-10.5, 6.25)] {
            let found = try PhaseCorrelation().shift(from: a, to: shifted(a, dx: dx, dy: dy))
            XCTAssertEqual(found.dx, dx, accuracy: 0.1, "shift (\(dx), \(dy)): found \(found)")
            XCTAssertEqual(found.dy, dy, accuracy: 0.1, "shift (\(dx), \(dy)): found \(found)")
        }
    }

    func testIdenticalImagesHaveNoShiftAndAFullPeak() throws {
        let a = try photo(scale: DecodeScale(parsing: "1/4")!)
        let found = try PhaseCorrelation().shift(from: a, to: a)
        XCTAssertEqual(found.dx, 0, accuracy: 1e-9)
        XCTAssertEqual(found.dy, 0, accuracy: 1e-9)
        XCTAssertEqual(found.peak, 1, accuracy: 1e-6)
    }

    func testUnrelatedImagesHaveALowPeak() throws {
        let full = try photo()
        let a = window(full, x0: 0, y0: 0, width: 256, height: 256)
        let b = window(full, x0: 1500, y0: 900, width: 256, height: 256)
        let found = try PhaseCorrelation().shift(from: a, to: b)
        XCTAssertLessThan(found.peak, 0.2, "nothing lines up: \(found)")
    }

    func testDifferentSizesAreAnError() throws {
        let a = RGBA8Image(size: PixelSize(width: 8, height: 8)), b = RGBA8Image(size: PixelSize(width: 8, height: 9))
        XCTAssertThrowsError(try PhaseCorrelation().shift(from: a, to: b))
    }

    /// The same shifted real photo through both implementations: they agree, and both find the shift.
    func testAgreesWithTheTestsOwnImplementation() throws {
        let a = try photo(scale: DecodeScale(parsing: "1/2")!)   // 900 × 600: the library reduces ×2
        let (dx, dy) = (4.3, -2.6)
        let b = shifted(a, dx: dx, dy: dy)
        let library = try PhaseCorrelation().shift(from: a, to: b)
        let oracle = ImageMetrics.phaseCorrelationShift(TestImage(a), TestImage(b))
        XCTAssertEqual(library.dx, oracle.dx, accuracy: 0.1, "library \(library), tests' \(oracle)")
        XCTAssertEqual(library.dy, oracle.dy, accuracy: 0.1, "library \(library), tests' \(oracle)")
        XCTAssertEqual(oracle.dx, dx, accuracy: 0.1)
        XCTAssertEqual(oracle.dy, dy, accuracy: 0.1)
    }
}
