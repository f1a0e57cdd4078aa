@testable import AdjustKit
import CLaneStages
import XCTest

/// SmartTone's C stages (`Sources/CLaneStages`) give the same bits with AVX2, eight pixels a
/// vector, as with the baseline's four, on any values: out of [0, 1], NaN, zeros of either sign,
/// and every count of pixels a chunk can hold (a last four after the eights). The stages' values
/// themselves are checked against the spec's vectors by `ModernColourModelTests`.
final class LaneStagesTests: XCTestCase {
    private enum Stage: CaseIterable { case localLight, shadowLift, highKey, contrast }

    /// `count` random values a plane, a few of them odd.
    private func planes(_ count: Int, seed: UInt64) -> [[Float]] {
        var random = SplitMix64(seed: seed)
        let odd: [Float] = [-0.0, 0, 1, 1.5, -0.25, .nan, .infinity, 1e-30]
        return (0..<5).map { _ in
            (0..<count).map { i in
                i % 13 == 5 ? odd[Int(random.next() % UInt64(odd.count))] : Float(Double(random.next() >> 11) / Double(1 << 53))
            }
        }
    }

    private func run(_ stage: Stage, _ input: [[Float]], baseline: Bool) -> [[Float]] {
        var (r, g, b) = (input[0], input[1], input[2])
        let (b0, b1) = (input[3], input[4])
        adjust_lane_stages_force_baseline(baseline ? 1 : 0)
        defer { adjust_lane_stages_force_baseline(0) }
        let count = r.count
        r.withUnsafeMutableBufferPointer { r in
            g.withUnsafeMutableBufferPointer { g in
                b.withUnsafeMutableBufferPointer { b in
                    let (r, g, b) = (r.baseAddress!, g.baseAddress!, b.baseAddress!)
                    switch stage {
                    case .localLight: adjust_local_light(r, g, b, b0, b1, count, 0.62)
                    case .shadowLift: adjust_shadow_lift(r, g, b, b0, count, 0.4)
                    case .highKey: adjust_high_key(r, g, b, count, 0.35)
                    case .contrast: adjust_contrast(r, g, b, count, -0.8)
                    }
                }
            }
        }
        return [r, g, b]
    }

    func testAVX2AndBaselineGiveTheSameBits() throws {
        try XCTSkipUnless(adjust_lane_stages_use_avx2() == 1, "no AVX2 here: both runs would be the baseline's")
        for count in [4, 8, 12, 252, 256] {
            for stage in Stage.allCases {
                let input = planes(count, seed: UInt64(count))
                let (wide, baseline) = (run(stage, input, baseline: false), run(stage, input, baseline: true))
                for c in 0..<3 {
                    let differing = zip(wide[c], baseline[c]).filter { $0.bitPattern != $1.bitPattern }.count
                    XCTAssertEqual(differing, 0, "\(stage), \(count) pixels, channel \(c)")
                }
                // The stage did something.
                XCTAssertTrue(zip(wide[0], input[0]).contains { $0.bitPattern != $1.bitPattern }, "\(stage)")
            }
        }
    }
}
