import Foundation
import XMPParse

/// `NAME.EXT.xmp` beside an output `NAME.EXT`: what the user set in Photos, for outputs that
/// cannot carry it themselves (a HEIC, PNG or video) or for every output (`--sidecar xmp`). The
/// name is the one Immich, digiKam and darktable look for (docs/spec/photos-library.md §2).
///
/// The packet also holds the output's provenance (docs/spec/provenance.md): it marks the file as
/// adjust's, so a later run removes a sidecar it wrote that no longer applies (`--metadata file`,
/// a JPEG now carrying the values itself, a pruned output) and never a file someone else put there.
package enum PhotosMetadataSidecar {
    /// The sidecar's path for the output at `outputPath`.
    package static func path(forOutput outputPath: String) -> String { outputPath + ".xmp" }

    /// Writes `library` (and `provenance`) beside the output, atomically.
    package static func write(_ library: LibraryMetadataXMP, provenance: Provenance?,
                              forOutput outputPath: String) throws(FileError) {
        let path = path(forOutput: outputPath)
        guard let packet = library.standalonePacket(provenance: provenance) else {
            throw FileError(path: path, kind: .unwritable, problem: "the Photos metadata could not be written as XMP")
        }
        // The xpacket wrapper, as XMP files written by other tools have it (XMP Specification Part 1 §7.3).
        let document = Array("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n".utf8) + packet
            + Array("\n<?xpacket end=\"w\"?>\n".utf8)
        do { try AtomicFileWriter.write(document, to: path) } catch { throw FileError(path: path, kind: .unwritable, error) }
    }

    /// Removes the sidecar of `outputPath` when adjust wrote it (it holds a provenance record);
    /// any other file of that name is left alone.
    package static func removeIfWritten(forOutput outputPath: String) {
        let path = path(forOutput: outputPath)
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20,
              let packet = try? XMPPacketParser.parse([UInt8](data)), Provenance(packet: packet) != nil else { return }
        unlink(path)
    }
}
