/// The source rows the sampled path reads: per grid row, per chunk of output rows, and whether
/// they only move down the source as the output does (so that the window can be a band).
struct SourceRowNeeds {
    /// The decoded rows each grid row's taps read (nil: none).
    let gridRowNeeds: [ClosedRange<Int>?]
    /// Each worker copies this (the weights are shared, the row cache is its own); nil without
    /// a shrink.
    let shrinkTemplate: StreamingAreaShrink?
    /// Rows come top to bottom; when the geometry also walks down the source, rows above the
    /// current chunk's taps can be dropped, and the window is a band. Otherwise (a flip or a
    /// rotation past 90°) it must hold the whole region.
    let monotone: Bool
    /// The most source rows one chunk of output rows reads (at least 1).
    let span: Int
    let outputRows: Int, chunkRows: Int

    init(plan: RenderPlan, sampler: OutputRowSampler, chunkRows: Int) {
        gridRowNeeds = (0..<sampler.rows).map { sampler.sourceRows(ofRow: $0) }
        shrinkTemplate = plan.needsResample ? StreamingAreaShrink(from: plan.samplingGrid.size, to: plan.outputSize) : nil
        (outputRows, self.chunkRows) = (plan.outputSize.height, chunkRows)
        var monotone = true
        var previous: ClosedRange<Int>?
        for case let need? in gridRowNeeds {
            if let p = previous, need.lowerBound < p.lowerBound || need.upperBound < p.upperBound { monotone = false }
            previous = need
        }
        self.monotone = monotone
        var span = 1
        for start in stride(from: 0, to: outputRows, by: chunkRows) {
            if let rows = Self.sourceRows(start..<min(outputRows, start + chunkRows), gridRowNeeds, shrinkTemplate) {
                span = max(span, rows.count)
            }
        }
        self.span = span
    }

    /// The decoded rows output rows `outputRows` read; nil when none.
    func sourceRows(_ outputRows: Range<Int>) -> ClosedRange<Int>? {
        Self.sourceRows(outputRows, gridRowNeeds, shrinkTemplate)
    }

    /// The first decoded row any chunk after `rows` reads: no later chunk reads above the next
    /// chunk's first tap (taken over the whole chunk: its first rows may reach no source row at
    /// all). nil when the window is not a band or nothing follows.
    func firstRowNeeded(after rows: Range<Int>) -> Int? {
        let nextChunk = rows.upperBound..<min(outputRows, rows.upperBound + chunkRows)
        guard monotone, !nextChunk.isEmpty else { return nil }
        return sourceRows(nextChunk)?.lowerBound
    }

    /// Output row y reads grid rows gridRows(y) (itself without a shrink).
    private static func sourceRows(_ outputRows: Range<Int>, _ needs: [ClosedRange<Int>?],
                                   _ shrink: StreamingAreaShrink?) -> ClosedRange<Int>? {
        let grid = shrink.map { $0.inputRows(of: outputRows.lowerBound).lowerBound
                                  ... $0.inputRows(of: outputRows.upperBound - 1).upperBound }
            ?? outputRows.lowerBound...(outputRows.upperBound - 1)
        let spans = needs[grid].compactMap { $0 }
        guard let lo = spans.map(\.lowerBound).min(), let hi = spans.map(\.upperBound).max() else { return nil }
        return lo...hi
    }
}
