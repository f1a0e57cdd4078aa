import AdjustKit
import ArgumentParser

/// `--metadata`: whose date, place, title, caption, keywords and rating an output of a Photos
/// library asset carries.
enum PhotosMetadataSource: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// What the user set in Photos (the library's database), over the file's own.
    case photos
    /// The file's own metadata only, as it came from the camera.
    case file
}

/// `--sidecar`: when an output gets a `NAME.EXT.xmp` beside it.
enum SidecarPolicy: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Only where the output's own file cannot carry what Photos holds without re-encoding it
    /// (a HEIC, PNG or video, anything but a JPEG).
    case auto
    /// Beside every output of a library asset.
    case xmp
}

/// `--metadata` and `--sidecar`, for `batch`.
struct PhotosMetadataOptionGroup: ParsableArguments {
    @Option(name: .customLong("metadata"), help: ArgumentHelp(
        "Of a Photos library's photos and videos: photos (default: the capture date with its time zone, place, title, caption, keywords, favourite (rating 5) and albums set in Photos go with each output — into a JPEG's XMP, its picture untouched (a copied JPEG stays byte-identical from SOS to EOI); else into a sidecar NAME.EXT.xmp beside it) or file (the file's own metadata only).",
        valueName: "photos|file"))
    var source: PhotosMetadataSource = .photos

    @Option(name: .long, help: ArgumentHelp(
        "auto (default: a sidecar NAME.EXT.xmp only where the output cannot carry Photos' metadata itself: HEIC, PNG, videos) or xmp (beside every output of a library asset, JPEGs too).",
        valueName: "auto|xmp"))
    var sidecar: SidecarPolicy = .auto
}
