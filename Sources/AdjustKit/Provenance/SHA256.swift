import Crypto
import Foundation

/// SHA-256 for the digests `Provenance` records of originals, edit files and colour tables:
/// swift-crypto's (`Crypto.SHA256`, BoringSSL's implementation on Linux) behind the small API the
/// project uses — incremental updates, a file read 1 MiB at a time, lowercase hex.
/// `SHA256Tests` checks it against the NIST example vectors and against `sha256sum` on real files.
package struct SHA256 {
    private var hasher = Crypto.SHA256()

    package init() {}

    /// Feeds `bytes`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// Feeds `bytes`.
    package mutating func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed.
    package func finish() -> [UInt8] { Array(hasher.finalize()) }

    /// The digest of `bytes`, in lowercase hexadecimal.
    package static func hex<Bytes: ContiguousBytes>(of bytes: Bytes) -> String {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finish().hexString
    }

    /// The digest of the file at `path`, read 1 MiB at a time (never whole), in lowercase hexadecimal.
    package static func hex(ofFileAt path: String) throws(FileError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileError(path: path, kind: .unreadable, problem: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var hash = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { chunk.deallocate() }
        while true {
            let got = read(fd, chunk.baseAddress!, chunk.count)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                throw FileError(path: path, kind: .unreadable, problem: "cannot read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            hash.update(UnsafeRawBufferPointer(rebasing: chunk[0..<got]))
        }
        return hash.finish().hexString
    }
}

extension [UInt8] {
    /// Lowercase hexadecimal, two digits a byte.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
