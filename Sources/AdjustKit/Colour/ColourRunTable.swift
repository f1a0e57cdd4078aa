import Foundation
import Synchronization

/// A tabulated run's table (`TabulatedColourRun`), built on first use by every thread that needs it
/// meanwhile, together, and read by every thread after (the render's workers share the program).
///
/// Why together: the table is built when a chunk first reaches the run, and both workers reach it
/// at once. Built by the first while the second slept on a lock, it held that worker for the
/// whole build, 9–15 ms of a Tone + Color + B&W render's 160 (`perf probe` on the build;
/// docs/benchmark.md, twenty-fourth part). Now the build is cut into planes (`TablePieces`) that
/// each thread takes in turn: first the planes of nodes, then the planes of cells each checked
/// against the nodes on its two sides, so the second waits at most for the last node plane.
///
/// Why not a `Locked` table read under its lock: taking a lock for every chunk of 256 pixels, two
/// workers contended for it (measured slower than the exact run); the entries are written once,
/// so they are published through an `Atomic` (release on the store, acquire on the load), and
/// the lock is taken only while none is published.
final class ColourRunTable: Sendable {
    /// The entries: `Float` greys where every node's result is grey, else (r, g, b, 0) `Lanes`.
    struct Entries {
        let grey: Bool
        let values: UnsafeMutableRawPointer
    }

    /// The entries' address, its lowest bit set for greys (the allocation is 16-byte aligned); 0
    /// until built.
    private let published = Atomic<UInt>(0)
    /// The build under way, made by the first thread that finds no entries.
    private let build = Locked<Build?>(nil)

    /// The entries, built from `pieces` on first use (by this thread and any other that asks
    /// meanwhile).
    func entries(_ pieces: () -> any TablePieces) -> Entries {
        var bits = published.load(ordering: .acquiring)
        if bits == 0 {
            let job = build.withLock { job in
                if job == nil, published.load(ordering: .acquiring) == 0 { job = Build(pieces()) }
                return job
            }
            if let job, let built = job.work() {
                bits = UInt(bitPattern: built.values) | (built.grey ? 1 : 0)
                published.store(bits, ordering: .releasing)
                build.withLock { $0 = nil }
            }
            // Another thread finishes the last piece: at most a plane and the packing away.
            while bits == 0 {
                sched_yield()
                bits = published.load(ordering: .acquiring)
            }
        }
        return Entries(grey: bits & 1 == 1, values: UnsafeMutableRawPointer(bitPattern: bits & ~1)!)
    }

    deinit {
        let bits = published.load(ordering: .acquiring)
        if bits != 0 { UnsafeMutableRawPointer(bitPattern: bits & ~1)!.deallocate() }
    }

    /// The pieces of one build, taken in order by the threads that work on it: node planes
    /// 0 ..< n, then cell planes 0 ..< n − 1, each of which reads node planes i and i + 1.
    private final class Build: Sendable {
        private let pieces: any TablePieces
        private let next = Atomic<Int>(0)
        private let state: Locked<State>

        private struct State {
            /// Every node's stored value, plane after plane, as the node pieces write them.
            var values: [Lanes]
            var nodePlanesDone = 0, cellPlanesDone = 0
            var grey = true
            /// The first corners of the cells the checks marked.
            var marked: [Int] = []
        }

        init(_ pieces: any TablePieces) {
            self.pieces = pieces
            let n = pieces.nodesPerAxis
            state = Locked(State(values: [Lanes](repeating: Lanes(), count: n * n * n)))
        }

        /// Takes pieces until none is left; returns the entries if this thread finished the last one.
        func work() -> Entries? {
            let n = pieces.nodesPerAxis, plane = n * n
            while true {
                let piece = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if piece >= 2 * n - 1 { return nil }
                if piece < n {
                    let (values, grey) = pieces.nodes(plane: piece)
                    state.withLock { state in
                        state.values.replaceSubrange((piece * plane)..<((piece + 1) * plane), with: values)
                        state.grey = state.grey && grey
                        state.nodePlanesDone += 1
                    }
                    continue
                }
                // Node pieces are all taken before any cell piece: at most the last few are still
                // being computed by another thread.
                var values: [Lanes]? = nil
                while values == nil {
                    values = state.withLock { $0.nodePlanesDone == n ? $0.values : nil }
                    if values == nil { sched_yield() }
                }
                let marked = values!.withUnsafeBufferPointer { pieces.marked(cellPlane: piece - n, nodes: $0.baseAddress!) }
                values = nil   // before the count, so the last piece's thread holds the only reference
                let last = state.withLock { state in
                    state.marked += marked
                    state.cellPlanesDone += 1
                    return state.cellPlanesDone == n - 1
                }
                if last { return entries() }
            }
        }

        /// The marked cells' first corners made NaN (after every check, which reads the corners
        /// as computed), then packed: one `Float` a node where every node is grey.
        private func entries() -> Entries {
            let (values, grey) = state.withLock { state in
                var values: [Lanes] = []
                swap(&values, &state.values)   // the build's copy goes with the packing
                for first in state.marked { values[first] = Lanes(repeating: .nan) }
                return (values, state.grey)
            }
            let raw = UnsafeMutableRawPointer.allocate(byteCount: values.count * (grey ? 4 : 16), alignment: 16)
            if grey {
                let t = raw.bindMemory(to: Float.self, capacity: values.count)
                for i in values.indices { t[i] = values[i][0] }
            } else {
                let t = raw.bindMemory(to: Lanes.self, capacity: values.count)
                values.withUnsafeBufferPointer { t.initialize(from: $0.baseAddress!, count: values.count) }
            }
            return Entries(grey: grey, values: raw)
        }
    }
}

/// A table's build as pieces any thread can take (`ColourRunTable`).
protocol TablePieces: Sendable {
    /// Nodes an axis, n: the table holds n³, plane i (its nodes' first coordinate i) at i·n².
    var nodesPerAxis: Int { get }
    /// Node plane `plane`'s n² stored values, in table order, and whether every node's result is grey.
    func nodes(plane: Int) -> (values: [Lanes], grey: Bool)
    /// The first corners (table indices) of the cells of `cellPlane` (between node planes
    /// `cellPlane` and `cellPlane + 1`) whose reading is too far off, with every node's value at
    /// `nodes`.
    func marked(cellPlane: Int, nodes: UnsafePointer<Lanes>) -> [Int]
}
