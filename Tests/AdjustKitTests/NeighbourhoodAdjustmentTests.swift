@testable import AdjustKit
import Foundation
import XCTest

/// Issue 23: the neighbourhood kernel kind (Sharpen, Definition, Noise Reduction) on the
/// streaming renderer — bit-identical to the whole-image reference but for a shrink's encoding
/// (within one code on a few channels in 10⁵), the decoded region grown by the radii — and the
/// five new modern adjustments doing what their sliders say.
final class NeighbourhoodAdjustmentTests: XCTestCase {
    private static let straighten = AffineMap(a: 0.99863, b: -0.052336, c: 0.052336, d: 0.99863, tx: -40, ty: 60)

    // MARK: the kernel kind on the streaming renderer

    /// Bit-identical without a shrink and for chains with red-eye or a vignette; within one code
    /// on a few channels in 10⁵ for the others' shrinks (`assertFusedMatchesReference`).
    func testNeighbourhoodChainsMatchTheReference() throws {
        let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let stored = try JPEGDecoder().decode(jpeg)
        let sharpen = Sharpen(intensity: 1, edges: 0.5, falloff: 1)
        let chains: [(String, EditChain)] = [
            ("sharpen", EditChain([sharpen])),
            ("definition, crop", EditChain([Definition(intensity: 1), Crop(x: 333, y: 101, width: 700.5, height: 500.25)])),
            ("noise reduction, straighten", EditChain([NoiseReduction(radius: 3), Self.straighten])),
            ("all three, colour between, grain after",
             EditChain([NoiseReduction(radius: 2), Vibrance(amount: 0.4), SmartColor(color: 0.3), sharpen,
                        Definition(intensity: 0.7), Grain(amount: 0.5, seed: 0.3), Crop(x: 10, y: 20, width: 1500, height: 900)])),
            ("smart tone, sharpen", EditChain([try FusedRendererTests.realSmartTone(), sharpen])),
            ("red-eye, sharpen, vignette", EditChain([try FusedRendererTests.redEyeEdit(stored), sharpen, Vignette(intensity: 0.5)])),
        ]
        for (name, chain) in chains {
            for size in [SizeRequest.full, .scale(DecodeScale(numerator: 3)!), .maxSize(300)] {
                for space in WorkingSpace.allCases {
                    let renderer = Renderer(colour: ColourOptions(workingSpace: space))
                    let plan = try RenderPlanner().plan(storedSize: stored.size, exifOrientation: nil, chain: chain, size: size)
                    try FusedRendererTests.assertFusedMatchesReference(plan, original: .jpeg(OriginalBytes(jpeg)),
                                                                       renderer: renderer, label: "\(name) \(size) \(space)")
                }
            }
        }
        // Under an EXIF orientation, and a HEIC (decoded whole, streamed from its raster).
        let turned = try TestFixtures.bytes(TestFixtures.image("Landscape_6.jpg"))
        let plan = try RenderPlanner().plan(storedSize: try JPEGDecoder().decode(turned).size,
                                            exifOrientation: ExifOrientation.value(inJPEG: turned),
                                            chain: EditChain([Definition(intensity: 1), Crop(x: 50, y: 40, width: 900, height: 700)]),
                                            size: .full)
        try FusedRendererTests.assertFusedMatchesReference(plan, original: .jpeg(OriginalBytes(turned)), renderer: Renderer(),
                                                           label: "Landscape_6 definition")
    }

    /// `inspect` prints the grown region; it is what the decoder is asked for.
    func testTheDecodeRegionGrowsByTheRadiusAndIsWhatTheDecoderIsAskedFor() throws {
        let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let stored = try JPEGDecoder().decode(jpeg)
        let crop = Crop(x: 400, y: 300, width: 600, height: 400)
        for (chain, radius) in [(EditChain([Sharpen(intensity: 1), crop]), 3),
                                (EditChain([Sharpen(intensity: 1, falloff: 0), Definition(intensity: 1), crop]), 31),
                                (EditChain([Vibrance(amount: 0.3), crop]), 0)] {
            for size in [SizeRequest.full, .scale(DecodeScale(numerator: 4)!)] {
                let plan = try RenderPlanner().plan(storedSize: stored.size, exifOrientation: nil, chain: chain, size: size)
                let r = size == .full ? radius : plan.rescaledChain.neighbourhoodRadius
                XCTAssertEqual(plan.neighbourhoodRadius, r)
                let s = plan.sourceRegion
                XCTAssertEqual(plan.decodeRegion, PixelRect(x: s.x - r, y: s.y - r, width: s.width + 2 * r, height: s.height + 2 * r))
                var asked: [PixelRect] = []
                let program = try ColourProgram(chain: plan.rescaledChain, options: ColourOptions())
                XCTAssertEqual(program.neighbourhoodRadius, r, "the kernels read as far as the plan grew")
                let decoded = try JPEGDecoder().decode(jpeg, scale: plan.decodeScale)
                try decoded.pixels.withUnsafeBufferPointer { buffer in
                    let rows = RGB8Rows(base: buffer.baseAddress!, stride: decoded.size.width * 3, size: decoded.size)
                    _ = try FusedRenderer(plan: plan, program: program, decoder: JPEGDecoder()).run(open: { region in
                        asked.append(region)
                        return RasterRowSource(rows: rows, region: region)
                    }, sink: { _, _ in })
                }
                XCTAssertEqual(asked, [plan.decodeRegion], "\(chain.steps.map(\.filterName)) \(size)")
            }
        }
        // At the image's edges the region is clipped.
        let whole = try RenderPlanner().plan(storedSize: stored.size, exifOrientation: nil,
                                             chain: EditChain([Sharpen(intensity: 1)]), size: .full)
        XCTAssertEqual(whole.decodeRegion, PixelRect(x: 0, y: 0, width: stored.size.width, height: stored.size.height))
    }

    // MARK: what the sliders do

    /// A synthetic stored image: smooth gradients, a vertical edge, texture; optional noise.
    private static func testImage(width: Int = 160, height: Int = 120, noise: Float = 0, seed: UInt64 = 1) -> RGBFloatImage {
        var rng = seed
        func random() -> Float {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Float(rng >> 40) / Float(1 << 24) - 0.5
        }
        var pixels: [Float] = []
        for y in 0..<height {
            for x in 0..<width {
                let edge: Float = x < width / 2 ? 0.15 : 0.55
                let texture = 0.04 * sin(Float(x) * 0.9) * sin(Float(y) * 0.7)
                let base = edge + texture + 0.1 * Float(y) / Float(height)
                for c in 0..<3 {
                    let tint: Float = [1.0, 0.9, 0.8][c]
                    pixels.append(max(0, base * tint + noise * random()))
                }
            }
        }
        return RGBFloatImage(size: PixelSize(width: width, height: height), pixels: pixels)
    }

    private static func applied(_ filters: [any EditFilter], to image: RGBFloatImage) throws -> RGBFloatImage {
        var out = image
        _ = try ColourProgram(chain: EditChain(filters), options: ColourOptions()).applyToStoredFrame(&out)
        return out
    }

    private static func luma(_ image: RGBFloatImage, _ x: Int, _ y: Int) -> Float {
        let i = (y * image.size.width + x) * 3
        return (0.2126 * image.pixels[i] + 0.7152 * image.pixels[i + 1] + 0.0722 * image.pixels[i + 2]).squareRoot()
    }

    /// Mean squared Laplacian of lightness over `columns` × `rows`.
    private static func highFrequency(_ image: RGBFloatImage, columns: Range<Int>, rows: Range<Int>) -> Double {
        var sum = 0.0, n = 0
        for y in rows { for x in columns {
            let l = 4 * luma(image, x, y) - luma(image, x - 1, y) - luma(image, x + 1, y) - luma(image, x, y - 1) - luma(image, x, y + 1)
            sum += Double(l * l); n += 1
        } }
        return sum / Double(n)
    }

    func testSharpenRaisesHighFrequencyEnergy() throws {
        let image = Self.testImage()
        let before = Self.highFrequency(image, columns: 5..<155, rows: 5..<115)
        var last = before
        for intensity in [0.5, 1, 2] {
            let after = Self.highFrequency(try Self.applied([Sharpen(intensity: intensity, edges: 0)], to: image),
                                           columns: 5..<155, rows: 5..<115)
            XCTAssertGreaterThan(after, last * 1.2, "intensity \(intensity)")
            last = after
        }
        // Edges leaves low-contrast texture alone more than edges 0 does.
        let image2 = Self.testImage(noise: 0.01)
        let all = Self.highFrequency(try Self.applied([Sharpen(intensity: 1, edges: 0)], to: image2), columns: 5..<70, rows: 5..<115)
        let edgesOnly = Self.highFrequency(try Self.applied([Sharpen(intensity: 1, edges: 1)], to: image2), columns: 5..<70, rows: 5..<115)
        XCTAssertLessThan(edgesOnly, all)
    }

    func testNoiseReductionLowersNoiseAndKeepsTheEdge() throws {
        let noisy = Self.testImage(noise: 0.03)
        let smoothed = try Self.applied([NoiseReduction(radius: 2, edgeDetail: 1.5)], to: noisy)
        let flat = (10..<70, 10..<110)
        XCTAssertLessThan(Self.highFrequency(smoothed, columns: flat.0, rows: flat.1),
                          0.5 * Self.highFrequency(noisy, columns: flat.0, rows: flat.1))
        // The edge at x = 80 keeps its step: mean lightness three pixels either side.
        func step(_ image: RGBFloatImage) -> Float {
            var (left, right): (Float, Float) = (0, 0)
            for y in 10..<110 { left += Self.luma(image, 78, y); right += Self.luma(image, 81, y) }
            return (right - left) / 100
        }
        XCTAssertEqual(step(smoothed), step(noisy), accuracy: 0.1 * step(noisy))
        // More edge detail smooths less.
        let detailed = try Self.applied([NoiseReduction(radius: 2, edgeDetail: 6)], to: noisy)
        XCTAssertGreaterThan(Self.highFrequency(detailed, columns: flat.0, rows: flat.1),
                             Self.highFrequency(smoothed, columns: flat.0, rows: flat.1))
    }

    func testDefinitionRaisesLocalContrast() throws {
        // A soft step: local contrast = the lightness difference across it, 20 px either side.
        var image = Self.testImage(width: 200, height: 60)
        image = try Self.applied([NoiseReduction(radius: 0)], to: image)   // identity: no radius
        func contrast(_ image: RGBFloatImage) -> Float {
            var sum: Float = 0
            for y in 10..<50 { sum += Self.luma(image, 110, y) - Self.luma(image, 90, y) }
            return sum / 40
        }
        let before = contrast(image)
        let after = contrast(try Self.applied([Definition(intensity: 1, radius: 20)], to: image))
        XCTAssertGreaterThan(after, before * 1.1)
        // Far from any edge (a flat area), nothing much moves.
        let flat = RGBFloatImage(size: PixelSize(width: 80, height: 80), pixels: [Float](repeating: 0.2, count: 80 * 80 * 3))
        let out = try Self.applied([Definition(intensity: 2, radius: 20)], to: flat)
        XCTAssertEqual(out.pixels.max()!, 0.2, accuracy: 1e-4)
    }

    func testGrainIsDeterministicAndAlikeAtTwoDecodeScales() throws {
        let grey = RGBFloatImage(size: PixelSize(width: 400, height: 300), pixels: [Float](repeating: 0.2, count: 400 * 300 * 3))
        let grain = Grain(amount: 0.6, iso: 800, seed: 0.42)
        let a = try Self.applied([grain], to: grey), b = try Self.applied([grain], to: grey)
        XCTAssertEqual(a, b, "run to run")
        XCTAssertNotEqual(a, try Self.applied([Grain(amount: 0.6, iso: 800, seed: 0.43)], to: grey), "the seed matters")
        // Half the decode: the grain of the same field, rescaled.
        let half = RGBFloatImage(size: PixelSize(width: 200, height: 150), pixels: [Float](repeating: 0.2, count: 200 * 150 * 3))
        let factors = RescaleFactors(storedSize: PixelSize(width: 400, height: 300), scale: DecodeScale(numerator: 4)!)
        let h = try Self.applied([grain.rescaled(by: factors)], to: half)
        func stats(_ image: RGBFloatImage) -> (mean: Double, sd: Double) {
            let values = stride(from: 0, to: image.pixels.count, by: 3).map { Double(image.pixels[$0]) }
            let mean = values.reduce(0, +) / Double(values.count)
            return (mean, (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot())
        }
        let (full, reduced) = (stats(a), stats(h))
        XCTAssertGreaterThan(full.sd, 0.005)
        XCTAssertEqual(reduced.mean, full.mean, accuracy: 0.2 * full.sd)
        XCTAssertEqual(reduced.sd, full.sd, accuracy: 0.1 * full.sd)
        // The same field: the reduced pixel (i, j) sits where the full one (2i + ½, 2j + ½) would.
        var correlated = 0.0, n = 0.0
        for j in 0..<150 { for i in 0..<200 {
            let f = (a.pixels[((2 * j) * 400 + 2 * i) * 3] + a.pixels[((2 * j + 1) * 400 + 2 * i + 1) * 3]) / 2 - 0.2
            correlated += Double(f * (h.pixels[(j * 200 + i) * 3] - 0.2)); n += 1
        } }
        XCTAssertGreaterThan(correlated / n / (full.sd * reduced.sd), 0.6, "the same grain, not just alike")
    }

    func testSelectiveColorShiftsOnlyThePickedHues() throws {
        // Red, green, blue, yellow and grey patches (linear working values of sRGB colours).
        let colours: [(Float, Float, Float)] = [(0.8, 0.1, 0.1), (0.1, 0.7, 0.1), (0.1, 0.1, 0.8), (0.8, 0.8, 0.1), (0.4, 0.4, 0.4)]
        let image = RGBFloatImage(size: PixelSize(width: colours.count, height: 1),
                                  pixels: colours.flatMap { [$0.0, $0.1, $0.2].map(SRGBTransfer.decode) })
        let red = SelectiveColor.Correction(red: 0.9, green: 0.1, blue: 0.1, hueShift: 30, saturation: -50, luminance: 20)
        let out = try Self.applied([SelectiveColor(corrections: [red])], to: image)
        func pixel(_ image: RGBFloatImage, _ i: Int) -> [Float] { (0..<3).map { SRGBTransfer.encode(image.pixels[i * 3 + $0]) } }
        let before = SelectiveColorKernel.hsl(pixel(image, 0)[0], pixel(image, 0)[1], pixel(image, 0)[2])
        let after = SelectiveColorKernel.hsl(pixel(out, 0)[0], pixel(out, 0)[1], pixel(out, 0)[2])
        XCTAssertEqual(after.h - before.h, 30, accuracy: 1, "the red's hue moves by the shift")
        XCTAssertLessThan(after.s, before.s * 0.6)
        XCTAssertGreaterThan(after.l, before.l)
        for i in 1..<colours.count {
            XCTAssertEqual(pixel(out, i), pixel(image, i), "patch \(i) untouched")
        }
    }

    // MARK: reading, and the CLI on a real photo

    static let adjustments: [(identifier: String, settings: String, filter: String)] = [
        ("RKProSharpenOperation", #"{"inputSharpness":0.8,"inputEdgeScale":0.5,"inputFalloff":0.6}"#, "RKProSharpenOperation"),
        ("RKProSharpenOperation", #"{"intensity":1.2,"edges":1,"falloff":1}"#, "RKProSharpenOperation"),
        ("DGDefinition2Operation", #"{"inputIntensity":0.7}"#, "DGDefinition2Operation"),
        ("DGDefinition2Operation", #"{"intensity":1.5}"#, "DGDefinition2Operation"),
        ("RKNoiseReductionOperation", #"{"inputRadius":3,"inputEdgeDetail":2}"#, "RKNoiseReductionOperation"),
        ("RKNoiseReductionOperation", #"{"radius":2,"edgeDetail":1.5}"#, "RKNoiseReductionOperation"),
        ("Grain", #"{"amount":0.5,"iso":1600,"seed":0.25}"#, "Grain"),
        ("RKSelectiveColorOperation", #"{"corrections":[{"red":0.2,"green":0.4,"blue":0.9,"hueShift":-20,"saturation":40,"luminance":-10}]}"#,
         "RKSelectiveColorOperation"),
    ]

    func testEachAdjustmentRendersOnARealPhotoWithTheApproximateNote() throws {
        let scratch = try ScratchFolder.make("neighbourhood-cli")
        defer { ScratchFolder.remove(scratch) }
        let image = TestFixtures.image("Landscape_1.jpg")
        for (index, a) in Self.adjustments.enumerated() {
            for format in [AAEBuilder.Format.xml, .binary] {
                let edit = scratch.appendingPathComponent("edit-\(index)-\(format).aae").path
                try Data(AAEBuilder.aae([AAEBuilder.adjustment(a.identifier, settings: a.settings)], format: format,
                                        masterWidth: 1800, masterHeight: 1200)).write(to: URL(fileURLWithPath: edit))
                let chain = try EditSource().load(editFile: edit).chain
                XCTAssertEqual(chain.steps.map(\.filterName), [a.filter], "\(a.settings) \(format)")
                let out = scratch.appendingPathComponent("out-\(index)-\(format).jpg").path
                let run = try BinaryRun.run(CLITests.binary, ["render", image, "--edit", edit, "-o", out, "--max-size", "600"],
                                            in: scratch)
                XCTAssertEqual(run.status, 0, run.stderr)
                XCTAssertTrue(run.stderr.contains("approximate filters used: \(a.identifier) (approximation:"), run.stderr)
                XCTAssertFalse(run.stderr.contains("not replayed"), run.stderr)
            }
        }
        // inspect shows the grown decode region of a Sharpen edit.
        let edit = scratch.appendingPathComponent("edit-0-xml.aae").path
        let inspect = try BinaryRun.run(CLITests.binary, ["inspect", image, "--edit", edit], in: scratch)
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains("  decode region:   1800×1200 at (0, 0) of the decoded raster (the source region grown by the neighbourhood radius, 2 px)"),
                      inspect.stdout)
    }

    func testDefaultsAreNoOpsAndWrongTypesCostOnlyTheirAdjustment() throws {
        for format in [AAEBuilder.Format.xml, .binary] {
            let bytes = AAEBuilder.aae([
                AAEBuilder.adjustment("RKProSharpenOperation", settings: #"{"inputSharpness":0.8,"isDefaults":true}"#),
                AAEBuilder.adjustment("DGDefinition2Operation", settings: #"{"inputIntensity":0}"#),
                AAEBuilder.adjustment("RKNoiseReductionOperation", settings: #"{"inputEdgeDetail":1.5}"#),
                AAEBuilder.adjustment("Grain", settings: #"{"amount":"much"}"#),
                AAEBuilder.adjustment("RKSelectiveColorOperation", settings: #"{"corrections":{"red":1}}"#),
                AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":100,"yOrigin":0,"width":800,"height":600}"#),
            ], format: format, masterWidth: 1800, masterHeight: 1200)
            var notes: [String] = []
            let chain = try EditChain(aae: try AAEDocument(contentsOf: bytes), notes: &notes)
            XCTAssertEqual(chain.notReplayed, [#"Grain (setting "amount" must be a number, got a string)"#,
                                               #"RKSelectiveColorOperation (setting "corrections" must be an array, got an object)"#])
            XCTAssertEqual(chain.steps.filter { !($0.filter is UnsupportedAdjustment) }.map(\.filterName), ["Crop"])
        }
    }

    // MARK: DepthEffect on the real portrait

    /// IMG_3582: the background (far from the focus plane) blurred, the focus region (the flower's
    /// centre, `focusRect`) nearly as sharp as the B&W-only render (the focus disparity is the
    /// rect's median, so half of it lies behind the focus plane, which Photos blurs by a few pixels:
    /// docs/spec/depth-effect.md §3); streamed = reference. PortraitDepthTests measures the sharp
    /// zone and the background against Photos' render.
    func testDepthEffectBlursTheBackgroundAndKeepsTheSubject() throws {
        let folder = TestFixtures.path("Fixtures/apple-renders/portrait-heic")
        let bw = try Self.writeWithoutDepthEffect(folder + "/IMG_3582.AAE")
        defer { try? FileManager.default.removeItem(atPath: bw) }
        let size = SizeRequest.maxSize(1600)
        let full = try PhotoEdit(imagePath: folder + "/IMG_3582.HEIC", editPath: folder + "/IMG_3582.AAE", size: size)
        let onlyBW = try PhotoEdit(imagePath: folder + "/IMG_3582.HEIC", editPath: bw, size: size)
        let (a, b) = (try full.render(), try onlyBW.render())
        XCTAssertTrue(a.approximations.contains { $0.hasPrefix("DepthEffect (approximation") }, "\(a.approximations)")
        XCTAssertEqual(a.image.size, PixelSize(width: 1200, height: 1600))
        // focusRect in the stored frame (5712 × 4284, origin bottom-left: rows 1 − y − h … 1 − y
        // from the top), turned by orientation 6 into the output (column = 4284 − stored row).
        let s = 1600.0 / 5712
        let rect = (x0: Int(0.356 * 4284 * s), x1: Int((0.356 + 0.158) * 4284 * s),
                    y0: Int(0.42457 * 5712 * s), y1: Int((0.42457 + 0.11838) * 5712 * s))
        let face = Self.energy(a.image, rect.x0..<rect.x1, rect.y0..<rect.y1) / Self.energy(b.image, rect.x0..<rect.x1, rect.y0..<rect.y1)
        XCTAssertGreaterThan(face, 0.85, "the subject stays sharp")
        let top = Self.energy(a.image, 1..<1199, 1..<260) / Self.energy(b.image, 1..<1199, 1..<260)
        XCTAssertLessThan(top, 0.7, "the background is blurred")

        // The streamed render equals the reference with the same depth image (this is a shrink:
        // within one code on a few channels, the encoding curve's table against `powf`).
        let bytes = try TestFixtures.bytes(folder + "/IMG_3582.HEIC")
        let heif = try HEIFFile(bytes, maxSide: 16_384)
        let depth = try XCTUnwrap(withExtendedLifetime(heif) { HEICDecoder.depthMap(heif.handle) })
        XCTAssertGreaterThan(depth.size.pixelCount, 10_000)
        let renderer = Renderer()
        let program = try ColourProgram(chain: full.plan.rescaledChain, options: ColourOptions(),
                                        inputs: PhotoInputs(depthMap: depth))
        XCTAssertEqual(program.neighbourhoodRadius, full.plan.neighbourhoodRadius)
        let reference = try renderer.renderReference(full.plan, original: full.original, program: program)
        FusedRendererTests.assertWithinOneCodeOnFewChannels(a.image, reference.image, "streamed = reference")
    }

    /// A JPEG has no depth image: DepthEffect renders without the blur and says so.
    func testDepthEffectWithoutADepthImageRendersWithoutTheBlurAndSaysSo() throws {
        let chain = EditChain([DepthEffect(aperture: 2.8), Vibrance(amount: 0.2)])
        let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let plan = try RenderPlanner().plan(storedSize: PixelSize(width: 1800, height: 1200), exifOrientation: nil,
                                            chain: chain, size: .maxSize(400))
        let withDepth = try Renderer().render(plan, jpeg: jpeg)
        let plain = try Renderer().render(try RenderPlanner().plan(storedSize: PixelSize(width: 1800, height: 1200),
                                                                   exifOrientation: nil, chain: EditChain([Vibrance(amount: 0.2)]),
                                                                   size: .maxSize(400)), jpeg: jpeg)
        XCTAssertTrue(withDepth.image == plain.image)
        XCTAssertEqual(withDepth.warnings, ["DepthEffect left out: the photo has no depth image, so the background is not blurred"])
    }

    static func writeWithoutDepthEffect(_ path: String) throws -> String {
        let document = try AAEDocument(contentsOf: TestFixtures.bytes(path))
        let kept = document.adjustments.filter { $0.identifier != "DepthEffect" }.map { a -> String in
            let settings = a.settings.map { "\"\($0.key)\":\(Self.json($0.value))" }.joined(separator: ",")
            return AAEBuilder.adjustment(a.identifier, settings: "{\(settings)}")
        }
        let out = NSTemporaryDirectory() + "neigh-bw-\(getpid()).aae"
        try Data(AAEBuilder.aae(kept, format: .binary, masterWidth: 5712, masterHeight: 4284, orientation: 6))
            .write(to: URL(fileURLWithPath: out))
        return out
    }

    private static func json(_ value: AAEValue) -> String {
        switch value {
        case .number(let n): return "\(n)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return "\"\(s)\""
        default: return "null"
        }
    }

    /// Mean squared Laplacian of the green channel over the region.
    private static func energy(_ image: RGBA8Image, _ columns: Range<Int>, _ rows: Range<Int>) -> Double {
        let w = image.size.width
        func g(_ x: Int, _ y: Int) -> Double { Double(image.pixels[(y * w + x) * 4 + 1]) }
        var sum = 0.0
        for y in rows { for x in columns {
            let l = 4 * g(x, y) - g(x - 1, y) - g(x + 1, y) - g(x, y - 1) - g(x, y + 1)
            sum += l * l
        } }
        return sum / Double(columns.count * rows.count)
    }
}
