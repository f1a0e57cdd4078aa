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
    /// No edit was found: the original is rendered, oriented.
    case none

    /// How messages name the origin, e.g. `sidecar IMG_0001.xmp`.
    /// The file the edit was read from; nil for `.none`.
    public var path: String? {
        switch self {
        case .xmpFile(let path), .metadataDump(let path), .embedded(let path), .sidecar(let path): return path
        case .none: return nil
        }
    }

    public var description: String {
        switch self {
        case .xmpFile(let path): return "XMP file \(path)"
        case .metadataDump(let path): return "AdjustmentXMP in metadata dump \(path)"
        case .embedded(let path): return "XMP embedded in \(path)"
        case .sidecar(let path): return "sidecar \(path)"
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
}

/// Finds and reads edits (xmp-format.md §8).
public struct EditSource: Sendable {
    /// Limits applied to every file and packet read.
    public var limits: InputLimits

    /// A source that reads within `limits`.
    public init(limits: InputLimits = InputLimits()) { self.limits = limits }

    /// Reads the edit in `path`, whatever holds it: an XMP packet, a plist/JSON metadata dump
    /// (key `AdjustmentXMP`), or a JPEG with aas properties in its XMP.
    public func load(editFile path: String) throws(FileError) -> LoadedEdit {
        let bytes = try InputFile.read(path, limit: limits.maxInputBytes)
        do {
            switch Self.sniff(bytes) {
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
    /// aas properties, else a sidecar `stem.xmp` / `stem.XMP`, else none.
    public func find(forImage imagePath: String, jpeg: [UInt8]) throws(FileError) -> LoadedEdit {
        var embeddedWarnings: [String] = []
        do {
            if let packetBytes = try JPEGSegments.xmpPacket(in: jpeg) {
                let packet = try XMPPacketParser.parse(packetBytes, limits: limits.xmp)
                if packet.hasProperties(inNamespace: AdjustmentNamespace.aas) {
                    return try edit(from: packet, origin: .embedded(imagePath), path: imagePath)
                }
                embeddedWarnings = packet.warnings.map { "embedded XMP: \($0)" }
            }
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(path: imagePath, kind: .invalidContent, problem: "embedded XMP: \(error)")
        }
        let stem = URL(fileURLWithPath: imagePath).deletingPathExtension().path
        for sidecar in [stem + ".xmp", stem + ".XMP"] where FileManager.default.fileExists(atPath: sidecar) {
            let loaded = try load(editFile: sidecar)
            return LoadedEdit(chain: loaded.chain, origin: .sidecar(sidecar), warnings: loaded.warnings)
        }
        return LoadedEdit(chain: EditChain(), origin: .none, warnings: embeddedWarnings)
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

    private enum Container { case jpeg, metadataDump, xmp }

    private static func sniff(_ bytes: [UInt8]) -> Container {
        if bytes.starts(with: [0xFF, 0xD8]) { return .jpeg }
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
