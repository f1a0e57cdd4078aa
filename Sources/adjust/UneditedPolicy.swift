import AdjustKit
import ArgumentParser

/// What to write for a photo without an edit (`--unedited`).
enum UneditedPolicy: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// A byte-identical copy of the original when nothing asked for changes it (full size, the
    /// original's own format, metadata kept); otherwise rendered like an edited photo.
    case copy
    /// Nothing written.
    case skip
    /// Always decoded and written again (upright, in the requested size, format and metadata).
    case render

    /// `render --unedited` takes copy or render: skipping is what render does without the flag.
    enum ForRender: String, ExpressibleByArgument, CaseIterable, Sendable {
        case copy, render
        var policy: UneditedPolicy { self == .copy ? .copy : .render }
    }

    /// True when writing the photo unchanged gives exactly what was asked for: no resize, the
    /// same format as the original, and its metadata kept whole.
    static func copyIsFaithful(_ photo: PhotoEdit, size: SizeRequest, format: ImageFormat,
                               metadata: MetadataOptions) -> Bool {
        guard case .full = size, !metadata.stripAll, !metadata.stripGPS else { return false }
        guard case .jpeg = photo.original else { return false }   // outputs are JPEG or PNG; a HEIC is converted
        return format == .jpeg
    }

    /// The original's bytes, written atomically to `path`.
    static func copy(_ photo: PhotoEdit, to path: String) throws(FileError) {
        let bytes = try photo.original.source.whole()
        do { try AtomicFileWriter.write(bytes, to: path) } catch { throw FileError(path: path, kind: .unwritable, error) }
    }
}
