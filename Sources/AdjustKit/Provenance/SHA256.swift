import Foundation

/// SHA-256 (FIPS 180-4), for the digests `Provenance` records of originals, edit files and
/// colour tables.
///
/// Hand-written rather than taken from a library: the allowed set's one digest library,
/// swift-crypto, builds BoringSSL from source, which takes about 14 minutes on the project's
/// 2-core machines (longer than the whole rest of the package), and none of the system libraries
/// already linked (libxml2, libjpeg-turbo, libexif, libpng, zlib, Little CMS, libheif) exports a
/// digest. The algorithm is small and fixed; `SHA256Tests` checks it against the NIST example
/// vectors and against `sha256sum` on real files.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// Bytes of an unfinished block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    package init() { pending.reserveCapacity(64) }

    /// Feeds `bytes`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending += bytes[0..<take]
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress(blocksAt: $0.baseAddress!, count: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - offset) / 64
        if whole > 0 { compress(blocksAt: bytes.baseAddress! + offset, count: whole) }
        offset += whole * 64
        if offset < bytes.count { pending += bytes[offset...] }
    }

    package mutating func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest (padding and length appended to a copy; `self` can take more input).
    package func finish() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80] + [UInt8](repeating: 0, count: (119 - pending.count) % 64)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        copy.length = 0
        copy.update(tail)
        let words = [copy.state.0, copy.state.1, copy.state.2, copy.state.3,
                     copy.state.4, copy.state.5, copy.state.6, copy.state.7]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// The digest of `bytes` in lowercase hexadecimal.
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

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// FIPS 180-4 §6.2.2 on `count` 64-byte blocks.
    private mutating func compress(blocksAt base: UnsafeRawPointer, count: Int) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        Self.roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for block in 0..<count {
                    let bytes = base + block * 64
                    for t in 0..<16 { w[t] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self)) }
                    for t in 16..<64 {
                        let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
                        let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
                        let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
                    }
                    (h0, h1, h2, h3) = (h0 &+ a, h1 &+ b, h2 &+ c, h3 &+ d)
                    (h4, h5, h6, h7) = (h4 &+ e, h5 &+ f, h6 &+ g, h7 &+ h)
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }
}

private extension UInt32 {
    @inline(__always) func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}

extension [UInt8] {
    /// Lowercase hexadecimal, two digits a byte.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
