/// The stored-frame region kernels (red-eye repair) on the streaming renderer.
///
/// A region kernel's work comes in pieces, each reading and writing only the pixels of its area
/// of the stored image (`RegionWork`). A piece can change the output only if its area meets the
/// plan's source region (the only pixels sampled), or meets the area of a piece that does (whose
/// input it may change): those are the pieces run; the region decoded is grown to hold their
/// areas whole, since a repair reads all of its area. They are gathered into groups whose rows
/// overlap, top to bottom; the conversion of source rows into working rows
/// (`StoredFrameConversion`) converts a group's rows together, runs its pieces on them in the
/// kernels' order, then the stored-frame colour kernels — what the whole-image reference does
/// to those pixels, in the same order, so the bits are the same. Pieces of different groups
/// touch different rows, so their order does not matter.
struct StoredRegionPass {
    /// Pieces whose areas share rows (directly or through others), in the kernels' order.
    struct Group {
        /// The decoded rows the group's areas cover.
        let rows: Range<Int>
        let pieces: [RegionWork.Piece]
    }

    /// Top to bottom, rows disjoint.
    let groups: [Group]
    /// The plan's decode region, grown to hold every piece that is run.
    let decodeRegion: PixelRect
    /// The most rows of one group.
    let tallestGroup: Int

    /// For `plan`, whose stored image is decoded at `plan.decodedSize`.
    init(kernels: [any RegionKernel], plan: RenderPlan) {
        // The pixels the chain's stored-frame result is needed at: the source region, grown by
        // the neighbourhood kernels' radii when the chain has any.
        let region = plan.decodeRegion
        let pieces = kernels.flatMap { $0.work(imageSize: plan.decodedSize).pieces }
        let kept = region.width > 0 && region.height > 0 ? Self.piecesReaching(region, of: pieces) : []
        var bounds = region
        for piece in kept { bounds = Self.union(bounds, piece.area) }
        decodeRegion = bounds
        groups = Self.groups(of: kept)
        tallestGroup = groups.map(\.rows.count).max() ?? 0
    }

    var isEmpty: Bool { groups.isEmpty }

    /// `region` grown to hold the areas of the pieces that reach it (what `init` decodes): the
    /// planner's `RenderPlan.decodeRegion`, so the plan is the whole plan.
    static func region(holding pieces: [RegionWork.Piece], reaching region: PixelRect) -> PixelRect {
        guard region.width > 0, region.height > 0 else { return region }
        return piecesReaching(region, of: pieces).reduce(region) { union($0, $1.area) }
    }

    /// The pieces, in order, whose areas meet `region` or (transitively) the area of one that
    /// does; the others cannot change any pixel the output reads.
    private static func piecesReaching(_ region: PixelRect, of pieces: [RegionWork.Piece]) -> [RegionWork.Piece] {
        var kept = pieces.map { meets($0.area, region) }
        var queue = kept.indices.filter { kept[$0] }
        while let i = queue.popLast() {
            for j in pieces.indices where !kept[j] && meets(pieces[j].area, pieces[i].area) {
                kept[j] = true
                queue.append(j)
            }
        }
        return pieces.indices.filter { kept[$0] }.map { pieces[$0] }
    }

    /// `pieces` gathered by overlapping rows, top to bottom; each group keeps the pieces' order.
    private static func groups(of pieces: [RegionWork.Piece]) -> [Group] {
        let byTop = pieces.indices.sorted { pieces[$0].area.y < pieces[$1].area.y }
        var spans: [(rows: Range<Int>, members: [Int])] = []
        for i in byTop {
            let rows = pieces[i].area.y..<(pieces[i].area.y + pieces[i].area.height)
            if let last = spans.last, rows.lowerBound < last.rows.upperBound {
                spans[spans.count - 1] = (last.rows.lowerBound..<max(last.rows.upperBound, rows.upperBound),
                                          last.members + [i])
            } else {
                spans.append((rows, [i]))
            }
        }
        return spans.map { Group(rows: $0.rows, pieces: $0.members.sorted().map { pieces[$0] }) }
    }

    private static func meets(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    private static func union(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        let (x0, y0) = (min(a.x, b.x), min(a.y, b.y))
        return PixelRect(x: x0, y: y0, width: max(a.x + a.width, b.x + b.width) - x0,
                         height: max(a.y + a.height, b.y + b.height) - y0)
    }
}
