import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The colour chain evaluated exactly, once per distinct 8-bit input colour, and remembered: what
/// makes the colour steps almost free without approximating them. A photo has far fewer distinct
/// colours than pixels (31 389 in the 4.3 MP crop of the 12 MP benchmark photo), and the kernels
/// cost up to ~0.4 µs each (the shadow curve alone takes a dozen `powf`).
///
/// Why not a 3-D lookup table: a 33³ tetrahedral table was tried and is off by up to 10 codes
/// next to the filters' kinks (vibrance's saturation and skin weights are max/min of expressions
/// whose planes the grid cannot follow). The memo is exact by construction.
///
/// Storage: `ColourCells`, one 32-bit cell per possible colour holding 0 (not computed) or 1 + the
/// position of the colour's value in a dense array of values in order of discovery: about 2.3 MB
/// of cells and 0.5 MB of values for the benchmark photo's crop, against 256 MB if every colour
/// had its 16-byte value.
///
/// One memo serves every worker thread (each colour is then computed once, not once a thread,
/// and its memory is held once): a value is written before its cell is published with release
/// ordering, and a cell is read with acquire ordering. Two threads meeting a new colour at the
/// same moment may both compute it; the values are equal and either cell store is right.
final class ColourMemo<Value> {
    private let table: ColourCells
    private let values: UnsafeMutablePointer<Value>
    private let count: UnsafeMutablePointer<Atomic<Int>>
    let compute: (UInt8, UInt8, UInt8) -> Value

    /// Raw access for hot loops (a method call per pixel on the class, or a copy of a closure,
    /// would cost a retain and a release). Valid while the memo lives.
    var cells: Cells { Cells(table: table, values: values, count: count, memo: self) }

    struct Cells {
        fileprivate let table: ColourCells
        fileprivate let values: UnsafeMutablePointer<Value>
        fileprivate let count: UnsafeMutablePointer<Atomic<Int>>
        /// Not counted: copying `Cells` in a pixel loop must cost nothing (the memo outlives it).
        fileprivate unowned(unsafe) let memo: ColourMemo<Value>

        /// The value for (r, g, b), computed on first use.
        @inline(__always)
        func value(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Value {
            let cell = table.cell(r, g, b)
            var number = cell.pointee.load(ordering: .acquiring)
            if number == 0 {
                let index = count.pointee.wrappingAdd(1, ordering: .relaxed).oldValue
                // Only colours computed twice by racing threads can run past the room for one
                // value per colour; past the slack, the value is computed and not kept.
                guard index < ColourMemo.capacity else { return memo.compute(r, g, b) }
                // Written before it is ever read: no page of `values` starts as the zero page.
                (values + index).initialize(to: memo.compute(r, g, b))
                number = UInt32(index + 1)
                cell.pointee.store(number, ordering: .releasing)
            }
            return values[Int(number) - 1]
        }
    }

    init(compute: @escaping (UInt8, UInt8, UInt8) -> Value) {
        table = ColourCells()
        // Address space only: pages become memory as values are appended.
        values = .allocate(capacity: Self.capacity)
        count = .allocate(capacity: 1)
        count.initialize(to: Atomic(0))
        self.compute = compute
    }

    /// A value for every colour, and slack for colours computed twice by racing threads.
    fileprivate static var capacity: Int { 1 << 24 + 1 << 20 }

    deinit {
        values.deinitialize(count: min(computed, Self.capacity))
        values.deallocate()
        count.deinitialize(count: 1)
        count.deallocate()
        table.deallocate()
    }

    /// Values computed so far (a colour computed by two threads at once counts twice).
    var computed: Int { count.pointee.load(ordering: .relaxed) }
}

/// `ColourMemo` for 8-bit results: the packed colour 0x01RRGGBB sits in the cell itself (the
/// 0x01 marks it computed), one load per pixel instead of two — this runs once per output pixel
/// of a pixel-copy render. Shared by the worker threads as `ColourMemo` is.
final class PackedColourMemo {
    private let table: ColourCells
    let compute: (UInt8, UInt8, UInt8) -> (UInt8, UInt8, UInt8)

    var cells: Cells { Cells(table: table, memo: self) }

    struct Cells {
        fileprivate let table: ColourCells
        fileprivate unowned(unsafe) let memo: PackedColourMemo

        @inline(__always)
        func value(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (UInt8, UInt8, UInt8) {
            let cell = table.cell(r, g, b)
            var v = cell.pointee.load(ordering: .relaxed)
            if v == 0 {
                let (r, g, b) = memo.compute(r, g, b)
                v = 1 << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                cell.pointee.store(v, ordering: .relaxed)
            }
            return (UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v))
        }
    }

    init(compute: @escaping (UInt8, UInt8, UInt8) -> (UInt8, UInt8, UInt8)) {
        table = ColourCells()
        self.compute = compute
    }

    deinit { table.deallocate() }
}

/// One zero-initialized 32-bit atomic cell per 8-bit RGB colour (2²⁴), stored only for the 8×8×8
/// blocks of colours in use, so that nearby colours share pages and memory follows the photo's
/// colours. Safe to use from several threads at once.
///
/// Why two levels rather than one `calloc`ed 64 MB table: a lookup reads its cell before it may
/// write it, and reading an untouched page maps the shared zero page; the first write then has to
/// replace that mapping, which with the renderer's threads on several cores means a TLB shootdown
/// (an interrupt to every core; in a VM, an exit each): ~4 % of the CPU profile of a
/// `--max-size` Enhance render. Here every block is zeroed by a write when it is first needed.
struct ColourCells {
    /// 1 + the block's number in `blocks` for each of the 32 768 blocks; 0 before first use,
    /// `claimed` while a thread is zeroing it.
    private let blockNumbers: UnsafeMutablePointer<Atomic<UInt32>>
    /// Room for every block; blocks are handed out in order of first use.
    private let blocks: UnsafeMutablePointer<Atomic<UInt32>>
    private let blocksInUse: UnsafeMutablePointer<Atomic<Int>>
    private static let blockCount = 1 << 15, cellsPerBlock = 1 << 9
    private static let claimed = UInt32.max
    /// Loads of a claimed block's number before each further wait yields the core: ~1 µs of
    /// spinning, a few times the zeroing's own time.
    private static let spinsBeforeYield = 256

    init() {
        blockNumbers = .allocate(capacity: Self.blockCount)
        for i in 0..<Self.blockCount { (blockNumbers + i).initialize(to: Atomic(0)) }
        blocks = .allocate(capacity: Self.blockCount * Self.cellsPerBlock)
        blocksInUse = .allocate(capacity: 1)
        blocksInUse.initialize(to: Atomic(0))
    }

    func deallocate() {
        // Atomics of integers need no deinitialization.
        blockNumbers.deallocate(); blocks.deallocate(); blocksInUse.deallocate()
    }

    /// The cell of (r, g, b).
    @inline(__always)
    func cell(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UnsafeMutablePointer<Atomic<UInt32>> {
        let (block, offset) = Self.position(r, g, b)
        var number = blockNumbers[block].load(ordering: .acquiring)
        if number == 0 || number == Self.claimed { number = startBlock(block) }
        return blocks + (Int(number) - 1) * Self.cellsPerBlock + offset
    }

    /// Gives `block` its storage, zeroed, or waits for the thread that is doing so.
    private func startBlock(_ block: Int) -> UInt32 {
        let entry = blockNumbers + block
        if entry.pointee.compareExchange(expected: 0, desired: Self.claimed, ordering: .acquiring).exchanged {
            let number = blocksInUse.pointee.wrappingAdd(1, ordering: .relaxed).newValue
            let cells = blocks + (number - 1) * Self.cellsPerBlock
            for i in 0..<Self.cellsPerBlock { (cells + i).initialize(to: Atomic(0)) }
            entry.pointee.store(UInt32(number), ordering: .releasing)
            return UInt32(number)
        }
        // Another thread zeroes 2 KB: a few hundred nanoseconds, so spin briefly first. Past the
        // bound the zeroing thread has most likely been descheduled (more threads than cores, or a
        // busy machine), and spinning on would only keep it off the core: yield the core instead.
        var spins = 0
        while true {
            let number = entry.pointee.load(ordering: .acquiring)
            if number != Self.claimed { return number }
            spins += 1
            if spins >= Self.spinsBeforeYield { sched_yield() }
        }
    }

    /// The colour's block (its top five bits per channel) and its cell within the block (the low three).
    @inline(__always)
    static func position(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (block: Int, offset: Int) {
        let (r, g, b) = (Int(r), Int(g), Int(b))
        return ((r >> 3) << 10 | (g >> 3) << 5 | (b >> 3), (r & 7) << 6 | (g & 7) << 3 | (b & 7))
    }
}

extension ColourProgram {
    /// Every colour step, stored-frame and output-frame, from an 8-bit source colour to the 8-bit
    /// output colour: what a pixel-copy geometry (weights exactly 0 and 1) needs. nil for a chain
    /// without colour kernels. Same arithmetic as the reference pipeline.
    func wholeChainMemo() -> PackedColourMemo? {
        guard !storedFrame.isEmpty || !outputFrame.isEmpty else { return nil }
        let (stored, output, space, table) = (storedFrame, outputFrame, space, space.fromByte)
        return PackedColourMemo { r, g, b in
            var (wr, wg, wb) = (table[Int(r)], table[Int(g)], table[Int(b)])
            for kernel in stored { kernel.apply(&wr, &wg, &wb) }
            for kernel in output { kernel.apply(&wr, &wg, &wb) }
            return (space.byte(wr), space.byte(wg), space.byte(wb))
        }
    }

    /// The stored-frame kernels from an 8-bit colour to working-space values; nil when there are
    /// none.
    func storedFrameMemo() -> ColourMemo<SIMD3<Float>>? {
        guard !storedFrame.isEmpty else { return nil }
        let (stored, table) = (storedFrame, space.fromByte)
        return ColourMemo { r, g, b in
            var (wr, wg, wb) = (table[Int(r)], table[Int(g)], table[Int(b)])
            for kernel in stored { kernel.apply(&wr, &wg, &wb) }
            return SIMD3(wr, wg, wb)
        }
    }
}
