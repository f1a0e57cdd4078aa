import Foundation
import XMPParse

/// What an output was made from, recorded in the output's own XMP (`docs/spec/provenance.md`) so
/// that `adjust batch --update` can tell a current output from a stale one without any database.
///
/// Two provenances describe the same output when every field but `originalPath` is equal: the
/// same tool, the same original bytes, the same edit (found the same way, with the same bytes)
/// and the same options. `originalPath` only says where the original was, for `--prune`.
package struct Provenance: Sendable, Equatable {
    /// The project's XMP namespace for provenance. `.invalid` is the top-level domain reserved
    /// never to resolve (RFC 2606): the URI is a name, not a web page, and belongs to no one else.
    package static let namespace = "http://ns.adjust.invalid/provenance/1.0/"
    /// The prefix written; readers go by the namespace, whatever its prefix.
    package static let prefix = "adjust"

    /// "adjust 0.1.0": the tool and version that rendered the output.
    package var tool: String
    /// SHA-256 of the original's whole file, lowercase hex.
    package var originalDigest: String
    /// Where the edit came from: none, embedded, sidecar, aae or xmp-dir.
    package var editKind: String
    /// SHA-256 of the edit file (a sidecar, an `.AAE`, an --xmp-dir file); nil when the edit is
    /// inside the original (covered by `originalDigest`) or there is none.
    package var editDigest: String?
    /// The options that change the output file, in a canonical form chosen by the caller
    /// (`adjust batch`: size, format, quality, colour and metadata options).
    package var options: String
    /// The original's path relative to the output's folder ("../../photos/IMG_0001.JPG"), so that
    /// a tree moved or mounted elsewhere as a whole still finds it. Not part of `sameOutput`.
    package var originalPath: String
    /// SHA-256 of what the user set in Photos for the asset and the output carries
    /// (`PhotosAssetMetadata.canonicalText`); nil when it carries none. A change in the library's
    /// database (a date, a title, a keyword fixed) so makes `--update` write the output again.
    package var metadataDigest: String?

    package init(tool: String, originalDigest: String, editKind: String, editDigest: String?, options: String,
                originalPath: String, metadataDigest: String? = nil) {
        (self.tool, self.originalDigest, self.editKind, self.editDigest) = (tool, originalDigest, editKind, editDigest)
        (self.options, self.originalPath, self.metadataDigest) = (options, originalPath, metadataDigest)
    }

    /// Nil when an output recorded with `recorded` is what rendering with `self` would write;
    /// otherwise what changed, for reports ("original changed", "edit changed", …).
    package func change(since recorded: Provenance) -> String? {
        if recorded.tool != tool { return "tool changed (\(recorded.tool) → \(tool))" }
        if recorded.originalDigest != originalDigest { return "original changed" }
        if recorded.editKind != editKind || recorded.editDigest != editDigest { return "edit changed" }
        if recorded.options != options { return "options changed" }
        if recorded.metadataDigest != metadataDigest { return "Photos metadata changed" }
        return nil
    }

    // MARK: - XMP

    /// The properties written, in order: (local name, value).
    var xmpProperties: [(name: String, value: String)] {
        var properties = [("Tool", tool), ("OriginalDigest", "sha256:" + originalDigest), ("EditKind", editKind)]
        if let editDigest { properties.append(("EditDigest", "sha256:" + editDigest)) }
        properties += [("Options", options), ("OriginalPath", originalPath)]
        if let metadataDigest { properties.append(("MetadataDigest", "sha256:" + metadataDigest)) }
        return properties
    }

    /// The provenance in a parsed XMP packet, or nil when it has none or an incomplete one.
    package init?(packet: XMPPacket) {
        func text(_ name: String) -> String? {
            if case .text(let value)? = packet[namespace: Self.namespace, name: name] { return value }
            return nil
        }
        func digest(_ name: String) -> String? {
            guard let value = text(name), value.hasPrefix("sha256:") else { return nil }
            return String(value.dropFirst(7))
        }
        guard let tool = text("Tool"), let original = digest("OriginalDigest"), let editKind = text("EditKind"),
              let options = text("Options"), let originalPath = text("OriginalPath") else { return nil }
        let editDigest = digest("EditDigest")
        if text("EditDigest") != nil, editDigest == nil { return nil }
        if text("MetadataDigest") != nil, digest("MetadataDigest") == nil { return nil }
        self.init(tool: tool, originalDigest: original, editKind: editKind, editDigest: editDigest, options: options,
                  originalPath: originalPath, metadataDigest: digest("MetadataDigest"))
    }

    /// A standalone XMP packet holding only this provenance (an output whose original has no XMP,
    /// or with `--strip-metadata`).
    var standalonePacket: [UInt8] {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: ">", with: "&gt;")
        }
        let attributes = xmpProperties.map { "\n    \(Self.prefix):\($0.name)=\"\(escaped($0.value))\"" }.joined()
        return Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:\(Self.prefix)="\(Self.namespace)"\(attributes)/>
             </rdf:RDF>
            </x:xmpmeta>
            """.utf8)
    }
}
