import AdjustKit

/// Hands out the indices 0..<count, each once, to whichever worker asks (`batch` and `fidelity`
/// workers).
final class WorkQueue: Sendable {
    private let position = Locked(0)
    private let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
        position.withLock { position in
            guard position < count else { return nil }
            position += 1
            return position - 1
        }
    }
}
