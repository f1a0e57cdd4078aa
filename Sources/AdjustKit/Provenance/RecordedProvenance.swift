import Foundation
import XMPParse

/// What an existing output file says about how it was made (`Provenance.recorded(inOutputAt:)`).
package enum RecordedProvenance: Sendable, Equatable {
    /// A whole JPEG or PNG carrying a provenance.
    case recorded(Provenance)
    /// A JPEG or PNG without a (complete) provenance: not written by `adjust batch`, or by a
    /// version before provenance.
    case none
    /// Not a whole JPEG or PNG: truncated (it does not end with EOI/IEND) or not an image.
    case incomplete
    /// The file cannot be read.
    case unreadable(String)
}

extension Provenance {
    /// How much of an output is read for its XMP: the JFIF APP0, EXIF and XMP segments (or IHDR
    /// and the iTXt chunk) that come first fit easily.
    private static let headReadBytes = 512 << 10

    /// Reads the provenance an output records — in its sidecar (`ProvenanceSidecar`) when it has
    /// one, else in its own XMP — after checking that the output is whole: its first 512 KiB (all
    /// of it if the header runs further) and its last bytes (a whole JPEG ends with EOI, a whole
    /// PNG with IEND).
    package static func recorded(inOutputAt path: String) -> RecordedProvenance {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        let size = Int(status.st_size)
        guard size >= 16, let tail = readBytes(fd, count: 12, at: size - 12) else { return .incomplete }
        guard var head = readBytes(fd, count: min(size, headReadBytes), at: 0) else {
            return .unreadable(String(cString: strerror(errno)))
        }
        let packet: [UInt8]?
        if head.starts(with: [0xFF, 0xD8]) {
            guard tail[10] == 0xFF, tail[11] == 0xD9 else { return .incomplete }
            var found = try? JPEGSegments.xmpPacket(in: head)
            if found == nil, head.count < size, let whole = readBytes(fd, count: size, at: 0) {
                head = whole
                found = try? JPEGSegments.xmpPacket(in: head)
            }
            packet = found ?? nil
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard Array(tail[4..<8]) == Array("IEND".utf8) else { return .incomplete }
            packet = PNGXMPChunk.packet(in: head)
        } else if let sidecar = ProvenanceSidecar.recorded(forOutput: path) {
            // A HEIC, a video or another picture is only ever a byte copy, written to a temporary
            // file and renamed into place whole (`AtomicFileWriter`): its record is beside it.
            return .recorded(sidecar)
        } else {
            return .incomplete
        }
        // An output that records nothing itself (a copy, --strip-metadata) has its record beside it.
        if let sidecar = ProvenanceSidecar.recorded(forOutput: path) { return .recorded(sidecar) }
        guard let packet, let parsed = try? XMPPacketParser.parse(packet), let provenance = Provenance(packet: parsed) else {
            return .none
        }
        return .recorded(provenance)
    }

    private static func readBytes(_ fd: Int32, count: Int, at offset: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let got = pread(fd, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { failed = got < 0; break }
                initialized += got
            }
        }
        return failed || bytes.count < count ? nil : bytes
    }
}
