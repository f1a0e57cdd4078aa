import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM during `batch`: the first stops handing out photos — those being written
/// finish, each atomically — so that the run ends with its summary and the hint to resume with
/// `--update`; a second one removes the temporary files of the photos still being written and
/// exits at once. Nothing partial is ever left under an output's name (AtomicFileWriter).
final class BatchInterruption: Sendable {
    /// The signal received first, or 0.
    private let received = Atomic<Int32>(0)

    var signal: Int32 { received.load(ordering: .acquiring) }
    var isInterrupted: Bool { signal != 0 }

    /// Starts listening; `first` runs on the first signal, `second` (which should exit) on another.
    /// The caller keeps the returned sources for the run: a dispatch source stops when released.
    func install(first: @escaping @Sendable (Int32) -> Void,
                 second: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            Glibc.signal(number, SIG_IGN)   // delivered to the source instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let (exchanged, _) = self.received.compareExchange(expected: 0, desired: number,
                                                                   ordering: .acquiringAndReleasing)
                if exchanged { first(number) } else { second(number) }
            }
            source.resume()
            return source
        }
    }

    /// The conventional exit status of a process stopped by `signal`: 128 + its number.
    static func exitStatus(_ signal: Int32) -> Int32 { 128 + signal }
}
