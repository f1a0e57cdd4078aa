import CHeifLoader
import Dispatch
import Foundation

/// The grid a HEIC's primary image is stored in, in its stored frame (`irot`/`imir` not
/// applied), as libheif 1.19's tile API reports it: an iPhone's 12 MP photo is 8 × 6 tiles of
/// 512 × 512 HEVC, the last column and row cut by the image's size. An image that is no grid is
/// one tile, the whole image.
package struct HEICTiling: Equatable, Sendable {
    package var columns: Int
    package var rows: Int
    package var tileSize: PixelSize
    /// The grid's output size (`ispe`).
    package var imageSize: PixelSize

    package init(columns: Int, rows: Int, tileSize: PixelSize, imageSize: PixelSize) {
        (self.columns, self.rows, self.tileSize, self.imageSize) = (columns, rows, tileSize, imageSize)
    }

    /// Tiles in the grid.
    package var count: Int { columns * rows }

    /// Whether `region` lies inside the image (a reader's region must).
    func contains(_ region: PixelRect) -> Bool {
        region.x >= 0 && region.y >= 0 && region.x + region.width <= imageSize.width
            && region.y + region.height <= imageSize.height
    }

    /// The tile columns and rows `region` (in the stored frame) overlaps; empty for an empty region.
    package func tiles(touching region: PixelRect) -> (columns: Range<Int>, rows: Range<Int>) {
        guard region.width > 0, region.height > 0 else { return (0..<0, 0..<0) }
        let x0 = max(0, region.x), y0 = max(0, region.y)
        let x1 = min(imageSize.width, region.x + region.width), y1 = min(imageSize.height, region.y + region.height)
        guard x1 > x0, y1 > y0 else { return (0..<0, 0..<0) }
        return (x0 / tileSize.width..<((x1 - 1) / tileSize.width + 1), y0 / tileSize.height..<((y1 - 1) / tileSize.height + 1))
    }

    /// How many tiles decoding `region` takes.
    package func tileCount(touching region: PixelRect) -> Int {
        let (columns, rows) = tiles(touching: region)
        return columns.count * rows.count
    }

    /// The grid of `handle`, checked against its `ispe` size; nil when the libheif loaded has no
    /// tile API (older than 1.19).
    static func read(_ handle: OpaquePointer, size: PixelSize) throws(HEICError) -> HEICTiling? {
        guard adjust_heif_has_tile_api() == 1 else { return nil }
        var tiling = heif_image_tiling()
        let status = adjust_heif_image_handle_get_image_tiling(handle, 0, &tiling)
        guard status.code == heif_error_Ok else { throw .malformed(HEICDecoder.message(status)) }
        let result = HEICTiling(columns: Int(tiling.num_columns), rows: Int(tiling.num_rows),
                                tileSize: PixelSize(width: Int(tiling.tile_width), height: Int(tiling.tile_height)),
                                imageSize: PixelSize(width: Int(tiling.image_width), height: Int(tiling.image_height)))
        guard result.columns > 0, result.rows > 0, result.tileSize.width > 0, result.tileSize.height > 0,
              result.imageSize == size,
              result.columns * result.tileSize.width >= size.width, result.rows * result.tileSize.height >= size.height,
              (result.columns - 1) * result.tileSize.width < size.width,
              (result.rows - 1) * result.tileSize.height < size.height else {
            throw .malformed("the image's tile grid (\(result.columns)×\(result.rows) tiles of \(result.tileSize)) "
                             + "does not cover its size \(size)")
        }
        return result
    }

    /// What `adjust inspect` says about decoding `region` of an image with this grid (nil: the
    /// libheif loaded has no tile API, and decodes the image whole).
    package static func decodeSummary(_ tiling: HEICTiling?, region: PixelRect, libheif: LibheifVersion?) -> String {
        let version = libheif.map { "libheif \($0)" } ?? "libheif"
        guard let tiling else { return "whole image (\(version) without the tile API)" }
        return "\(tiling.tileCount(touching: region)) of \(tiling.count) tile\(tiling.count == 1 ? "" : "s") (\(version) tile API)"
    }
}

/// A HEIC's primary image in its stored frame, decoded tile row by tile row as the fused renderer
/// asks for rows, only the tiles the region overlaps (libheif 1.19's tile API): a crop decodes
/// the tiles it keeps, and a render holds at most three tile rows of decoded pixels (the one
/// read and the next two, decoding ahead on threads of their own; one tile row when given one
/// thread), never the image. The tiles of a tile row decode in parallel. Each tile is converted
/// to RGB by libheif on its own, which gives the same bytes as libheif's whole-image decode
/// (HEICTests checks every fixture).
/// Made, and its first tile rows queued where the caller asks (`startDecodingAhead`), on the
/// render's thread; read by the render's decoding steps alone after that, one at a time
/// (`PulledDecode`).
final class HEICTileRows: DecodedRowSource {
    let decodedSize: PixelSize
    let columnOffset: Int
    let width: Int
    let warnings: [String] = []
    /// Wall time the reading thread has waited on libheif so far (opening the file included when
    /// it was passed in; decoding ahead, overlapped with the render, is not counted).
    private(set) var seconds: Double
    /// Tiles decoded so far (a test hook, and what `adjust inspect` predicts).
    private(set) var tilesDecoded = 0
    /// Tile rows decoded so far.
    private(set) var tileRowsDecoded = 0
    /// Most decoded pixels held at once (a test hook: a crop holds fewer than the image has).
    private(set) var peakHeldPixels = 0
    /// Tile rows queued for decoding and not yet read (a test hook for `startDecodingAhead`).
    var tileRowsQueued: Int { pending.count }

    /// The part of the stored image delivered.
    let region: PixelRect
    private let file: HEIFFile
    private let tiling: HEICTiling
    private let input: OpenInputFile?
    private let threads: Int
    private let tileColumns: Range<Int>
    private var nextRow: Int
    private let lastRow: Int
    /// The decoded tiles of tile row `heldRow`, one per column of `tileColumns`.
    private var heldRow = -1
    private var held: [HeldTile] = []
    /// The next tile rows, decoding ahead, nearest first (so at most `ahead` + 1 tile rows are
    /// held at once).
    private var pending: [TileRowJob] = []
    /// Tile rows decoded ahead of the one read. Two, not one: a tile row's last tile decodes
    /// alone on one core while the renderer, done with the row before, waits for it; with the
    /// row after it decoding too, the other core has work (a 12 MP iPhone HEIC's rows are 6
    /// tiles, so a row often ends on one tile).
    private static let ahead = 2
    /// Started with the first tile row decoded; stopped when the last row is read (or this goes).
    private var decoders: DecodingThreads?

    /// A decoded tile: libheif's image and its RGB plane. Not `Sendable`: it moves from a
    /// decoding thread to the renderer only through a `TileRowJob`'s results (`DecodingThreads`
    /// says what guards them).
    private struct HeldTile {
        let image: OpaquePointer
        let base: UnsafePointer<UInt8>
        let stride: Int
    }

    /// Delivers `region` of `file`'s primary image, from its top row down; `region` must lie
    /// inside the image. `input`: the file libheif reads from, whose failed read is reported
    /// instead of libheif's error. `threads`: tiles decoded at once (default: one per core).
    init(file: HEIFFile, tiling: HEICTiling, region: PixelRect, input: OpenInputFile? = nil, threads: Int? = nil,
         openSeconds: Double = 0) {
        precondition(tiling.contains(region), "region outside the image")
        (self.file, self.tiling, self.input, self.region, seconds) = (file, tiling, input, region, openSeconds)
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        (decodedSize, columnOffset, width, nextRow, lastRow) = (tiling.imageSize, region.x, region.width, region.y,
                                                               region.y + region.height)
        tileColumns = tiling.tiles(touching: region).columns
    }

    deinit {
        finishDecoding()
        release()
    }

    /// Starts decoding the region's first tile rows (the first and the `ahead` after it) before
    /// the first read, so that they decode while the caller still prepares the render (a
    /// portrait's depth image: `HEICTileSource.decodeAhead`). Nothing with one thread, as when
    /// reading; reading then takes them as it would have started them.
    func startDecodingAhead() {
        guard threads > 1, pending.isEmpty, heldRow < 0, nextRow < lastRow else { return }
        queueTileRows(from: nextRow / tiling.tileSize.height, until: Self.ahead + 1)
    }

    /// Starts decoding tile rows from `row` on, in order, until `count` are pending or the
    /// region's last tile row is queued.
    private func queueTileRows(from row: Int, until count: Int) {
        var next = row
        while pending.count < count, next <= (lastRow - 1) / tiling.tileSize.height {
            pending.append(startDecoding(tileRow: next))
            next += 1
        }
    }

    func readRows(into destination: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) throws {
        precondition(count >= 0 && count <= lastRow - nextRow && stride >= width * 3)
        let tileSize = tiling.tileSize
        for i in 0..<count {
            let y = nextRow + i
            let tileRow = y / tileSize.height
            if tileRow != heldRow { try hold(tileRow: tileRow) }
            let yInTile = y - tileRow * tileSize.height
            var out = destination + i * stride
            for (index, column) in tileColumns.enumerated() {
                let tile = held[index]
                let left = column * tileSize.width
                let from = max(columnOffset, left), to = min(columnOffset + width, left + tileSize.width)
                out.update(from: tile.base + yInTile * tile.stride + (from - left) * 3, count: (to - from) * 3)
                out += (to - from) * 3
            }
        }
        nextRow += count
        if nextRow == lastRow {
            finishDecoding()
            release()
        }
    }

    /// Makes tile row `row` the one held: takes it from the decodes started ahead (or decodes it
    /// now), releasing the row held before, and starts decoding the next tile rows the region
    /// needs (`ahead` of them), to overlap the rendering of this one.
    private func hold(tileRow row: Int) throws {
        release()
        let job: TileRowJob
        if let next = pending.first, next.row == row {
            job = pending.removeFirst()
        } else {
            discardPending()
            job = startDecoding(tileRow: row)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        job.group.wait()
        seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var failure: HEICError?
        for result in job.results {
            switch result {
            case .success(let tile): held.append(tile)
            case .failure(let error): failure = failure ?? error
            }
        }
        heldRow = row
        tilesDecoded += tileColumns.count
        tileRowsDecoded += 1
        if let failure {
            release()
            throw input?.readFailure ?? failure
        }
        // With one decoding thread this render is one of several at once (`batch -j`), whose cores
        // are busy with the others anyway: no decoding ahead, so it holds one tile row, not three.
        if threads > 1 { queueTileRows(from: (pending.last?.row ?? row) + 1, until: Self.ahead) }
        peakHeldPixels = max(peakHeldPixels, (held.count + pending.count * tileColumns.count) * tiling.tileSize.pixelCount)
    }

    /// A tile row's tiles of the region, decoded by the `DecodingThreads` until `group` is done;
    /// `results` are read only after waiting on it. Not `Sendable`: the decoding threads reach
    /// it through their queue, whose doc comment says what guards it.
    private final class TileRowJob {
        let row: Int
        /// Entered once per tile; each tile leaves it when decoded (or dropped by `stop`).
        let group = DispatchGroup()
        /// One result per tile column, each written by the thread that took the tile.
        let results: UnsafeMutableBufferPointer<Result<HeldTile, HEICError>>
        /// Tiles taken by a thread so far (guarded by the threads' condition).
        var taken = 0
        /// Keeps libheif's context alive while the decode runs.
        let file: HEIFFile

        init(row: Int, count: Int, file: HEIFFile) {
            (self.row, self.file) = (row, file)
            results = .allocate(capacity: count)
            results.initialize(repeating: .failure(.decodeFailed("not decoded")))
            for _ in 0..<count { group.enter() }
        }

        deinit {
            _ = results.deinitialize()
            results.deallocate()
        }
    }

    /// The threads that decode this reader's tiles, kept for its life: each takes the next tile
    /// no thread has taken, from the oldest tile row queued, so a row's last tile and the next
    /// row's first tiles decode at once.
    ///
    /// Threads of their own, not libdispatch's pool: a thread decoding a tile waits inside
    /// libheif while libde265 decodes on a thread of its own, and the pool (one thread per core)
    /// counted the waiting threads as running, so the next tile row's decode queued behind a
    /// row's last tile with a core idle (`perf` timelines of a 12 MP SmartTone HEIC's render on
    /// this 2-core machine, after its first 100 ms: 1.77 threads busy on average before,
    /// 1.84–1.92 after). The same threads for every row, not new ones: each new thread opened a
    /// malloc arena of its own, and `render`'s top pad (`MallocPolicy`) keeps up to 16 MB of
    /// each (with a thread a row, `scripts/bench` case 17 peaked at 70 MB instead of 47; with
    /// these two, 48 MB, and the 24 MP portrait about 20 MB more than its 276).
    ///
    /// The queue and each job's `taken` are behind `condition`; a job's result i is written by
    /// the thread that took tile i alone and read by the owner after waiting on the job's group.
    private final class DecodingThreads {
        private let condition = NSCondition()
        private var queue: [TileRowJob] = []
        private var stopping = false
        private let exited = DispatchSemaphore(value: 0)
        private let count: Int
        private let columns: Range<Int>, tileSize: PixelSize, imageSize: PixelSize

        init(count: Int, columns: Range<Int>, tileSize: PixelSize, imageSize: PixelSize) {
            (self.count, self.columns, self.tileSize, self.imageSize) = (count, columns, tileSize, imageSize)
            for _ in 0..<count {
                let thread = Thread { [handedOver = HandedOver(self)] in handedOver.value.loop() }
                thread.start()
            }
        }

        func add(_ job: TileRowJob) {
            condition.lock(); defer { condition.unlock() }
            queue.append(job)
            condition.broadcast()
        }

        /// Drops the tiles no thread has taken (their results stay "not decoded", their group is
        /// left), waits for the tiles being decoded, and ends the threads.
        func stop() {
            condition.lock()
            stopping = true
            condition.broadcast()
            condition.unlock()
            for _ in 0..<count { exited.wait() }
        }

        private func loop() {
            condition.lock()
            while true {
                while let first = queue.first, first.taken == columns.count { queue.removeFirst() }
                guard let job = queue.first else {
                    if stopping { break }
                    condition.wait()
                    continue
                }
                let index = job.taken
                job.taken += 1
                if stopping {
                    job.group.leave()
                    continue
                }
                condition.unlock()
                let column = columns.lowerBound + index
                // The part of the tile inside the image (a grid's last column and row are cut).
                let needed = PixelSize(width: min(tileSize.width, imageSize.width - column * tileSize.width),
                                       height: min(tileSize.height, imageSize.height - job.row * tileSize.height))
                job.results[index] = HEICTileRows.decodeTile(job.file.handle, column: column, row: job.row, needing: needed)
                job.group.leave()
                condition.lock()
            }
            condition.unlock()
            exited.signal()
        }
    }

    /// Queues tile row `row` for the decoding threads, starting them on the first row.
    private func startDecoding(tileRow row: Int) -> TileRowJob {
        let job = TileRowJob(row: row, count: tileColumns.count, file: file)
        if decoders == nil {
            decoders = DecodingThreads(count: min(threads, tileColumns.count), columns: tileColumns,
                                       tileSize: tiling.tileSize, imageSize: tiling.imageSize)
        }
        decoders?.add(job)
        return job
    }

    /// Ends the decoding threads (the tiles they have not started are dropped) and releases
    /// the tiles decoded ahead.
    private func finishDecoding() {
        decoders?.stop()
        decoders = nil
        discardPending()
    }

    /// Waits for the decodes started ahead, if any, and releases their tiles.
    private func discardPending() {
        for job in pending {
            job.group.wait()
            for case .success(let tile) in job.results { adjust_heif_image_release(tile.image) }
        }
        pending = []
    }

    /// Tile (`column`, `row`) decoded to 8-bit RGB in the stored frame, strictly (a missing or
    /// broken tile fails, never grey), at least `size` pixels.
    private static func decodeTile(_ handle: OpaquePointer, column: Int, row: Int, needing size: PixelSize) -> Result<HeldTile, HEICError> {
        guard let options = adjust_heif_decoding_options_alloc() else { return .failure(.decodeFailed("libheif could not start")) }
        defer { adjust_heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = 1   // the stored frame
        options.pointee.convert_hdr_to_8bit = 1
        options.pointee.strict_decoding = 1
        var image: OpaquePointer?
        let status = adjust_heif_image_handle_decode_image_tile(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB,
                                                                options, UInt32(column), UInt32(row))
        guard status.code == heif_error_Ok, let image else { return .failure(.decodeFailed(HEICDecoder.message(status))) }
        let decoded = PixelSize(width: Int(adjust_heif_image_get_width(image, heif_channel_interleaved)),
                                height: Int(adjust_heif_image_get_height(image, heif_channel_interleaved)))
        var stride: Int32 = 0
        guard let base = adjust_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= decoded.width * 3 else {
            adjust_heif_image_release(image)
            return .failure(.decodeFailed("libheif returned no RGB plane for tile (\(column), \(row))"))
        }
        guard decoded.width >= size.width, decoded.height >= size.height else {
            adjust_heif_image_release(image)
            return .failure(.decodeFailed("tile (\(column), \(row)) decoded to \(decoded) pixels where the grid needs \(size)"))
        }
        return .success(HeldTile(image: image, base: base, stride: Int(stride)))
    }

    private func release() {
        for tile in held { adjust_heif_image_release(tile.image) }
        held = []
        heldRow = -1
    }
}
