/// Where `FusedRenderer`'s decoding steps (`PulledDecode`) get the plan's source region from, a few rows at a
/// time: a JPEG decoded as it goes (`JPEGRegionReader`), or an image a codec without region
/// decoding (HEIC) has already decoded whole (`RasterRowSource`).
protocol DecodedRowSource: AnyObject {
    /// The whole decoded image's size.
    var decodedSize: PixelSize { get }
    /// The first column delivered, in the decoded image.
    var columnOffset: Int { get }
    /// Columns delivered per row.
    var width: Int { get }
    /// The room each row of `readRows`' destination must have beside its `width` pixels, which
    /// the source may write too: a JPEG's decoder writes the whole iMCUs it decodes, straight
    /// into the rows (`JPEGRegionReader.readRowsInPlace`). `.none` unless a source says otherwise.
    var margins: RowMargins { get }
    /// Delivers the next `count` rows into `destination`, `width` RGB pixels each, rows `stride`
    /// bytes apart; the `margins` beside each row may be written with pixels of no use.
    func readRows(into destination: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) throws
    /// The decoder's warnings so far (harmless ones, or damage tolerated on request), one line each.
    var warnings: [String] { get }
}

extension DecodedRowSource {
    var margins: RowMargins { .none }
}

/// Pixels beside a row: `left` before its first, `right` after its last.
struct RowMargins: Equatable {
    var left: Int, right: Int
    static let none = RowMargins(left: 0, right: 0)
}

extension JPEGRegionReader: DecodedRowSource {
    var warnings: [String] { headerWarnings + dataWarnings }
}

/// The source region's rows copied out of a decoded RGB raster (a HEIC's, still owned by libheif
/// and alive for the whole render), so a HEIC takes the same streaming pass as a JPEG: the
/// region is copied band by band into the renderer's row window, never whole.
final class RasterRowSource: DecodedRowSource {
    let decodedSize: PixelSize
    let columnOffset: Int
    let width: Int
    /// libheif reports no warnings of this kind.
    let warnings: [String] = []
    private let rows: RGB8Rows
    private var nextRow: Int

    /// Delivers `region` of `rows`, from its top row down; `region` must lie inside the raster.
    init(rows: RGB8Rows, region: PixelRect) {
        precondition(region.x >= 0 && region.y >= 0 && region.x + region.width <= rows.size.width
                     && region.y + region.height <= rows.size.height, "region outside the raster")
        (self.rows, decodedSize, columnOffset, width, nextRow) = (rows, rows.size, region.x, region.width, region.y)
    }

    func readRows(into destination: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) {
        precondition(count >= 0 && count <= decodedSize.height - nextRow && stride >= width * 3)
        for i in 0..<count {
            (destination + i * stride).update(from: rows.base + (nextRow + i) * rows.stride + columnOffset * 3,
                                              count: width * 3)
        }
        nextRow += count
    }
}
