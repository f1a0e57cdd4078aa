import AdjustKit
import ArgumentParser

/// `--strip-gps` and `--strip-metadata`, shared by `render` and `batch`.
struct MetadataOptionGroup: ParsableArguments {
    @Flag(name: .long, help: "Leave the original's GPS position out of the written JPEG.")
    var stripGps = false

    @Flag(name: .long, help: "Write no metadata at all (by default a JPEG keeps the original's EXIF, ICC profile and XMP, with Orientation 1, the new size and the edit removed).")
    var stripMetadata = false

    var options: MetadataOptions { MetadataOptions(stripGPS: stripGps, stripAll: stripMetadata) }
}
