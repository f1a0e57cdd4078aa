import Foundation
import XMPParse

/// Where an edit came from.
public enum EditOrigin: Equatable, Sendable, CustomStringConvertible {
    /// A standalone XMP packet file.
    case xmpFile(String)
    /// A plist or JSON metadata dump with the packet under `AdjustmentXMP`.
    case metadataDump(String)
    /// The aas properties in a JPEG's own XMP segment.
    case embedded(String)
    /// `IMG.xmp` / `IMG.XMP` beside the image.
    case sidecar(String)
    /// A modern Photos edit: an `.AAE` sidecar (named, or found beside the image as `IMG.AAE` or
    /// `IMG_O….aae` in any case), an `Adjustments.plist`, or a macOS Photos render plist.
    case aae(String)
    /// No edit was found: the original is rendered, oriented.
    case none

    /// How messages name the origin, e.g. `sidecar IMG_0001.xmp`.
    /// The file the edit was read from; nil for `.none`.
    public var path: String? {
        switch self {
        case .xmpFile(let path), .metadataDump(let path), .embedded(let path), .sidecar(let path), .aae(let path):
            return path
        case .none: return nil
        }
    }

    public var description: String {
        switch self {
        case .xmpFile(let path): return "XMP file \(path)"
        case .metadataDump(let path): return "AdjustmentXMP in metadata dump \(path)"
        case .embedded(let path): return "XMP embedded in \(path)"
        case .sidecar(let path): return "sidecar \(path)"
        case .aae(let path): return "AAE edit \(path)"
        case .none: return "none (no adjustments found)"
        }
    }
}

/// An edit and what was learned while reading it.
public struct LoadedEdit: Sendable {
    /// The edit as read; empty when none was found.
    public var chain: EditChain
    /// Where the edit was read from.
    public var origin: EditOrigin
    /// Remarks made while reading (unknown properties, incomplete filters), one line each.
    public var warnings: [String]
    /// What was left out on purpose and why (a modern edit's video-only adjustments), one line each.
    public var notes: [String]
    /// A modern edit's `metadata.masterWidth/Height`: the size of the image it was made on, to
    /// notice an edit paired with the wrong photo; nil for AdjustmentXMP.
    package var masterSize: PixelSize?

    package init(chain: EditChain, origin: EditOrigin, warnings: [String] = [], notes: [String] = [],
                masterSize: PixelSize? = nil) {
        (self.chain, self.origin, self.warnings, self.notes, self.masterSize) = (chain, origin, warnings, notes, masterSize)
    }

    /// A warning when the edit's master size fits neither this photo's stored size either way
    /// round nor its crop (docs/spec/aae-format.md §2); nil for AdjustmentXMP.
    package func masterSizeWarning(storedSize: PixelSize) -> String? {
        guard let masterSize else { return nil }
        let crop = chain.photosCrop.map { (width: $0.width, height: $0.height) }
        return AAEMasterSizeCheck.warning(master: (masterSize.width, masterSize.height),
                                          photo: (storedSize.width, storedSize.height), crop: crop)
    }
}

/// Finds and reads edits (xmp-format.md §8, aae-format.md §1).
package struct EditSource: Sendable {
    /// Limits applied to every file and packet read.
    package var limits: InputLimits
    /// Limits applied to modern Photos edits (`.AAE`).
    package var aaeLimits: AAELimits
    /// How a modern edit's unknowns U1–U4 are read.
    package var assumptions: AAEAssumptions
    /// The folders listed so far for AAE sidecars, shared by copies of this source.
    private let folderNames = FolderNameIndex()
    /// False for a source that finds no edit for any photo (`EditSource.none`).
    package var searches = true
    /// False where the caller's walk already looked where a library or a backup keeps a photo's
    /// edit (`PhotoWalker`): a batch of 20 000 library photos then lists no folder per photo.
    package var findsLayoutEdits = true

    /// A source for which every photo has no edit: for images that are finished renders (Apple's
    /// own render of an edit), whose metadata must not be taken for an edit.
    package static var none: EditSource {
        var source = EditSource()
        source.searches = false
        return source
    }

    /// A source that reads within `limits`.
    package init(limits: InputLimits = InputLimits(), aaeLimits: AAELimits = .default,
                assumptions: AAEAssumptions = .default) {
        (self.limits, self.aaeLimits, self.assumptions) = (limits, aaeLimits, assumptions)
    }

    /// Reads the edit in `path`, whatever holds it: an XMP packet, a plist/JSON metadata dump
    /// (key `AdjustmentXMP`), a JPEG with aas properties in its XMP, or a modern Photos edit
    /// (`.AAE` and the other property lists of that format).
    package func load(editFile path: String) throws(FileError) -> LoadedEdit {
        let bytes = try InputFile.read(path, limit: limits.maxInputBytes)
        do {
            switch Self.sniff(bytes, path: path) {
            case .aae:
                return try aaeEdit(from: bytes, path: path)
            case .jpeg:
                guard let packet = try JPEGSegments.xmpPacket(in: bytes) else {
                    throw FileError(path: path, kind: .invalidContent, problem: "the JPEG has no XMP packet")
                }
                return try edit(from: packet, origin: .embedded(path), path: path)
            case .metadataDump:
                return try edit(from: try MetadataDump.adjustmentXMP(in: bytes, limits: limits.xmp), origin: .metadataDump(path), path: path)
            case .xmp:
                return try edit(from: bytes, origin: .xmpFile(path), path: path)
            }
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(path: path, kind: .invalidContent, error)
        }
    }

    /// The edit for the JPEG at `imagePath` (already read into `jpeg`): its own XMP if that has
    /// aas properties, else a sidecar `stem.xmp` / `stem.XMP`, else none (xmp-format.md §8).
    ///
    /// Metadata never costs a photo: an embedded packet that cannot be read at all (malformed
    /// XML, a DOCTYPE, over a limit, …), or a header the segment scan cannot walk, is left out
    /// with one warning when its text holds no trace of the adjustment namespace
    /// (`mayHoldAdjustments`), and the photo is rendered without it. One that does is the edit
    /// itself, broken: refused, naming the problem.
    package func find(forImage imagePath: String, jpeg: [UInt8]) throws(FileError) -> LoadedEdit {
        guard searches else { return LoadedEdit(chain: EditChain(), origin: .none) }
        var embeddedWarnings: [String] = []
        var packetBytes: [UInt8]?
        do {
            let scan = try JPEGSegments.scan(jpeg)
            embeddedWarnings += scan.warnings
            packetBytes = scan.xmpPacket
        } catch {
            guard !Self.mayHoldAdjustments(jpeg) else {
                throw FileError(path: imagePath, kind: .invalidContent, problem: "embedded XMP: \(error)")
            }
            embeddedWarnings.append(Self.unreadableXMP + "\(error)")
        }
        if let packetBytes {
            let packet: XMPPacket?
            do {
                packet = try XMPPacketParser.parse(packetBytes, limits: limits.xmp)
            } catch {
                guard !Self.mayHoldAdjustments(packetBytes) else {
                    throw FileError(path: imagePath, kind: .invalidContent, problem: "embedded XMP: \(error)")
                }
                embeddedWarnings.append(Self.unreadableXMP + "\(error)")
                packet = nil
            }
            if let packet {
                if packet.hasProperties(inNamespace: AdjustmentNamespace.aas) {
                    var loaded = try edit(from: packet, origin: .embedded(imagePath), path: imagePath)
                    loaded.warnings.insert(contentsOf: embeddedWarnings, at: 0)
                    return loaded
                }
                embeddedWarnings += packet.warnings.map { "embedded XMP: \($0)" }
            }
        }
        for sidecar in XMPSidecarLayout.candidates(forImage: imagePath) where FileManager.default.fileExists(atPath: sidecar) {
            let loaded = try load(editFile: sidecar)
            return LoadedEdit(chain: loaded.chain, origin: .sidecar(sidecar), warnings: loaded.warnings)
        }
        if let aae = Self.aaeSidecar(forImage: imagePath, folderNames: folderNames) { return try load(editFile: aae) }
        return LoadedEdit(chain: EditChain(), origin: .none, warnings: embeddedWarnings)
    }

    /// How the warning for a photo's own packet left out as unreadable starts.
    static let unreadableXMP = "embedded XMP unreadable, rendered without it: "

    /// Whether `bytes` (an XMP packet, or a JPEG's header) show any trace of the adjustment
    /// namespace: its URI, or an `aas:` prefix, in ASCII or in UTF-16/32 text (NULs ignored).
    /// An unreadable packet without one holds no edit to lose; one with one is a broken edit.
    static func mayHoldAdjustments(_ bytes: [UInt8]) -> Bool {
        let needles = [Array("ns.apple.com/adjustment-settings".utf8), Array("aas:".utf8)]
        func contains(_ haystack: [UInt8]) -> Bool {
            needles.contains { haystack.firstRange(of: $0) != nil }
        }
        return contains(bytes) || (bytes.contains(0) && contains(bytes.filter { $0 != 0 }))
    }

    /// The modern edit beside `imagePath` (aae-format.md §1): `STEM.AAE` in any case, else the
    /// capture-time `IMG_O1234.aae` of `IMG_1234.*` (any case; `DCIMLayout.editCandidates`). nil
    /// when there is none.
    static func aaeSidecar(forImage imagePath: String, folderNames: FolderNameIndex) -> String? {
        let folder = LayoutPath.folder(of: imagePath)
        for candidate in DCIMLayout.editCandidates(forPhotoNamed: imagePath) {
            if let name = folderNames.aaeName(matching: candidate, in: LayoutPath.forSystem(folder)) {
                return LayoutPath.join(folder, name)
            }
        }
        return nil
    }

    private func aaeEdit(from bytes: [UInt8], path: String) throws(FileError) -> LoadedEdit {
        let document: AAEDocument
        var notes: [String] = []
        let chain: EditChain
        do {
            document = try AAEDocument(contentsOf: bytes, limits: aaeLimits)
            chain = try EditChain(aae: document, assumptions: assumptions, notes: &notes)
        } catch AAEError.unsupportedFormat(let identifier, let editor) {
            throw FileError(path: path, kind: .unsupported, AAEError.unsupportedFormat(identifier: identifier, editor: editor))
        } catch {
            throw FileError(path: path, kind: .invalidContent, error)
        }
        let master = document.metadata
        let masterSize = master.masterWidth > 0 && master.masterHeight > 0
            ? PixelSize(width: master.masterWidth, height: master.masterHeight) : nil
        return LoadedEdit(chain: chain, origin: .aae(path), notes: notes, masterSize: masterSize)
    }

    private func edit(from packetBytes: [UInt8], origin: EditOrigin, path: String) throws(FileError) -> LoadedEdit {
        let packet: XMPPacket
        do {
            packet = try XMPPacketParser.parse(packetBytes, limits: limits.xmp)
        } catch {
            throw FileError(path: path, kind: .invalidContent, error)
        }
        return try edit(from: packet, origin: origin, path: path)
    }

    private func edit(from packet: XMPPacket, origin: EditOrigin, path: String) throws(FileError) -> LoadedEdit {
        var warnings = packet.warnings.map { if case .embedded = origin { "embedded XMP: \($0)" } else { "XMP: \($0)" } }
        do {
            let chain = try EditChain(xmp: packet, warnings: &warnings)
            if chain.serializedFilters.count > limits.maxChainFilters {
                throw ChainError.tooMany("aas:Filters items", count: chain.serializedFilters.count, limit: limits.maxChainFilters)
            }
            if let count = chain.redEye?.corrections.count, count > limits.maxRedEyeCorrections {
                throw ChainError.tooMany("red-eye corrections", count: count, limit: limits.maxRedEyeCorrections)
            }
            return LoadedEdit(chain: chain, origin: origin, warnings: warnings)
        } catch {
            throw FileError(path: path, kind: .invalidContent, error)
        }
    }

    private enum Container { case jpeg, aae, metadataDump, xmp }

    /// By content; an `.aae` file (any case) or an `Adjustments.plist` is read as a modern edit
    /// whatever it holds, so that a damaged one is reported as such.
    private static func sniff(_ bytes: [UInt8], path: String) -> Container {
        if bytes.starts(with: [0xFF, 0xD8]) { return .jpeg }
        let name = LayoutPath.name(of: path).lowercased()
        if name.hasSuffix(".aae") || name == "adjustments.plist" { return .aae }
        // Both plist forms keep their dictionary keys as plain ASCII strings.
        if bytes.prefix(1 << 16).firstRange(of: Array("adjustmentFormatIdentifier".utf8)) != nil { return .aae }
        if bytes.starts(with: Array("bplist".utf8)) { return .metadataDump }
        let head = bytes.prefix(1024)
        if let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
           first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return .metadataDump
        }
        if String(decoding: head, as: UTF8.self).contains("<plist") { return .metadataDump }
        return .xmp
    }
}
