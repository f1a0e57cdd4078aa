import Foundation

/// The colour chain evaluated exactly, once per distinct 8-bit input colour, and remembered: what
/// makes the colour steps almost free without approximating them. A photo has far fewer distinct
/// colours than pixels (31 389 in the 4.3 MP crop of the 12 MP benchmark photo), and the kernels
/// cost up to ~0.4 µs each (the shadow curve alone takes a dozen `powf`).
///
/// Why not a 3-D lookup table: a 33³ tetrahedral table was tried and is off by up to 10 codes
/// next to the filters' kinks (vibrance's saturation and skin weights are max/min of expressions
/// whose planes the grid cannot follow). The memo is exact by construction.
///
/// Storage: a table of one 32-bit cell per possible colour (2²⁴), laid out in 8×8×8 blocks so
/// that nearby colours share pages, holding 0 (not computed) or 1 + the position of the colour's
/// value in a dense array of values in order of discovery. Both are `calloc`ed, so only the pages
/// actually touched become memory: about 2.3 MB of table and 0.5 MB of values for the benchmark
/// photo's crop, against 8 MB if every cell held its 16-byte value.
final class ColourMemo<Value>: @unchecked Sendable {
    private let table: UnsafeMutablePointer<UInt32>
    private let values: UnsafeMutablePointer<Value>
    private let count: UnsafeMutablePointer<Int>
    let compute: (UInt8, UInt8, UInt8) -> Value

    /// Raw access for hot loops (a method call per pixel on the class, or a copy of a closure,
    /// would cost a retain and a release). Valid while the memo lives; one thread at a time.
    var cells: Cells { Cells(table: table, values: values, count: count, memo: self) }

    struct Cells {
        fileprivate let table: UnsafeMutablePointer<UInt32>
        fileprivate let values: UnsafeMutablePointer<Value>
        fileprivate let count: UnsafeMutablePointer<Int>
        /// Not counted: copying `Cells` in a pixel loop must cost nothing (the memo outlives it).
        fileprivate unowned(unsafe) let memo: ColourMemo<Value>

        /// The value for (r, g, b), computed on first use.
        @inline(__always)
        func value(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Value {
            let cell = table + ColourMemo.index(r, g, b)
            if cell.pointee == 0 {
                values[count.pointee] = memo.compute(r, g, b)
                count.pointee += 1
                cell.pointee = UInt32(count.pointee)
            }
            return values[Int(cell.pointee) - 1]
        }
    }

    init(compute: @escaping (UInt8, UInt8, UInt8) -> Value) {
        guard let table = calloc(1 << 24, MemoryLayout<UInt32>.stride),
              let values = calloc(1 << 24, MemoryLayout<Value>.stride) else { fatalError("out of memory for the colour memo") }
        self.table = table.bindMemory(to: UInt32.self, capacity: 1 << 24)
        self.values = values.bindMemory(to: Value.self, capacity: 1 << 24)
        count = .allocate(capacity: 1)
        count.initialize(to: 0)
        self.compute = compute
    }

    deinit {
        free(table); free(values); count.deallocate()
    }

    /// Distinct colours computed so far.
    var computed: Int { cells.count.pointee }

    /// A colour's cell: 8×8×8 blocks of (r, g, b).
    @inline(__always)
    static func index(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let (r, g, b) = (Int(r), Int(g), Int(b))
        return (r >> 3) << 19 | (g >> 3) << 14 | (b >> 3) << 9 | (r & 7) << 6 | (g & 7) << 3 | (b & 7)
    }
}

/// `ColourMemo` for 8-bit results: the packed colour 0x01RRGGBB sits in the cell itself (the
/// 0x01 marks it computed), one load per pixel instead of two — this runs once per output pixel
/// of a pixel-copy render.
final class PackedColourMemo: @unchecked Sendable {
    private let table: UnsafeMutablePointer<UInt32>
    let compute: (UInt8, UInt8, UInt8) -> (UInt8, UInt8, UInt8)

    var cells: Cells { Cells(table: table, memo: self) }

    struct Cells {
        fileprivate let table: UnsafeMutablePointer<UInt32>
        fileprivate unowned(unsafe) let memo: PackedColourMemo

        @inline(__always)
        func value(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (UInt8, UInt8, UInt8) {
            let cell = table + ColourMemo<UInt32>.index(r, g, b)
            if cell.pointee == 0 {
                let (r, g, b) = memo.compute(r, g, b)
                cell.pointee = 1 << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            }
            let v = cell.pointee
            return (UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v))
        }
    }

    init(compute: @escaping (UInt8, UInt8, UInt8) -> (UInt8, UInt8, UInt8)) {
        guard let table = calloc(1 << 24, MemoryLayout<UInt32>.stride) else { fatalError("out of memory for the colour memo") }
        self.table = table.bindMemory(to: UInt32.self, capacity: 1 << 24)
        self.compute = compute
    }

    deinit { free(table) }
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
