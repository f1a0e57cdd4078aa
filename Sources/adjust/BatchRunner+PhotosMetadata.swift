import AdjustKit
import Foundation

/// What the user set in Photos (date, place, title, caption, keywords, favourite, albums),
/// carried into each output of a library asset: into a JPEG's XMP, else (or with `--sidecar xmp`
/// also) into a sidecar `NAME.EXT.xmp` beside the output, the name Immich, digiKam and darktable
/// look for (docs/spec/photos-library.md §2, §5).
extension BatchRunner {
    /// The asset's Photos metadata as written into its outputs; nil with `--metadata file`,
    /// `--strip-metadata`, for a file outside a library, or when Photos holds none.
    func libraryXMP(of item: BatchItem) -> LibraryMetadataXMP? {
        guard photosMetadata == .photos, !metadata.stripAll,
              let values = (item.found?.libraryAsset ?? item.file?.libraryAsset)?.metadata, !values.isEmpty else { return nil }
        let library = LibraryMetadataXMP(values, includesPlace: !metadata.stripGPS)
        return library.isEmpty ? nil : library
    }

    /// What the provenance records of it: `--update` writes the output again when it changes.
    func metadataDigest(of item: BatchItem) -> String? {
        libraryXMP(of: item).map { SHA256.hex(of: Array($0.metadata.canonicalText.utf8)) }
    }

    /// Writes `NAME.EXT.xmp` (with the output's `provenance`) beside `output` when the output
    /// could not carry the metadata (`embedded` false) or `--sidecar xmp` asks for one everywhere;
    /// otherwise removes one an earlier run wrote there.
    func writePhotosSidecar(_ library: LibraryMetadataXMP?, forOutput output: String, embedded: Bool,
                            provenance: Provenance) throws(FileError) {
        guard let library, !embedded || sidecar == .xmp else {
            PhotosMetadataSidecar.removeIfWritten(forOutput: output)
            return
        }
        try PhotosMetadataSidecar.write(library, provenance: provenance, forOutput: output)
    }

    /// `bytes` (a copy's, Apple's render's or the original's) written to `output`: a JPEG with
    /// its XMP rewritten to carry `library` (the picture's bytes untouched), anything else as it
    /// is; true when the file carries the metadata itself.
    func writeCopy(_ bytes: [UInt8], to output: String, library: LibraryMetadataXMP?) throws(FileError) -> Bool {
        var written = bytes, embedded = false
        if let library, let rewritten = JPEGCopyXMP.copy(bytes, with: library) { (written, embedded) = (rewritten, true) }
        do { try AtomicFileWriter.write(written, to: output) } catch { throw FileError(path: output, kind: .unwritable, error) }
        return embedded
    }
}
