import ArgumentParser

/// `--shard K/N`: this process takes the inputs whose path relative to their input root hashes
/// to K - 1 modulo N. The hash is FNV-1a 64 of the path's UTF-8 bytes, not Swift's `Hasher`
/// (seeded anew in every process), so every machine and every run draws the same partition, and N
/// workers started by any job-array engine cover the inputs exactly once.
struct BatchShard: ExpressibleByArgument, Equatable, Sendable {
    /// 1…count.
    var index: Int
    var count: Int

    static let whole = BatchShard(index: 1, count: 1)

    init(index: Int, count: Int) { (self.index, self.count) = (index, count) }

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              count >= 1, (1...count).contains(index) else { return nil }
        self.init(index: index, count: count)
    }

    var defaultValueDescription: String { "\(index)/\(count)" }

    /// Whether the input with this key (its path relative to its input root) is this shard's.
    func owns(_ key: String) -> Bool {
        count == 1 || Int(Self.fnv1a64(key) % UInt64(count)) == index - 1
    }

    /// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a few lines, stable
    /// by definition, so hand-written rather than a dependency.
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

extension BatchItem {
    /// What the shard partition hashes: the path under the input root; an input that could not
    /// be opened (no root) by the path given.
    var shardKey: String { relative.isEmpty ? input : relative }
}
