import Foundation

/// A whole raster encoded as one JPEG on every core: horizontal stripes of whole MCU rows, each
/// compressed by its own `JPEGRowWriter` at the same time, joined at restart markers.
///
/// Why: a turned output (EXIF orientation ≠ 1) exists only once the whole render does, so its
/// encode cannot overlap the render as an upright output's does; on one core it was the last
/// ~200 ms of a 24 MP portrait, with the other core idle. libjpeg has no threads of its own.
///
/// How the join stays one valid baseline file: every stripe is written with a restart marker
/// after each row of MCUs. At a restart the entropy coder byte-aligns and starts its DC
/// predictions afresh, so a stripe's entropy-coded data does not depend on the rows above it,
/// and the data of the whole image with a restart every MCU row is the stripes' data in order,
/// with the restart markers numbered on (RST0…RST7 cycle) and one marker between stripes. The
/// header is the first stripe's with its frame height set to the whole image's. The bytes are
/// therefore exactly those of one `JPEGRowWriter(restartEachMCURow: true)` over the whole
/// raster, whatever the number of stripes or cores (`StripedJPEGEncoderTests` checks that), and
/// the decoded pixels are those of the file without restart markers: a restart changes the
/// entropy coding only, never a coefficient. The cost is two bytes and a partial byte an MCU row
/// (about 2 KB on 24 MP).
enum StripedJPEGEncoder {
    /// Encodes a `size` image at `quality` (every pixel grey if `greyPicture`: `JPEGChroma`) in
    /// `stripes` stripes at once (at most one per MCU row). `row(y, scratch)` returns image row y
    /// as RGBX (4 bytes a pixel, the fourth ignored) or, with `bytesPerPixel` 3, as RGB: a row of
    /// its own, or one it wrote into `scratch` (room for a row). It is called from several threads
    /// at once, each row once, and must only read shared memory.
    static func encode(size: PixelSize, quality: Int, greyPicture: Bool = false, stripes: Int,
                       bytesPerPixel: Int = 4, row fill: (Int, UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8>) throws(EncodeError) -> [UInt8] {
        let mcuHeight = JPEGChroma(quality: quality, greyPicture: greyPicture).mcuHeight
        let mcuRows = (size.height + mcuHeight - 1) / mcuHeight
        let count = max(1, min(stripes, mcuRows))
        let bands = (0..<count).map { k in
            (mcuRows * k / count * mcuHeight)..<min(size.height, mcuRows * (k + 1) / count * mcuHeight)
        }
        var results = [Result<[UInt8], EncodeError>](repeating: .success([]), count: count)
        withoutActuallyEscaping(fill) { fill in
            results.withUnsafeMutableBufferPointer { results in
                let shared = HandedOver((results, fill))
                DispatchQueue.concurrentPerform(iterations: count) { k in
                    shared.value.0[k] = Result { () throws(EncodeError) -> [UInt8] in
                        try encodeStripe(bands[k], width: size.width, quality: quality, greyPicture: greyPicture,
                                         bytesPerPixel: bytesPerPixel, fill: shared.value.1)
                    }
                }
            }
        }
        var stripesBytes: [[UInt8]] = []
        for result in results { stripesBytes.append(try result.get()) }
        return try join(stripesBytes, mcuRows: bands.map { ($0.count + mcuHeight - 1) / mcuHeight }, height: size.height)
    }

    private static func encodeStripe(_ rows: Range<Int>, width: Int, quality: Int, greyPicture: Bool, bytesPerPixel: Int,
                                     fill: (Int, UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8>) throws(EncodeError) -> [UInt8] {
        let writer = try JPEGRowWriter(size: PixelSize(width: width, height: rows.count), quality: quality,
                                       greyPicture: greyPicture, restartEachMCURow: true, bytesPerPixel: bytesPerPixel)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: width * bytesPerPixel)
        defer { scratch.deallocate() }
        for row in rows {
            try writer.write(rows: fill(row, scratch), stride: width * bytesPerPixel, count: 1)
        }
        return try writer.finish()
    }

    /// The stripes' files as one: the first's header (frame height `height`), every stripe's
    /// entropy-coded data with its restart markers numbered on from the MCU rows before it
    /// (`mcuRows[k]` in stripe k), a marker between stripes, one end of image.
    private static func join(_ stripes: [[UInt8]], mcuRows: [Int], height: Int) throws(EncodeError) -> [UInt8] {
        guard stripes.count > 1 else { return stripes.first ?? [] }
        var out: [UInt8] = []
        out.reserveCapacity(stripes.reduce(0) { $0 + $1.count })
        var rowsBefore = 0
        for (k, stripe) in stripes.enumerated() {
            guard let (frameHeight, dataStart) = scanHeader(stripe), stripe.count >= dataStart + 2,
                  stripe[stripe.count - 2] == 0xFF, stripe[stripe.count - 1] == 0xD9 else {
                throw EncodeError(description: "JPEG encoding failed: a stripe is not a baseline JPEG with one scan")
            }
            if k == 0 {
                out.append(contentsOf: stripe[0..<dataStart])
                out[frameHeight] = UInt8(height >> 8); out[frameHeight + 1] = UInt8(height & 0xFF)
            } else {
                // The marker before this stripe's first MCU row: RSTm, m = (rows before − 1) mod 8.
                out.append(0xFF); out.append(0xD0 + UInt8((rowsBefore - 1) % 8))
            }
            let (start, shift) = (out.count, UInt8(rowsBefore % 8))
            out.append(contentsOf: stripe[dataStart..<(stripe.count - 2)])
            if shift != 0 {
                out.withUnsafeMutableBufferPointer { data in
                    // In entropy-coded data an 0xFF is followed by 0x00 (a stuffed byte) or a
                    // marker, and the only markers inside a scan are RST0…RST7.
                    var i = start
                    while i + 1 < data.count {
                        guard data[i] == 0xFF else { i += 1; continue }
                        let next = data[i + 1]
                        if next >= 0xD0, next <= 0xD7 { data[i + 1] = 0xD0 + (next - 0xD0 + shift) % 8 }
                        i += 2
                    }
                }
            }
            rowsBefore += mcuRows[k]
        }
        out.append(0xFF); out.append(0xD9)
        return out
    }

    /// Where a libjpeg file's frame height is (SOF0's two bytes) and where its scan's data begins
    /// (after the SOS segment); nil if the segments up to SOS are not what libjpeg writes.
    private static func scanHeader(_ bytes: [UInt8]) -> (frameHeight: Int, dataStart: Int)? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var (i, frameHeight) = (2, -1)
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1], length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xC0 { frameHeight = i + 5 }
            if marker == 0xDA { return frameHeight > 0 ? (frameHeight, i + 2 + length) : nil }
            i += 2 + length
        }
        return nil
    }
}
