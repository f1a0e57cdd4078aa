import Synchronization

/// A `Synchronization.Mutex` that ThreadSanitizer can follow: the shared state of the CLI (the
/// batch progress, the fidelity report order, the work queue) and of AdjustKit (a render's first
/// failure among its tasks, SmartTone's knot columns, a folder's name index) lives in one of these.
///
/// Why not the bare `Mutex`: on Linux its uncontended lock and unlock are atomic
/// compare-exchanges inlined into the caller (which TSan sees), but under contention the lock is
/// handed over by the kernel — `syscall(SYS_futex, FUTEX_LOCK_PI / FUTEX_UNLOCK_PI)` in
/// libswiftSynchronization.so's `_lockSlow` / `_unlockSlow`, which TSan neither instruments nor
/// intercepts. Two critical sections that met on that path then look unordered, and TSan reports
/// a data race on the guarded value where there is none. `scripts/tsan-mutex-probe.swift` shows
/// it: 8 threads × 2000 increments under a bare `Mutex` end with the exact count and yet draw
/// TSan reports on every run; with `NSLock` (a pthread mutex, which TSan intercepts), or with
/// this type, none — while an access outside the lock is still reported with this type.
///
/// So, in the ThreadSanitizer build only (`scripts/sanitize` passes `-DTSAN_LOCK_ANNOTATIONS`),
/// each critical section also tells TSan it acquires and releases the mutex
/// (`__tsan_acquire` / `__tsan_release` on its address): the happens-before edge the futex hides.
/// Every other build compiles `withLock` to `Mutex.withLock` itself.
package struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>

    package init(_ initialValue: consuming sending Value) { mutex = Mutex(initialValue) }

    /// `Mutex.withLock`.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if TSAN_LOCK_ANNOTATIONS
        // The mutex's address names it; taken outside the critical section, since an access to
        // the guarded value before the acquire would itself look unordered.
        let address = withUnsafePointer(to: mutex) { UnsafeRawPointer($0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            tsanAcquire(address)
            defer { tsanRelease(address) }
            return try body(&value)
        }
        #else
        return try mutex.withLock(body)
        #endif
    }
}

#if TSAN_LOCK_ANNOTATIONS
// The TSan runtime's annotation entry points (compiler-rt tsan_interface.h), linked in by
// -sanitize=thread.
@_silgen_name("__tsan_acquire") private func tsanAcquire(_ address: UnsafeRawPointer)
@_silgen_name("__tsan_release") private func tsanRelease(_ address: UnsafeRawPointer)
#endif
