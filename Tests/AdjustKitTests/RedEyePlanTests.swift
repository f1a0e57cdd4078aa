@testable import AdjustKit
@testable import adjust
import XCTest

/// Issue 21 scope 3: the plan is the whole plan — a red-eye repair that reaches the region the
/// output samples grows the region decoded, and that growth is in `RenderPlan.decodeRegion`
/// (printed by `inspect`), equal to what the decoder is asked for.
final class RedEyePlanTests: XCTestCase {
    func testTheDecodeRegionHoldsTheRepairsAndIsWhatTheDecoderIsAskedFor() throws {
        let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let stored = try JPEGDecoder().decode(jpeg)
        let redEye = try FusedRendererTests.redEyeEdit(stored)
        let spot = FusedRendererTests.reddest(stored)
        // A crop whose corner lies inside the first repair's area: the repair reads beyond it.
        let crop = Crop(x: Double(spot.x), y: Double(stored.size.height - spot.y), width: 300, height: 200)
        var grew = false
        for size in [SizeRequest.full, .scale(DecodeScale(numerator: 4)!), .maxSize(256)] {
            let plan = try RenderPlanner().plan(storedSize: stored.size, exifOrientation: nil,
                                                chain: EditChain([redEye, crop]), size: size)
            let program = try ColourProgram(chain: plan.rescaledChain, options: ColourOptions())
            XCTAssertEqual(StoredRegionPass(kernels: program.storedRegion, plan: plan).decodeRegion, plan.decodeRegion, "\(size)")
            if plan.decodeRegion != plan.sourceRegion {
                grew = true
                let d = plan.decodeRegion
                let text = InspectReport.text(edit: LoadedEdit(chain: EditChain([redEye, crop]), origin: .none), plan: plan,
                                              exactEffects: [])
                XCTAssertTrue(text.contains("  decode region:   \(d.width)×\(d.height) at (\(d.x), \(d.y)) of the decoded raster "
                                            + "(the source region grown by the red-eye repairs' areas)"), text)
            }
            let decoded = try JPEGDecoder().decode(jpeg, scale: plan.decodeScale)
            var asked: [PixelRect] = []
            try decoded.pixels.withUnsafeBufferPointer { buffer in
                let rows = RGB8Rows(base: buffer.baseAddress!, stride: decoded.size.width * 3, size: decoded.size)
                _ = try FusedRenderer(plan: plan, program: program, decoder: JPEGDecoder()).run(open: { region in
                    asked.append(region)
                    return RasterRowSource(rows: rows, region: region)
                }, sink: { _, _ in })
            }
            XCTAssertEqual(asked, [plan.decodeRegion], "\(size)")
        }
        XCTAssertTrue(grew, "the repair's area reaches past the crop: the test must see a grown region")
    }
}
