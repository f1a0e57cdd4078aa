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
/// Storage is one slot per possible colour (2²⁴), allocated with `calloc` so that only the pages
/// of colours actually met become memory; slots are laid out in 8×8×8 blocks so that nearby
/// colours share pages (a few MB for a real photo).
final class ColourMemo<Slot>: @unchecked Sendable {
    /// One slot per colour, at `index(r, g, b)`; all zero until computed. Hot loops read it
    /// directly (a method call per pixel costs a retain and a release of the memo).
    let slots: UnsafeMutablePointer<Slot>
    let compute: (UInt8, UInt8, UInt8) -> Slot

    /// `compute` must never return the all-zero slot, which marks "not computed yet".
    init(compute: @escaping (UInt8, UInt8, UInt8) -> Slot) {
        guard let memory = calloc(1 << 24, MemoryLayout<Slot>.stride) else { fatalError("out of memory for the colour memo") }
        slots = memory.bindMemory(to: Slot.self, capacity: 1 << 24)
        self.compute = compute
    }

    deinit { free(slots) }

    @inline(__always)
    static func index(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let (r, g, b) = (Int(r), Int(g), Int(b))
        return (r >> 3) << 19 | (g >> 3) << 14 | (b >> 3) << 9 | (r & 7) << 6 | (g & 7) << 3 | (b & 7)
    }

    /// The slot for (r, g, b), computing it on first use. One thread at a time.
    @inline(__always)
    func slot(_ r: UInt8, _ g: UInt8, _ b: UInt8, isEmpty: (Slot) -> Bool) -> Slot {
        let p = slots + Self.index(r, g, b)
        if isEmpty(p.pointee) { p.pointee = compute(r, g, b) }
        return p.pointee
    }
}

extension ColourProgram {
    /// Every colour step, stored-frame and output-frame, from an 8-bit source colour to the 8-bit
    /// output colour, packed 0x01RRGGBB: what a pixel-copy geometry (weights exactly 0 and 1)
    /// needs. nil for a chain without colour kernels. Same arithmetic as the reference pipeline.
    func wholeChainMemo() -> ColourMemo<UInt32>? {
        guard !storedFrame.isEmpty || !outputFrame.isEmpty else { return nil }
        let (stored, output, space, table) = (storedFrame, outputFrame, space, space.fromByte)
        return ColourMemo { r, g, b in
            var (wr, wg, wb) = (table[Int(r)], table[Int(g)], table[Int(b)])
            for kernel in stored { kernel.apply(&wr, &wg, &wb) }
            for kernel in output { kernel.apply(&wr, &wg, &wb) }
            return 1 << 24 | UInt32(space.byte(wr)) << 16 | UInt32(space.byte(wg)) << 8 | UInt32(space.byte(wb))
        }
    }

    /// The stored-frame kernels from an 8-bit colour to working-space values (x, y, z; w = 1
    /// marks a computed slot); nil when there are none.
    func storedFrameMemo() -> ColourMemo<SIMD4<Float>>? {
        guard !storedFrame.isEmpty else { return nil }
        let (stored, table) = (storedFrame, space.fromByte)
        return ColourMemo { r, g, b in
            var (wr, wg, wb) = (table[Int(r)], table[Int(g)], table[Int(b)])
            for kernel in stored { kernel.apply(&wr, &wg, &wb) }
            return SIMD4(wr, wg, wb, 1)
        }
    }
}
