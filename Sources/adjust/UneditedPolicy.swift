import AdjustKit
import Foundation
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

    /// True when writing the photo unchanged to `output` gives exactly what was asked for: no
    /// resize, its metadata kept whole, and `output` named for the photo's own format (a JPEG to
    /// `.jpg`, a HEIC to `.heic` where a batch kept the format: `BatchCollection.keepOwnFormats`).
    static func copyIsFaithful(_ photo: PhotoEdit, to output: String, size: SizeRequest, metadata: MetadataOptions) -> Bool {
        guard case .full = size, !metadata.stripAll, !metadata.stripGPS else { return false }
        let ext = (output as NSString).pathExtension.lowercased()
        switch photo.original {
        case .jpeg: return ext == "jpg" || ext == "jpeg"
        case .heic: return ext == "heic" || ext == "heif"
        }
    }

    /// The original's bytes, written atomically to `path`.
    static func copy(_ photo: PhotoEdit, to path: String) throws(FileError) {
        let bytes = try photo.original.source.whole()
        do { try AtomicFileWriter.write(bytes, to: path) } catch { throw FileError(path: path, kind: .unwritable, error) }
    }
}
