import Foundation
import XMPParse

/// Where an output's provenance is kept when the output itself must not carry it: a byte-identical
/// copy of an unedited original (its bytes are the original's), or an output written with
/// `--strip-metadata` (nothing at all in the image). A hidden XMP file beside the output,
/// `.NAME.adjust.xmp` for `NAME`, written after the output and removed with it
/// (docs/spec/provenance.md §2).
package enum ProvenanceSidecar {
    /// The sidecar's path for the output at `outputPath`.
    package static func path(forOutput outputPath: String) -> String {
        let url = URL(fileURLWithPath: outputPath)
        let folder = url.deletingLastPathComponent().path
        let name = "." + url.lastPathComponent + ".adjust.xmp"
        return outputPath.contains("/") ? (folder == "/" ? "/" : folder + "/") + name : name
    }

    /// Writes `provenance` beside the output, atomically.
    package static func write(_ provenance: Provenance, forOutput outputPath: String) throws(FileError) {
        let path = path(forOutput: outputPath)
        do { try AtomicFileWriter.write(provenance.standalonePacket, to: path) } catch {
            throw FileError(path: path, kind: .unwritable, error)
        }
    }

    /// Removes the sidecar of `outputPath`, if any (an output that now carries its own record).
    package static func remove(forOutput outputPath: String) {
        unlink(path(forOutput: outputPath))
    }

    /// The provenance the sidecar of `outputPath` records, or nil when there is none (or it is not
    /// a complete record).
    static func recorded(forOutput outputPath: String) -> Provenance? {
        let path = path(forOutput: outputPath)
        guard let data = FileManager.default.contents(atPath: path), data.count <= 64 << 10,
              let packet = try? XMPPacketParser.parse([UInt8](data)) else { return nil }
        return Provenance(packet: packet)
    }
}
