@testable import AdjustKit
import Foundation
import Synchronization
import XCTest

/// `RowWorkers`, the threads behind `ParallelRows.forEachPart`: every iteration of a step runs
/// exactly once and its writes are seen by the caller when the step returns, whether the workers
/// were spinning (steps back to back), asleep (steps apart) or busy with another step (a nested
/// one, or another thread's, which go to `concurrentPerform`).
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
}
