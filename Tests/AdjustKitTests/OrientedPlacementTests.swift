import XCTest
@testable import AdjustKit

/// Rows placed into the oriented raster as they are rendered (`OrientedPlacement`) against the
/// EXIF orientations written out pixel by pixel (`OrientationOracle`), on sizes that are not
/// multiples of the band, into an RGBA raster and an RGB one.
final class OrientedPlacementTests: XCTestCase {
    func testEveryOrientationPlacesEveryPixel() throws {
        for (w, h) in [(37, 23), (5, 40), (16, 16), (1, 17)] {
            // Each pixel's four bytes say where it was stored.
            var stored = [UInt8](repeating: 0, count: w * h * 4)
            for v in 0..<h { for u in 0..<w { let i = (v * w + u) * 4; (stored[i], stored[i + 1], stored[i + 2], stored[i + 3]) = (UInt8(u), UInt8(v), UInt8((u * 7 + v) & 255), 200) } }
            // Into RGBA, and into RGB (a JPEG's raster, the alpha dropped).
            for (orientation, bytes) in Orientation.allCases.flatMap({ o in [(o, 4), (o, 3)] }) {
                let size = PixelSize(width: w, height: h), oriented = orientation.orientedSize(of: size)
                var raster = [UInt8](repeating: 0, count: w * h * bytes)
                raster.withUnsafeMutableBufferPointer { out in
                    let placement = OrientedPlacement(orientation: orientation, unorientedSize: size, raster: out.baseAddress!,
                                                      bytesPerPixel: bytes)
                    stored.withUnsafeBufferPointer { rows in
                        for j in 0..<h { placement.place(row: j, rows.baseAddress! + j * w * 4) }
                    }
                }
                for y in 0..<oriented.height {
                    for x in 0..<oriented.width {
                        let (u, v) = OrientationOracle.storedPixel(orientation.rawValue, x: x, y: y, w: w, h: h)
                        let i = (y * oriented.width + x) * bytes, s = (v * w + u) * 4
                        guard raster[i..<(i + bytes)] == stored[s..<(s + bytes)] else {
                            return XCTFail("orientation \(orientation.rawValue), \(w)×\(h), \(bytes) bytes: pixel (\(x), \(y)) "
                                           + "holds stored (\(raster[i]), \(raster[i + 1])), expected (\(u), \(v))")
                        }
                    }
                }
                // The inverse the placement finds bands with.
                for v in 0..<h { for u in 0..<w {
                    let (x, y) = orientation.orientedPixel(u: u, v: v, unorientedSize: size)
                    let back = orientation.sourcePixel(x: x, y: y, unorientedSize: size)
                    XCTAssertTrue(back == (u, v), "orientation \(orientation.rawValue): (\(u), \(v)) → (\(x), \(y)) → \(back)")
                } }
            }
        }
    }
    /// With a grey raster beside the RGB one: a picture grey throughout stays in the grey raster
    /// (the RGB one untouched); one that turns colour after two grey bands, or from its first row,
    /// ends in the RGB raster with every pixel, the grey bands' too, as the oracle places it.
    func testGreyBandsGoToTheGreyRasterUntilTheFirstColourBand() throws {
        let (w, h) = (37, 40)
        let size = PixelSize(width: w, height: h)
        for firstColourRow in [nil, 2 * OrientedPlacement.band + 3, 0] as [Int?] {
            var stored = [UInt8](repeating: 0, count: w * h * 4)
            for v in 0..<h { for u in 0..<w {
                let i = (v * w + u) * 4, grey = UInt8((u * 5 + v * 3) & 255)
                let colour = firstColourRow.map { v >= $0 } ?? false
                (stored[i], stored[i + 1], stored[i + 2], stored[i + 3]) = (grey, colour ? UInt8(u) : grey, colour ? UInt8(v) : grey, 255)
            } }
            for orientation in Orientation.allCases where orientation != .identity {
                let oriented = orientation.orientedSize(of: size)
                var (rgb, grey) = ([UInt8](repeating: 0xAB, count: w * h * 3), [UInt8](repeating: 0xCD, count: w * h))
                let isGrey = rgb.withUnsafeMutableBufferPointer { rgb in
                    grey.withUnsafeMutableBufferPointer { grey in
                        let placement = OrientedPlacement(orientation: orientation, unorientedSize: size, raster: rgb.baseAddress!,
                                                          bytesPerPixel: 3, grey: grey.baseAddress!)
                        stored.withUnsafeBufferPointer { rows in
                            for j in 0..<h { placement.place(row: j, rows.baseAddress! + j * w * 4) }
                        }
                        return placement.isGrey
                    }
                }
                let what = "orientation \(orientation.rawValue), first colour row \(firstColourRow.map(String.init) ?? "none")"
                XCTAssertEqual(isGrey, firstColourRow == nil, what)
                if isGrey { XCTAssertTrue(rgb.allSatisfy { $0 == 0xAB }, "\(what): the RGB raster was written") }
                for y in 0..<oriented.height {
                    for x in 0..<oriented.width {
                        let (u, v) = OrientationOracle.storedPixel(orientation.rawValue, x: x, y: y, w: w, h: h)
                        let (i, s) = (y * oriented.width + x, (v * w + u) * 4)
                        let held = isGrey ? [grey[i]] : Array(rgb[(i * 3)..<(i * 3 + 3)])
                        let expected = isGrey ? [stored[s]] : Array(stored[s..<(s + 3)])
                        guard held == expected else {
                            return XCTFail("\(what): pixel (\(x), \(y)) holds \(held), expected \(expected)")
                        }
                    }
                }
            }
        }
    }
}
