extension PhotoEdit {
    /// The same photo with only its edit's geometry — crop, straighten, the Orientation
    /// adjustment, the affine steps — planned at `size`: every colour step left out. Rendered, it
    /// is the unedited photo framed as the edit frames it, the same size as the edited render;
    /// `adjust fidelity` measures how far that is from Apple's render, the baseline adjust's
    /// colour steps must improve on.
    package func geometryOnly(size: SizeRequest = .full, planner: RenderPlanner = RenderPlanner()) throws(FileError) -> PhotoEdit {
        var copy = self
        copy.edit.chain = EditChain(edit.chain.filters.filter { type(of: $0).renderedBy == .geometry })
        do {
            copy.plan = try planner.plan(storedSize: plan.storedSize, exifOrientation: fileOrientation, chain: copy.edit.chain,
                                         size: size, scaledDecode: original.hasScaledDecode)
        } catch {
            throw FileError(path: edit.origin.path ?? imagePath, kind: .invalidContent, error)
        }
        return copy
    }

    /// The file's own orientation: a JPEG's EXIF Orientation (nil without one), a HEIC's irot/imir
    /// as an EXIF value.
    package var fileOrientation: Int? {
        switch original {
        case .jpeg(let source): return ExifOrientation.read(inJPEG: source.head).value
        case .heic(_, let header): return header.orientation
        }
    }
}
