import Foundation

extension PhotoEdit {
    /// Renders and writes a PNG in one pass, into the output's temporary file as the rows are
    /// encoded (`Renderer.renderPNG`): neither the image nor the file is ever whole in memory. The
    /// file holds what `write` would give the same rendering: IHDR, then the original's ICC
    /// profile and EXIF and `metadata.provenance` (`PNGMetadata.headerChunks`), then the image.
    /// Atomic as `write` is: a failure leaves no file at `path` and an existing one untouched.
    /// The rendering returned has no `bytes` (they are in the file); its other fields are as
    /// `renderEncoded` gives them.
    @discardableResult
    package func renderAndWritePNG(to path: String, compression: PNGCompression,
                                   metadata: MetadataOptions) throws(FileError)
        -> (rendering: EncodedRendering, metadataWarnings: [String]) {
        try refuseWhenNothingReplayable()
        let metadata = carried(metadata)
        let (plan, renderer, original) = (plan, renderer, original)
        let header = PNGMetadata.headerChunks(from: original.metadataJPEG, outputSize: plan.orientedSize, options: metadata)
        var rendering: EncodedRendering?
        do {
            try AtomicFileWriter.write(to: path) { fd in
                rendering = try renderer.renderPNG(plan, original: original) { hasAlpha in
                    // Called again when the render finds the other colour type: the file starts over.
                    guard lseek(fd, 0, SEEK_SET) == 0, ftruncate(fd, 0) == 0 else {
                        throw OutputError(description: "cannot write: \(String(cString: strerror(errno)))")
                    }
                    let writer = try PNGRowWriter(size: plan.orientedSize, hasAlpha: hasAlpha, compression: compression,
                                                  to: .file(fd))
                    for chunk in header.chunks { try writer.writeChunk(type: chunk.type, data: chunk.data) }
                    return writer
                }
            }
        } catch let error as OutputError {
            throw FileError(path: path, kind: .unwritable, error)
        } catch {
            throw renderFailure(error)
        }
        return (rendering!, header.warnings)
    }
}
