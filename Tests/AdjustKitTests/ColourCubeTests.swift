import Foundation
import XCTest
@testable import AdjustKit

/// 3-D colour lookup tables (filters.md §6): `ColourCube` and `BuiltInPhotoEffects`.
final class ColourCubeTests: XCTestCase {

    // MARK: - Helpers

    private func randomPoints(_ count: Int, seed: UInt64, in range: ClosedRange<Float> = 0...1)
        -> [(Float, Float, Float)]
    {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (Float.random(in: range, using: &generator),
             Float.random(in: range, using: &generator),
             Float.random(in: range, using: &generator))
        }
    }

    private static let corners: [(Float, Float, Float)] = [
        (0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 1),
    ]

    /// A cube whose entry at grid point (r, g, b) is `map` of that point's coordinates.
    private func cube(size: Int, _ map: (Float, Float, Float) -> (Float, Float, Float)) throws -> ColourCube {
        let scale = Float(size - 1)
        var values: [Float] = []
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size {
                    let out = map(Float(r) / scale, Float(g) / scale, Float(b) / scale)
                    values += [out.0, out.1, out.2]
                }
            }
        }
        return try ColourCube(size: size, values: values)
    }

    /// `.cube` text for `cube`; Swift's shortest round-trip formatting, so parsing is exact.
    private func cubeText(_ cube: ColourCube, title: String = "generated") -> String {
        var lines = ["# written by ColourCubeTests", "TITLE \"\(title)\"", "LUT_3D_SIZE \(cube.size)", ""]
        lines.reserveCapacity(cube.values.count / 3 + 5)
        for row in 0..<(cube.values.count / 3) {
            lines.append("\(cube.values[row * 3]) \(cube.values[row * 3 + 1]) \(cube.values[row * 3 + 2])")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func assertRefused(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let cube = try ColourCube.parse(text)
            XCTFail("accepted a malformed table of size \(cube.size); expected \"\(expected)\"", file: file, line: line)
        } catch {
            XCTAssertEqual(error.description, expected, file: file, line: line)
        }
    }

    private func assertClose(_ a: (Float, Float, Float), _ b: (Float, Float, Float), _ tolerance: Float,
                             _ message: @autoclosure () -> String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.0, b.0, accuracy: tolerance, message(), file: file, line: line)
        XCTAssertEqual(a.1, b.1, accuracy: tolerance, message(), file: file, line: line)
        XCTAssertEqual(a.2, b.2, accuracy: tolerance, message(), file: file, line: line)
    }

    // MARK: - Interpolation

    func testIdentityCubeReproducesInputs() {
        var grid: [(Float, Float, Float)] = []
        for b in 0..<16 { for g in 0..<16 { for r in 0..<16 {
            grid.append((Float(r) / 15, Float(g) / 15, Float(b) / 15))
        } } }
        let points = Self.corners + grid + randomPoints(4096, seed: 1)
        for size in [2, 17, 33] {
            let cube = ColourCube.identity(size: size)
            XCTAssertEqual(cube.size, size)
            XCTAssertEqual(cube.values.count, size * size * size * 3)
            for p in points {
                assertClose(cube.apply(p.0, p.1, p.2), p, 1.0 / 255, "size \(size) at \(p)")
            }
            for c in Self.corners {
                let out = cube.apply(c.0, c.1, c.2)
                XCTAssertTrue(out == c, "size \(size): corner \(c) gave \(out)")
            }
        }
    }

    func testIdentityLayoutIsRedFastest() {
        let cube = ColourCube.identity(size: 3)
        // Entry (r, g, b) = (1, 2, 0) sits at ((0·3 + 2)·3 + 1)·3 = 21.
        XCTAssertEqual(Array(cube.values[21..<24]), [0.5, 1, 0])
        XCTAssertEqual(Array(cube.values[0..<6]), [0, 0, 0, 0.5, 0, 0])
    }

    func testChannelSwapIsExactAtGridPointsAndLinearBetween() throws {
        for size in [2, 9, 33] {
            let swap = try cube(size: size) { r, g, b in (b, r, g) }
            let scale = Float(size - 1)
            for b in 0..<size { for g in 0..<size { for r in 0..<size {
                let (x, y, z) = (Float(r) / scale, Float(g) / scale, Float(b) / scale)
                let out = swap.apply(x, y, z)
                XCTAssertTrue(out == (z, x, y), "size \(size) at grid \((r, g, b)): \(out)")
            } } }
            for p in randomPoints(4096, seed: 2) {
                assertClose(swap.apply(p.0, p.1, p.2), (p.2, p.0, p.1), 1e-5, "size \(size) at \(p)")
            }
        }
    }

    func testInputsAreClampedToTheUnitCube() throws {
        let swap = try cube(size: 17) { r, g, b in (b, r, g) }
        let identity = ColourCube.identity(size: 33)
        XCTAssertTrue(identity.apply(-0.5, 1.5, 0.25) == (0, 1, 0.25))
        XCTAssertTrue(identity.apply(1.5, -0.5, -0.5) == (1, 0, 0))
        XCTAssertTrue(swap.apply(-0.5, 1.5, 1.5) == (1, 0, 1))
        XCTAssertTrue(swap.apply(1.5, 0.5, -0.5) == (0, 1, 0.5))
        XCTAssertTrue(identity.apply(-.infinity, .infinity, .nan) == (0, 1, 0), "NaN counts as 0")
        for p in randomPoints(1000, seed: 3, in: -0.5...1.5) {
            let clamped = (min(max(p.0, 0), 1), min(max(p.1, 0), 1), min(max(p.2, 0), 1))
            assertClose(swap.apply(p.0, p.1, p.2), (clamped.2, clamped.0, clamped.1), 1e-5)
        }
    }

    func testInitialiserChecksSizeCountAndFiniteness() {
        XCTAssertThrowsError(try ColourCube(size: 2, values: [Float](repeating: 0, count: 23))) { error in
            XCTAssertEqual("\(error)", "expected 24 values (2³ × 3) for cube size 2, got 23")
        }
        var values = ColourCube.identity(size: 2).values
        values[5] = .nan
        XCTAssertThrowsError(try ColourCube(size: 2, values: values)) { error in
            XCTAssertEqual("\(error)", "non-finite value at index 5")
        }
        XCTAssertThrowsError(try ColourCube(size: 1, values: [0, 0, 0])) { error in
            XCTAssertEqual("\(error)", "cube size 1 is outside 2…256")
        }
        XCTAssertNoThrow(try ColourCube(size: 2, values: ColourCube.identity(size: 2).values))
    }

    // MARK: - Parsing

    private static let smallCube = """
        # A hand-written 2×2×2 table.
        TITLE "small test table"

        DOMAIN_MIN 0 0 0
        # size after the domain lines: keywords may come in any order
        LUT_3D_SIZE 2
        DOMAIN_MAX 1.0 1.0 1.0
        0 0 0
        1 0 0
        0.0 1.0 0.0
        1 1 0

           0.25\t0.5   0.75
        1e0 0 1
        0 1 1   # trailing comment
        1 1 1

        """

    func testParsesAHandWrittenTable() throws {
        let cube = try ColourCube.parse(Self.smallCube)
        XCTAssertEqual(cube.size, 2)
        XCTAssertEqual(cube.values, [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0,
                                     0.25, 0.5, 0.75, 1, 0, 1, 0, 1, 1, 1, 1, 1])
        // Grid point (0, 0, 1) holds the odd entry; the centre blends all eight.
        XCTAssertTrue(cube.apply(0, 0, 1) == (0.25, 0.5, 0.75))
        assertClose(cube.apply(0.5, 0.5, 0.5), (0.53125, 0.5625, 0.46875), 1e-6)

        // Same table with CRLF and CR line ends, a byte-order mark, no final newline.
        let crlf = "\u{FEFF}" + Self.smallCube.replacingOccurrences(of: "\n", with: "\r\n")
        XCTAssertEqual(try ColourCube.parse(crlf), cube)
        let cr = Self.smallCube.replacingOccurrences(of: "\n", with: "\r")
        XCTAssertEqual(try ColourCube.parse(String(cr.dropLast())), cube)
    }

    func testRefusesMalformedTables() {
        // The messages the CLI shows (one line, no file name).
        assertRefused("""
            # comment
            TITLE "x"
            LUT_3D_SIZE 2

            0 0 0
            1 0 0
            0 1
            1 1 0
            0 0 1
            1 0 1
            0 1 1
            1 1 1
            """, "line 7: expected 3 numbers, got 2")
        assertRefused("LUT_3D_SIZE 300\n", "LUT_3D_SIZE 300 is outside 2…256")
        assertRefused("LUT_3D_SIZE 1\n0 0 0\n", "LUT_3D_SIZE 1 is outside 2…256")
        let full33 = cubeText(ColourCube.identity(size: 33))
        var lines = full33.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast(2)   // the empty piece after the final newline, and the last row
        assertRefused(lines.joined(separator: "\n"), "expected 35937 table rows for LUT_3D_SIZE 33, got 35936")
        assertRefused("LUT_1D_SIZE 1024\n", "1-D tables (LUT_1D_SIZE) are not supported")
        assertRefused("LUT_3D_SIZE 2\nLUT_1D_SIZE 2\n", "1-D tables (LUT_1D_SIZE) are not supported")
        let domainError = "DOMAIN_MIN/DOMAIN_MAX other than 0 0 0 / 1 1 1 are not supported"
        assertRefused("LUT_3D_SIZE 2\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2\n", domainError)
        assertRefused("DOMAIN_MIN -0.1 0 0\nLUT_3D_SIZE 2\n", domainError)
        let rows = ["0 0 0", "1 0 0", "0 1 0", "1 1 0", "0 0 1", "1 0 1", "0 1 1"]
        let head = "# 1\n# 2\n# 3\nLUT_3D_SIZE 2\n" + rows.joined(separator: "\n") + "\n"
        assertRefused(head + "1 1 inf\n", "non-finite value at line 12")
        assertRefused(head + "nan 1 1\n", "non-finite value at line 12")
        assertRefused(head + "1 1e39 1\n", "non-finite value at line 12")   // overflows Float
        assertRefused(rows.joined(separator: "\n") + "\n1 1 1\n", "no LUT_3D_SIZE line")
        assertRefused("", "no LUT_3D_SIZE line")
        assertRefused("# only a comment\nTITLE \"t\"\n", "no LUT_3D_SIZE line")

        // Further refusals.
        assertRefused(head + "1 1 x\n", "line 12: 'x' is not a number")
        assertRefused(head + "1,0 1 1\n", "line 12: '1,0' is not a number")   // no locale decimals
        assertRefused(head + "1 1 1 1\n", "line 12: expected 3 numbers, got 4")
        assertRefused(head + "1 1 1\n0 0 0\n", "expected 8 table rows for LUT_3D_SIZE 2, got 9")
        assertRefused(head + "LUT_3D_SIZE 2\n", "line 12: LUT_3D_SIZE after the table data")
        assertRefused(head + "junk\n", "line 12: 'junk' is not a number")
        assertRefused("LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n", "line 2: LUT_3D_SIZE given twice")
        assertRefused("LUT_3D_SIZE 2.5\n", "line 1: LUT_3D_SIZE needs one whole number")
        assertRefused("LUT_3D_SIZE\n", "line 1: LUT_3D_SIZE needs one whole number")
        assertRefused("LUT_3D_SIZE 2 2\n", "line 1: LUT_3D_SIZE needs one whole number")
        assertRefused("LUT_3D_INPUT_RANGE 0 1\n", "line 1: unknown keyword 'LUT_3D_INPUT_RANGE'")
        assertRefused("lut_3d_size 2\n", "line 1: unknown keyword 'lut_3d_size'")
        assertRefused("TITLE untitled\n", "line 1: TITLE needs one double-quoted string")
        assertRefused("DOMAIN_MAX 1 1\n", "line 1: expected 3 numbers, got 2")
    }

    func testGeneratedSize33TableRoundTrips() throws {
        var generator = SplitMix64(seed: 4)
        let values = (0..<(33 * 33 * 33 * 3)).map { _ in Float.random(in: 0...1, using: &generator) }
        let original = try ColourCube(size: 33, values: values)
        let parsed = try ColourCube.parse(cubeText(original))
        XCTAssertEqual(parsed.size, 33)
        XCTAssertEqual(parsed, original)

        let chrome = BuiltInPhotoEffects.cube(for: .chrome)
        XCTAssertEqual(try ColourCube.parse(cubeText(chrome, title: "Chrome (approximation)")), chrome)
    }

    // MARK: - Built-in photo effects

    private static let blackAndWhite: [PhotoEffect] = [.mono, .tonal, .noir]

    private static func function(of effect: PhotoEffect) -> BuiltInPhotoEffects.Effect {
        switch effect {
        case .chrome: return BuiltInPhotoEffects.chrome
        case .fade: return BuiltInPhotoEffects.fade
        case .instant: return BuiltInPhotoEffects.instant
        case .mono: return BuiltInPhotoEffects.mono
        case .noir: return BuiltInPhotoEffects.noir
        case .process: return BuiltInPhotoEffects.process
        case .tonal: return BuiltInPhotoEffects.tonal
        case .transfer: return BuiltInPhotoEffects.transfer
        }
    }

    func testBuiltInEffectsAreCachedAndInRange() {
        let points = Self.corners + randomPoints(4096, seed: 5, in: -0.25...1.25)
        for effect in PhotoEffect.allCases {
            let cube = BuiltInPhotoEffects.cube(for: effect)
            XCTAssertEqual(cube.size, 33, "\(effect)")
            XCTAssertEqual(cube, BuiltInPhotoEffects.cube(for: effect), "\(effect): built once, same table")
            XCTAssertTrue(cube.values.allSatisfy { $0 >= 0 && $0 <= 1 }, "\(effect): table outside [0, 1]")
            for p in points {
                let out = cube.apply(p.0, p.1, p.2)
                for v in [out.0, out.1, out.2] {
                    XCTAssertTrue(v >= 0 && v <= 1, "\(effect) at \(p) gave \(out)")
                }
            }
        }
        XCTAssertNotEqual(BuiltInPhotoEffects.cube(for: .mono), BuiltInPhotoEffects.cube(for: .tonal))
    }

    func testBuiltInCubesSampleTheirFunctions() {
        // Red fastest in the table; interpolation stays close to the defining function.
        for effect in PhotoEffect.allCases {
            let cube = BuiltInPhotoEffects.cube(for: effect)
            let f = Self.function(of: effect)
            let exact = f(1.0 / 32, 5.0 / 32, 30.0 / 32)
            let c = BuiltInPhotoEffects.clamp01
            XCTAssertTrue(cube.apply(1.0 / 32, 5.0 / 32, 30.0 / 32) == (c(exact.0), c(exact.1), c(exact.2)), "\(effect)")
            for p in randomPoints(2000, seed: 6) {
                let want = f(p.0, p.1, p.2)
                assertClose(cube.apply(p.0, p.1, p.2), want, 0.01, "\(effect) at \(p)")
            }
        }
    }

    func testBlackAndWhiteEffectsAreNeutral() {
        for effect in Self.blackAndWhite {
            let cube = BuiltInPhotoEffects.cube(for: effect)
            for row in 0..<(cube.values.count / 3) {
                let v = cube.values[row * 3]
                XCTAssertTrue(cube.values[row * 3 + 1] == v && cube.values[row * 3 + 2] == v, "\(effect) row \(row)")
            }
            for p in Self.corners + randomPoints(4096, seed: 7) {
                let out = cube.apply(p.0, p.1, p.2)
                XCTAssertTrue(out.0 == out.1 && out.1 == out.2, "\(effect) at \(p) gave \(out)")
            }
            for i in 0...255 {
                let x = Float(i) / 255
                let out = cube.apply(x, x, x)
                XCTAssertTrue(out.0 == out.1 && out.1 == out.2, "\(effect): grey \(i) gave \(out)")
            }
        }
    }

    func testEffectsAreMonotoneAlongTheGreyAxis() {
        for effect in PhotoEffect.allCases {
            let cube = BuiltInPhotoEffects.cube(for: effect)
            var previous = cube.apply(0, 0, 0)
            for i in 1...1024 {
                let x = Float(i) / 1024
                let out = cube.apply(x, x, x)
                XCTAssertGreaterThanOrEqual(out.0, previous.0, "\(effect) red at grey \(x)")
                XCTAssertGreaterThanOrEqual(out.1, previous.1, "\(effect) green at grey \(x)")
                XCTAssertGreaterThanOrEqual(out.2, previous.2, "\(effect) blue at grey \(x)")
                previous = out
            }
            let black = cube.apply(0, 0, 0), white = cube.apply(1, 1, 1)
            let luma = BuiltInPhotoEffects.luma601
            XCTAssertGreaterThan(luma(white.0, white.1, white.2), luma(black.0, black.1, black.2) + 0.5, "\(effect)")
        }
    }

    func testEffectsKeepLuminanceOrderAlongRays() {
        // Darkening a colour towards black, or mixing it with white, never reverses the output's
        // luminance order (no tone inversions), for colours as well as greys.
        let luma = BuiltInPhotoEffects.luma601
        for effect in PhotoEffect.allCases {
            let cube = BuiltInPhotoEffects.cube(for: effect)
            for c in randomPoints(300, seed: 8) {
                let peak = max(c.0, c.1, c.2)
                var fromBlack: Float = -1, towardWhite: Float = -1
                for i in 0...128 {
                    let t = Float(i) / 128
                    let dark = cube.apply(c.0 / peak * t, c.1 / peak * t, c.2 / peak * t)
                    let light = cube.apply(c.0 + (1 - c.0) * t, c.1 + (1 - c.1) * t, c.2 + (1 - c.2) * t)
                    let l1 = luma(dark.0, dark.1, dark.2), l2 = luma(light.0, light.1, light.2)
                    XCTAssertGreaterThanOrEqual(l1, fromBlack - 1e-6, "\(effect): \(c) scaled by \(t)")
                    XCTAssertGreaterThanOrEqual(l2, towardWhite - 1e-6, "\(effect): \(c) mixed \(t) with white")
                    fromBlack = l1
                    towardWhite = l2
                }
            }
        }
    }

    func testEffectCharacter() {
        let cube = BuiltInPhotoEffects.cube
        let luma = BuiltInPhotoEffects.luma601
        func saturation(_ c: (Float, Float, Float)) -> Float { max(c.0, c.1, c.2) - min(c.0, c.1, c.2) }
        let orange: (Float, Float, Float) = (0.8, 0.5, 0.3)

        // Noir crushes shadows and is steeper than Mono, which is steeper than Tonal.
        XCTAssertEqual(cube(.noir).apply(0.08, 0.08, 0.08).0, 0)
        func contrast(_ e: PhotoEffect) -> Float { cube(e).apply(0.75, 0.75, 0.75).0 - cube(e).apply(0.25, 0.25, 0.25).0 }
        XCTAssertGreaterThan(contrast(.noir), contrast(.mono))
        XCTAssertGreaterThan(contrast(.mono), contrast(.tonal))
        XCTAssertLessThan(contrast(.tonal), 0.5)
        // Fade, Transfer and Instant lift the blacks; Fade and Transfer lower saturation, Chrome raises it.
        for e: PhotoEffect in [.fade, .transfer, .instant] {
            XCTAssertGreaterThan(luma(cube(e).apply(0, 0, 0).0, cube(e).apply(0, 0, 0).1, cube(e).apply(0, 0, 0).2), 0.04, "\(e)")
        }
        XCTAssertLessThan(saturation(cube(.fade).apply(orange.0, orange.1, orange.2)), saturation(orange))
        XCTAssertLessThan(saturation(cube(.transfer).apply(orange.0, orange.1, orange.2)), saturation(orange))
        XCTAssertGreaterThan(saturation(cube(.chrome).apply(orange.0, orange.1, orange.2)), saturation(orange))
        // Transfer is warm throughout, Instant in the highlights; Process has cool shadows.
        let midTransfer = cube(.transfer).apply(0.5, 0.5, 0.5)
        XCTAssertGreaterThan(midTransfer.0, midTransfer.2)
        let whiteInstant = cube(.instant).apply(0.9, 0.9, 0.9)
        XCTAssertGreaterThan(whiteInstant.0, whiteInstant.2)
        let shadowProcess = cube(.process).apply(0.1, 0.1, 0.1)
        XCTAssertGreaterThan(shadowProcess.2, shadowProcess.0)
    }

    func testSummariesAreOneLineAndMarkedApproximate() {
        for effect in PhotoEffect.allCases {
            let summary = BuiltInPhotoEffects.summary(of: effect)
            XCTAssertFalse(summary.contains("\n"), "\(effect)")
            XCTAssertTrue(summary.contains("approximation"), "\(effect)")
        }
        XCTAssertEqual(Set(PhotoEffect.allCases.map(BuiltInPhotoEffects.summary)).count, PhotoEffect.allCases.count)
    }
}
