/// Rows of the unoriented output placed into the raster EXIF orientation shows, as the fused
/// renderer hands them over (through its sink, in order), so that a turned output is oriented
/// while it renders instead of in a pass of its own after it.
///
/// Why a band at a time: under orientations 5–8 a source row is an oriented column, and writing
/// it a pixel at a time touched one cache line and one page per pixel (the oriented rows are a
/// row's width apart). Rows are kept until a band of `band` is complete; the band's image is then
/// written oriented row by oriented row, each a run of `band` neighbouring pixels (one cache line
/// for 16), read from the band held in cache.
final class OrientedPlacement {
    let orientation: Orientation
    /// The unoriented output's size, and the oriented raster's.
    let size: PixelSize, orientedSize: PixelSize
    /// The raster's bytes a pixel: 4 (RGBA), or 3 (RGB: a JPEG's raster, a quarter less memory
    /// to touch; each pixel's alpha is dropped). Rows come in as RGBA either way.
    let bytesPerPixel: Int
    /// Pixels are moved as 4-byte values (into RGB, a 2-byte and a 1-byte one) through raw
    /// pointers (no memory rebound).
    private let raster: UnsafeMutableRawPointer
    /// The grey raster (one byte a pixel) of an RGB raster, while `isGrey`.
    private let grey: UnsafeMutableRawPointer?
    /// Whether every band placed so far is grey and went to `grey` (with a grey raster only).
    private(set) var isGrey: Bool
    /// Up to `band` unoriented rows, from row `bandTop`.
    private let held: UnsafeMutableRawPointer
    private var bandTop = 0, heldRows = 0

    static let band = 16

    /// `raster` holds `orientation.orientedSize(of: size)` pixels of `bytesPerPixel` bytes (RGBA,
    /// or RGB) and outlives this.
    ///
    /// With `grey` (as many bytes as the raster has pixels; an RGB raster, a turned orientation),
    /// a band whose pixels are all grey (R = G = B, as every pixel of a black-and-white chain is)
    /// goes there, a byte a pixel, until the first band that is not: what `grey` holds is then
    /// copied into `raster` as RGB, and every band after goes there; `rgbRow` reads the rows from
    /// whichever holds them. While `isGrey`, `raster` is untouched: a turned black-and-white JPEG touches a third of the memory (a 24 MP portrait:
    /// 24 MB instead of 73 MB, each page's first touch a fault and a zeroing; docs/benchmark.md).
    init(orientation: Orientation, unorientedSize size: PixelSize, raster: UnsafeMutablePointer<UInt8>, bytesPerPixel: Int = 4,
         grey: UnsafeMutablePointer<UInt8>? = nil) {
        precondition(bytesPerPixel == 3 || bytesPerPixel == 4, "\(bytesPerPixel) bytes a pixel")
        precondition(grey == nil || (bytesPerPixel == 3 && orientation != .identity), "a grey raster beside an RGB one, turned")
        (self.orientation, self.size, self.bytesPerPixel) = (orientation, size, bytesPerPixel)
        orientedSize = orientation.orientedSize(of: size)
        self.raster = UnsafeMutableRawPointer(raster)
        self.grey = grey.map(UnsafeMutableRawPointer.init)
        isGrey = grey != nil
        held = .allocate(byteCount: Self.band * max(1, size.width) * 4, alignment: 4)
    }

    deinit { held.deallocate() }

    /// Unoriented row `j` (RGBA, `size.width` pixels); rows come in order 0, 1, …
    func place(row j: Int, _ pixels: UnsafePointer<UInt8>) {
        let rowBytes = size.width * 4
        guard orientation != .identity else {
            if bytesPerPixel == 4 {
                (raster + j * rowBytes).copyMemory(from: pixels, byteCount: rowBytes)
            } else {
                let out = raster + j * size.width * 3
                for x in 0..<size.width { (out + x * 3).copyMemory(from: pixels + x * 4, byteCount: 3) }
            }
            return
        }
        precondition(j == bandTop + heldRows, "rows out of order")
        (held + heldRows * rowBytes).copyMemory(from: pixels, byteCount: rowBytes)
        heldRows += 1
        if heldRows == Self.band || j == size.height - 1 {
            writeBand()
            (bandTop, heldRows) = (bandTop + heldRows, 0)
        }
    }

    /// Oriented row `y` of an RGB raster, once every row is placed: the raster's own row, or, while
    /// `isGrey`, the grey raster's row written into `scratch` (room for a row of RGB) as the RGB it
    /// stands for — the bytes the RGB raster would hold. Reads only: rows may be read from several
    /// threads at once.
    func rgbRow(_ y: Int, scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        precondition(bytesPerPixel == 3, "RGB rows of an RGB raster")
        let width = orientedSize.width
        guard isGrey, let grey else { return UnsafePointer((raster + y * width * 3).assumingMemoryBound(to: UInt8.self)) }
        let line = (grey + y * width).assumingMemoryBound(to: UInt8.self)
        for x in 0..<width { (scratch[x * 3], scratch[x * 3 + 1], scratch[x * 3 + 2]) = (line[x], line[x], line[x]) }
        return UnsafePointer(scratch)
    }

    /// The held band's pixels at their oriented places: its image is a rectangle of the oriented
    /// raster, and along each of its rows the source index moves by a constant step.
    private func writeBand() {
        guard size.width > 0 else { return }
        if isGrey, let grey {
            if heldBandIsGrey() { return writeBand(into: grey, bytesPerPixel: 1) }
            copyGreyIntoRaster(grey)
            isGrey = false
        }
        writeBand(into: raster, bytesPerPixel: bytesPerPixel)
    }

    /// The oriented rectangle that unoriented rows `rows` land in.
    private func orientedRectangle(rows: Range<Int>) -> (xs: ClosedRange<Int>, ys: ClosedRange<Int>) {
        let a = orientation.orientedPixel(u: 0, v: rows.lowerBound, unorientedSize: size)
        let b = orientation.orientedPixel(u: size.width - 1, v: rows.upperBound - 1, unorientedSize: size)
        return (min(a.x, b.x)...max(a.x, b.x), min(a.y, b.y)...max(a.y, b.y))
    }

    /// Whether every held pixel has R = G = B.
    private func heldBandIsGrey() -> Bool { RGBA8Image.isGrey(held, count: heldRows * size.width) }

    /// The grey bands placed so far (unoriented rows before `bandTop`), as RGB in `raster`.
    private func copyGreyIntoRaster(_ grey: UnsafeMutableRawPointer) {
        guard bandTop > 0 else { return }
        let (xs, ys) = orientedRectangle(rows: 0..<bandTop)
        for y in ys {
            for x in xs {
                let value = grey.load(fromByteOffset: y * orientedSize.width + x, as: UInt8.self)
                let out = raster + (y * orientedSize.width + x) * 3
                out.storeBytes(of: value, as: UInt8.self)
                out.storeBytes(of: value, toByteOffset: 1, as: UInt8.self)
                out.storeBytes(of: value, toByteOffset: 2, as: UInt8.self)
            }
        }
    }

    /// The held band into `target`, of `bytesPerPixel` bytes a pixel: 4 (RGBA), 3 (RGB) or 1
    /// (a grey band's R).
    private func writeBand(into target: UnsafeMutableRawPointer, bytesPerPixel: Int) {
        let (xs, ys) = orientedRectangle(rows: bandTop..<(bandTop + heldRows))
        for y in ys {
            let first = heldIndex(x: xs.lowerBound, y: y)
            let step = xs.count > 1 ? heldIndex(x: xs.lowerBound + 1, y: y) - first : 0
            var (index, out) = (first, target + (y * orientedSize.width + xs.lowerBound) * bytesPerPixel)
            if bytesPerPixel == 1 {
                for _ in xs {
                    out.storeBytes(of: held.load(fromByteOffset: index * 4, as: UInt8.self), as: UInt8.self)
                    (index, out) = (index + step, out + 1)
                }
            } else if bytesPerPixel == 4 {
                for _ in xs {
                    out.storeBytes(of: held.load(fromByteOffset: index * 4, as: UInt32.self), as: UInt32.self)
                    (index, out) = (index + step, out + 4)
                }
            } else {
                for _ in xs {
                    let pixel = UInt32(littleEndian: held.load(fromByteOffset: index * 4, as: UInt32.self))
                    out.storeBytes(of: UInt16(truncatingIfNeeded: pixel).littleEndian, as: UInt16.self)
                    out.storeBytes(of: UInt8(truncatingIfNeeded: pixel >> 16), toByteOffset: 2, as: UInt8.self)
                    (index, out) = (index + step, out + 3)
                }
            }
        }
    }

    /// Where oriented pixel (x, y) is in the held band.
    @inline(__always)
    private func heldIndex(x: Int, y: Int) -> Int {
        let (u, v) = orientation.sourcePixel(x: x, y: y, unorientedSize: size)
        return (v - bandTop) * size.width + u
    }
}
