import Dispatch

extension FusedRenderer {
    /// Renders from a JPEG original (see `run(open:sink:)`): decoded by libjpeg from the bytes in
    /// memory, or from the original's file as the decoder consumes it (only its head is in memory;
    /// the file is opened again, and refused if it changed since the head was read). Returns the
    /// decode's warnings, and the wall time the decoder took — opening it (the header, and for a
    /// progressive file every scan) and every row read by the decoding steps, added up.
    func run(jpeg source: OriginalBytes, sink: @escaping (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws
        -> (warnings: [String], decodeSeconds: Double) {
        let scale = plan.decodeScale
        let (tolerate, manyScans) = (decoder.tolerateWarnings, decoder.allowManyScans)
        var rows: MeasuredJPEGRows?
        func open(_ make: () throws -> JPEGRegionReader) throws -> any DecodedRowSource {
            let opened = try MeasuredJPEGRows(opening: make)
            guard opened.decodedSize == plan.decodedSize else {
                throw RenderError.decodedSizeMismatch(expected: plan.decodedSize, got: opened.decodedSize)
            }
            rows = opened
            return opened
        }
        let warnings: [String]
        if let bytes = source.inMemory {
            // libjpeg reads the bytes in place: every use of the reader ends inside this closure.
            warnings = try bytes.withUnsafeBufferPointer { bytes in
                try run(open: { region in
                    try open {
                        try JPEGRegionReader(bytes: bytes, scale: scale, columns: region.x..<(region.x + region.width),
                                             firstRow: region.y, tolerateWarnings: tolerate, allowManyScans: manyScans)
                    }
                }, sink: sink)
            }
        } else {
            warnings = try run(open: { region in
                try open {
                    let file = try source.reopen()!
                    do {
                        return try JPEGRegionReader(file: file, head: source.head, scale: scale,
                                                    columns: region.x..<(region.x + region.width), firstRow: region.y,
                                                    tolerateWarnings: tolerate, allowManyScans: manyScans)
                    } catch {
                        throw file.readFailure ?? error
                    }
                }
            }, sink: sink)
        }
        return (warnings, rows?.seconds ?? 0)
    }
}

/// The fused pass's rows from a `JPEGRegionReader`, with the wall time spent in it added up
/// (opening included), and a failed read of its file reported as that `FileError` rather than as
/// the decode error libjpeg saw. Used by the decoding steps only once made, one at a time
/// (`PulledDecode`); `seconds` is read after the pass.
final class MeasuredJPEGRows: DecodedRowSource {
    private let reader: JPEGRegionReader
    private(set) var seconds: Double

    init(opening: () throws -> JPEGRegionReader) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        reader = try opening()
        seconds = Self.seconds(since: start)
    }

    var decodedSize: PixelSize { reader.decodedSize }
    var columnOffset: Int { reader.columnOffset }
    var width: Int { reader.width }
    /// libjpeg decodes into the window's rows in place.
    var margins: RowMargins { reader.inPlaceMargins }
    var warnings: [String] { reader.warnings }

    func readRows(into destination: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { seconds += Self.seconds(since: start) }
        do {
            try reader.readRowsInPlace(into: destination, stride: stride, count: count)
        } catch {
            throw reader.inputFailure ?? error
        }
    }

    private static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
