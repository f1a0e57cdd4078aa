import Foundation

/// Decoded rows → working-space rows through the stored-frame colour memo (the decode table alone
/// when the chain has no stored-frame kernels), as far down as the sampler needs, the new rows
/// split over the cores, releasing each decoded row once converted.
///
/// A group of red-eye areas (`StoredRegionPass.Group`) is converted whole when the conversion
/// first reaches its rows, as the reference pipeline does it: decoded values through the table,
/// the group's repairs in order, then the stored-frame kernels.
final class StoredFrameConversion {
    let decoded: SourceRowWindow<UInt8>, working: SourceRowWindow<Float>
    let memo: ColourMemo<SIMD3<Float>>?
    /// The stored-frame kernels the memo runs, for the pixels a repair changed.
    let kernels: [any PixelKernel]
    /// Runs the stored-frame steps from the first one run per pixel on (`ColourProgram.storedTail`),
    /// per pixel, after the memo; nil when there are none.
    private let program: ColourProgram?
    private let imageSize: PixelSize, columnOffset: Int
    let space: WorkingSpace
    /// Decoded byte → working value (`space.fromByte`).
    private let table: UnsafeMutablePointer<Float>
    private let groups: [StoredRegionPass.Group]
    /// The working rows as the repairs see them (image coordinates).
    private let pixels: StoredPixels
    private var next: Int, nextGroup = 0

    init(decoded: SourceRowWindow<UInt8>, working: SourceRowWindow<Float>, memo: ColourMemo<SIMD3<Float>>?,
         kernels: [any PixelKernel], program: ColourProgram, space: WorkingSpace, regionPass: StoredRegionPass,
         imageSize: PixelSize, columnOffset: Int) {
        (self.decoded, self.working, self.memo, self.kernels, self.space) = (decoded, working, memo, kernels, space)
        self.program = program.storedTail.isEmpty ? nil : program
        (self.imageSize, self.columnOffset) = (imageSize, columnOffset)
        table = .allocate(capacity: 256)
        table.initialize(from: space.fromByte, count: 256)
        groups = regionPass.groups
        pixels = StoredPixels(size: imageSize, columnOffset: columnOffset) { working.row($0) }
        next = decoded.top
    }

    deinit { table.deallocate() }

    /// Converts rows through v (clamped to the region), and on through the last row of every
    /// red-eye group these rows reach.
    func convert(through v: Int) throws {
        try decoded.waitUntilDecoded(through: v)
        var last = min(v, decoded.bottom - 1)
        guard next <= last else { return }
        let firstGroup = nextGroup
        while nextGroup < groups.count, groups[nextGroup].rows.lowerBound <= last {
            last = max(last, min(groups[nextGroup].rows.upperBound, decoded.bottom) - 1)
            nextGroup += 1
        }
        let repaired = groups[firstGroup..<nextGroup]
        if !repaired.isEmpty { try decoded.waitUntilDecoded(through: last) }
        // Never waits: rows above the current chunk's were released before it was asked for.
        guard working.waitForRoom(through: last) else { throw CancellationError() }
        convertRows(next..<(last + 1), raw: repaired)
        for group in repaired { repair(group) }
        working.finishRows(through: last)
        next = last + 1
        decoded.release(below: next)
    }

    /// Converts `rows` on every core: through the memo, or through the table alone for rows of
    /// the groups about to be repaired (and every row when there is no memo).
    private func convertRows(_ rows: Range<Int>, raw: ArraySlice<StoredRegionPass.Group>) {
        let (width, cells, table, program) = (decoded.width, memo?.cells, table, program)
        let (imageSize, columnOffset) = (imageSize, columnOffset)
        ParallelRows.forEachPart(of: rows, parts: min(ChunkedRowPipeline.parts, rows.count)) { _, rows in
            for y in rows {
                let (row, slot) = (decoded.row(y), working.row(y))
                let isRaw = raw.contains(where: { $0.rows.contains(y) })
                Self.working(row, width: width, into: slot, cells: isRaw ? nil : cells, table: table)
                // Rows about to be repaired get the tail after their repairs (`repair`).
                if let program, !isRaw {
                    program.applyStoredTail(row: slot, count: width, x0: columnOffset, y: y, imageSize: imageSize)
                }
            }
        }
    }

    /// `width` decoded pixels → working values in `slot`: through the stored-frame memo's
    /// `cells`, or the decode table alone. (The pixel copy's `PixelCopyChain` converts its rows
    /// the same way.)
    @inline(__always)
    static func working(_ row: UnsafeMutablePointer<UInt8>, width: Int, into slot: UnsafeMutablePointer<Float>,
                        cells: ColourMemo<SIMD3<Float>>.Cells?, table: UnsafePointer<Float>) {
        if let cells {
            for x in 0..<width {
                let value = cells.value(row[x * 3], row[x * 3 + 1], row[x * 3 + 2])
                slot[x * 3] = value.x; slot[x * 3 + 1] = value.y; slot[x * 3 + 2] = value.z
            }
        } else {
            for i in 0..<(width * 3) { slot[i] = table[Int(row[i])] }
        }
    }

    /// Runs the group's repairs on its rows (decoded values through the table), then the
    /// stored-frame kernels: exactly, on the pixels a repair changed; through the memo on the
    /// others (the same kernels on the same values).
    private func repair(_ group: StoredRegionPass.Group) {
        for piece in group.pieces { piece.apply(pixels, space) }
        defer {
            if let program {
                for y in group.rows {
                    program.applyStoredTail(row: working.row(y), count: decoded.width, x0: columnOffset, y: y,
                                            imageSize: imageSize)
                }
            }
        }
        guard let cells = memo?.cells else { return }
        let width = decoded.width
        for y in group.rows {
            let (row, slot) = (decoded.row(y), working.row(y))
            for x in 0..<width {
                let (b, s) = (row + x * 3, slot + x * 3)
                if s[0].bitPattern == table[Int(b[0])].bitPattern, s[1].bitPattern == table[Int(b[1])].bitPattern,
                   s[2].bitPattern == table[Int(b[2])].bitPattern {
                    let value = cells.value(b[0], b[1], b[2])
                    s[0] = value.x; s[1] = value.y; s[2] = value.z
                } else {
                    for kernel in kernels { kernel.apply(&s[0], &s[1], &s[2]) }
                }
            }
        }
    }
}
