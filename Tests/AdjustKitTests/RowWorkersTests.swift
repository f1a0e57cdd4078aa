@testable import AdjustKit
import Foundation
import Synchronization
import XCTest

/// `RowWorkers`, the threads behind `ParallelRows.forEachPart`: every iteration of a step runs
/// exactly once and its writes are seen by the caller when the step returns, whether the workers
/// were spinning (steps back to back), asleep (steps apart) or busy with another step (a nested
/// one, or another thread's, which go to `concurrentPerform`); and a task offered to an idle
/// worker (`offer`) runs at most once, on another thread, and never after it is withdrawn.
final class RowWorkersTests: XCTestCase {
    /// Runs one step of `count` iterations, each adding one to its own slot; returns the slots.
    private static func step(_ count: Int) -> [Int] {
        var slots = [Int](repeating: 0, count: count)
        slots.withUnsafeMutableBufferPointer { slots in
            let base = HandedOver(slots.baseAddress!)
            RowWorkers.shared.run(iterations: count) { i in base.value[i] += 1 }
        }
        return slots
    }

    func testEveryIterationRunsOnceInStepsBackToBack() {
        for count in [0, 1, 2, 3, 10, 97, 1000] {
            for round in 0..<200 {
                XCTAssertEqual(Self.step(count), [Int](repeating: 1, count: count), "\(count) iterations, round \(round)")
            }
        }
    }

    /// Steps far enough apart (1 ms, past the 0.2 ms the workers spin) that the workers are asleep
    /// when each comes: the step's caller wakes them, and none is lost.
    func testEveryIterationRunsOnceInStepsApart() {
        for round in 0..<40 {
            usleep(1000)
            XCTAssertEqual(Self.step(16), [Int](repeating: 1, count: 16), "round \(round)")
        }
    }

    /// An iteration that outlasts the caller's spin: the caller sleeps, and the iteration's end
    /// wakes it.
    func testTheCallerWaitsForALongIteration() {
        let finished = Atomic<Int>(0)
        RowWorkers.shared.run(iterations: 2) { i in
            if i == 1 { usleep(5000) }
            finished.add(1, ordering: .relaxed)
        }
        XCTAssertEqual(finished.load(ordering: .relaxed), 2)
    }

    func testANestedStepRunsEveryIteration() {
        var slots = [Int](repeating: 0, count: 8 * 8)
        slots.withUnsafeMutableBufferPointer { slots in
            let base = HandedOver(slots.baseAddress!)
            RowWorkers.shared.run(iterations: 8) { i in
                RowWorkers.shared.run(iterations: 8) { j in base.value[i * 8 + j] += 1 }
            }
        }
        XCTAssertEqual(slots, [Int](repeating: 1, count: 64))
    }

    /// Four threads asking for steps at once: one at a time gets the workers, the others
    /// `concurrentPerform`; every step still runs each iteration once.
    func testStepsFromSeveralThreadsAtOnce() {
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<100 where Self.step(33) != [Int](repeating: 1, count: 33) {
                failures.add(1, ordering: .relaxed)
            }
        }
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
    }

    // MARK: offers

    /// An offer wakes a sleeping worker, which runs it on its own thread while the caller goes on;
    /// `withdraw` then waits for it to finish.
    func testAnOfferRunsOnAWorkerAndWithdrawWaitsForIt() throws {
        guard ChunkedRowPipeline.workers > 1 else { throw XCTSkip("one core: no worker to offer to") }
        for round in 0..<20 {
            usleep(1000)   // past the workers' spin: they are asleep
            let started = DispatchSemaphore(value: 0)
            let ranOn = Locked<pthread_t?>(nil)
            let finished = Atomic<Int>(0)
            let offer = RowWorkers.shared.offer {
                ranOn.withLock { $0 = pthread_self() }
                started.signal()
                usleep(5000)
                finished.add(1, ordering: .releasing)
            }
            XCTAssertEqual(started.wait(timeout: .now() + 5), .success, "round \(round): no worker took the offer")
            offer.withdraw()
            XCTAssertEqual(finished.load(ordering: .acquiring), 1, "round \(round): withdraw returned before the task finished")
            let thread = try XCTUnwrap(ranOn.withLock { $0 })
            XCTAssertEqual(pthread_equal(thread, pthread_self()), 0, "round \(round): the offer ran on the caller's thread")
        }
    }

    /// An offer withdrawn before any worker is free never runs: the worker is held by a step's
    /// long iteration (on another thread) while the offer is made and withdrawn, and picks the
    /// offer up only after.
    func testAWithdrawnOfferNeverRuns() throws {
        guard ChunkedRowPipeline.workers > 1 else { throw XCTSkip("one core: no worker to offer to") }
        for round in 0..<10 {
            let inStep = DispatchSemaphore(value: 0)
            let ran = Atomic<Int>(0)
            let stepDone = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                // Every thread of the step, the caller's and each worker's, sleeps in its iteration.
                RowWorkers.shared.run(iterations: ChunkedRowPipeline.workers) { _ in
                    inStep.signal()
                    usleep(30_000)
                }
                stepDone.signal()
            }
            for _ in 0..<ChunkedRowPipeline.workers { inStep.wait() }
            let offer = RowWorkers.shared.offer { ran.add(1, ordering: .relaxed) }
            offer.withdraw()
            stepDone.wait()
            usleep(5000)   // time for the workers to look at the (withdrawn) offer
            XCTAssertEqual(ran.load(ordering: .relaxed), 0, "round \(round): a withdrawn offer ran")
        }
    }

    /// Steps made while an offer runs still run every iteration once (the worker joins them
    /// after the offer, or the caller takes them all).
    func testStepsRunBesideALongOffer() {
        let offer = RowWorkers.shared.offer { usleep(10_000) }
        for round in 0..<50 {
            XCTAssertEqual(Self.step(24), [Int](repeating: 1, count: 24), "round \(round)")
        }
        offer.withdraw()
    }
}
