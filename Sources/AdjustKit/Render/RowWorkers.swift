import Dispatch
import Foundation
import Synchronization

/// The threads that run a parallel step's iterations beside its caller (`ParallelRows.forEachPart`),
/// kept for the process, which wait for the next step spinning for a short while before they
/// sleep.
///
/// Why not `DispatchQueue.concurrentPerform` alone: its worker sleeps between a pipeline's chunks
/// and is woken for each, 64 times in a straighten. A few of those wake-ups waited 1–5 ms before
/// the worker ran, while the chunk went on on the caller's core alone: 2–14 ms of a ~60 ms render
/// lost that way (`perf sched` of 8 renders; docs/benchmark.md, twenty-first part). A chunk's
/// next step comes within microseconds of the last, so a worker that spins across the gap needs
/// no wake-up at all.
///
/// One step at a time: a step asked for while another runs (a nested step, or another render's
/// on another thread) goes to `concurrentPerform`, as before.
///
/// Besides steps, a caller can offer a task to whichever worker is idle (`offer`): work worth
/// doing only on a core that would otherwise wait, such as mapping a render's buffers while the
/// caller decodes the rows of its first chunk (`PageWarming`).
final class RowWorkers: Sendable {
    /// The process's workers: one fewer than the cores (the caller is the last).
    static let shared = RowWorkers(workers: ProcessInfo.processInfo.activeProcessorCount - 1)

    /// How long a worker spins for the next step, and a caller for its step's last iterations,
    /// before sleeping: longer than the gap between two chunks, short enough that an idle
    /// process soon stops taking a core. The spin yields the core each time round, so that any
    /// other thread that is ready (a HEIC's decoding threads, another render) runs first.
    private static let spinNanoseconds: UInt64 = 200_000

    private let workers: Int
    /// Bumped for each step; a worker that has run step n waits for n + 1.
    private let generation = Atomic<Int>(0)
    /// The step now running (nil between steps).
    private let current = Locked<Step?>(nil)
    /// Whether a step is running: a second caller meanwhile goes to `concurrentPerform`.
    private let busy = Atomic<Bool>(false)
    private let sleeps: [Sleep]
    private let threadsStarted = Atomic<Bool>(false)
    /// The task offered last and not yet picked up by a worker.
    private let offered = Locked<Offer?>(nil)

    private init(workers: Int) {
        self.workers = max(0, workers)
        sleeps = (0..<self.workers).map { _ in Sleep() }
    }

    /// Runs `body(i)` for every i in 0..<iterations on the workers and the calling thread, the
    /// iterations taken in order as the threads come free, and returns once all have finished.
    func run(iterations: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            guard workers > 0, iterations > 1,
                  busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
                let shared = HandedOver(body)
                DispatchQueue.concurrentPerform(iterations: iterations) { shared.value($0) }
                return
            }
            defer { busy.store(false, ordering: .releasing) }
            start()
            let step = Step(iterations: iterations, body: HandedOver(body))
            current.withLock { $0 = step }
            generation.add(1, ordering: .sequentiallyConsistent)
            for sleep in sleeps { sleep.end() }
            step.work()
            step.waitUntilFinished()
            // A worker that comes late finds no step, or this one with no iteration left.
            current.withLock { $0 = nil }
            step.release()
        }
    }

    /// Starts the workers, if they are not running yet. A pipeline calls this before its first
    /// chunk's rows are decoded: a new thread was queued for up to 4 ms before it first ran
    /// (`perf sched`), which, started by the first chunk, left that chunk's parts to one core.
    /// Started early, the thread has run and gone to sleep by the time the first chunk needs it.
    func start() {
        guard threadsStarted.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        for w in 0..<workers {
            let thread = Thread { [self] in loop(worker: w) }
            thread.name = "adjust-rows-\(w)"
            thread.start()
        }
    }

    /// Offers `task` to the first worker that is idle, and returns at once; the caller goes on
    /// and, before anything the task uses goes away, calls `withdraw()` on the returned offer,
    /// which waits for the task if a worker has started it and otherwise makes sure it never
    /// runs. A step takes precedence: a worker busy with one, or handed one in the meantime,
    /// takes the offer after it. Without workers (one core) the task never runs. One offer is
    /// open at a time: a newer one replaces one that no worker has picked up.
    func offer(_ task: @escaping @Sendable () -> Void) -> Offer {
        let offer = Offer(task)
        guard workers > 0 else { return offer }
        start()
        offered.withLock { $0 = offer }
        generation.add(1, ordering: .sequentiallyConsistent)
        for sleep in sleeps { sleep.end() }
        return offer
    }

    /// A worker's life: wait for the next step, spinning then sleeping; run its iterations, then
    /// the task on offer, if any.
    private func loop(worker w: Int) -> Never {
        var seen = 0
        while true {
            let deadline = Self.now() &+ Self.spinNanoseconds
            while generation.load(ordering: .acquiring) == seen {
                if Self.now() < deadline { sched_yield(); continue }
                sleeps[w].sleep { generation.load(ordering: .sequentiallyConsistent) == seen }
            }
            seen = generation.load(ordering: .acquiring)
            if let step = current.withLock({ $0 }) { step.work() }
            if let offer = offered.withLock({ offer in defer { offer = nil }; return offer }) { offer.runUnlessWithdrawn() }
        }
    }

    /// A task offered to an idle worker (`offer`), run by at most one, or by none once withdrawn.
    final class Offer: Sendable {
        private let task: @Sendable () -> Void
        /// `open` until a worker takes the task or the caller withdraws it; `taken` until it has
        /// finished.
        private let state = Atomic<Int>(Offer.open)
        private static let open = 0, taken = 1, finished = 2, withdrawn = 3
        private let done = DispatchSemaphore(value: 0)

        fileprivate init(_ task: @escaping @Sendable () -> Void) { self.task = task }

        /// Runs the task, unless the caller has withdrawn it (or another worker took it).
        fileprivate func runUnlessWithdrawn() {
            guard state.compareExchange(expected: Offer.open, desired: Offer.taken, ordering: .acquiring).exchanged else { return }
            task()
            state.store(Offer.finished, ordering: .releasing)
            done.signal()
        }

        /// Returns once the task has finished, if a worker took it, and otherwise makes sure it
        /// never runs. Call once.
        func withdraw() {
            let (exchanged, _) = state.compareExchange(expected: Offer.open, desired: Offer.withdrawn, ordering: .acquiringAndReleasing)
            if !exchanged { done.wait() }
        }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// One step: its body, the next iteration to take, and how many have finished.
    private final class Step: Sendable {
        let iterations: Int
        /// The caller's closure while the step runs.
        private let body: Locked<HandedOver<(Int) -> Void>?>
        private let next = Atomic<Int>(0)
        private let finished = Atomic<Int>(0)
        /// The caller asleep waiting for the last iterations; the worker that finishes the last
        /// clears it and signals.
        private let callerSleep = Sleep()

        init(iterations: Int, body: HandedOver<(Int) -> Void>) {
            self.iterations = iterations
            self.body = Locked(body)
        }

        /// Drops the body once every iteration has finished: a worker that comes late may still
        /// hold the step, and the caller's closure must not outlive the call.
        func release() { body.withLock { $0 = nil } }

        /// Takes iterations until none is left.
        func work() {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < iterations else { return }
                run(i)
                if finished.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == iterations { callerSleep.end() }
            }
        }

        /// Iteration i (not yet finished, so the body is there), its copy of the body released
        /// before the iteration counts as finished.
        @inline(never)
        private func run(_ i: Int) { body.withLock { $0 }!.value(i) }

        /// Returns once every iteration has finished (the caller's own included), spinning then
        /// sleeping.
        func waitUntilFinished() {
            let deadline = RowWorkers.now() &+ RowWorkers.spinNanoseconds
            while finished.load(ordering: .acquiring) < iterations {
                if RowWorkers.now() < deadline { sched_yield(); continue }
                callerSleep.sleep { finished.load(ordering: .sequentiallyConsistent) < iterations }
            }
        }
    }

    /// One thread's sleep until another ends it: a flag that says the thread is asleep or about to
    /// be, and a semaphore that whoever clears the flag signals (the sleeper itself, when it finds
    /// it need not sleep after all, or the thread that ends the sleep), so that every signal
    /// meets one wait and no wake-up is lost: the sleeper sets the flag before its last look at
    /// what it waits for, the other changes that before it clears the flag.
    private final class Sleep: Sendable {
        private let asleep = Atomic<Bool>(false)
        private let semaphore = DispatchSemaphore(value: 0)

        /// Sleeps while `stillWaiting()`, as it reads after the flag is set, unless `end` comes.
        func sleep(while stillWaiting: () -> Bool) {
            asleep.store(true, ordering: .sequentiallyConsistent)
            if stillWaiting() {
                semaphore.wait()
            } else if !asleep.exchange(false, ordering: .sequentiallyConsistent) {
                // `end` cleared the flag first: its signal is on its way.
                semaphore.wait()
            }
        }

        /// Wakes the thread if it is asleep, or about to be (call after changing what it waits for).
        func end() {
            if asleep.exchange(false, ordering: .sequentiallyConsistent) { semaphore.signal() }
        }
    }
}

