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
}
