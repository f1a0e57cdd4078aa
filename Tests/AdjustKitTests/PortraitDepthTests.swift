@testable import AdjustKit
import Foundation
import XCTest

/// Issue 28 scope 3: DepthEffect as Photos renders it, measured against Photos' own render of the
/// portrait (`Fixtures/apple-renders/portrait-heic/IMG_E3582.heic`), colour-managed to sRGB as
/// `adjust fidelity` does. To stay fast it runs at a quarter of the long side (`--max-size 1428`,
/// 1071 × 1428; Apple's render box-averaged by 4 to the same size), not at full size.
///
/// The expected figures are the acceptance bounds and the facts of the upstream notes
/// (docs/spec/depth-effect.md §1–§2: the disparity range, the focus code 157); the masks come from
/// the depth image and those facts, not from the code under test.
final class PortraitDepthTests: XCTestCase {
    private static let folder = TestFixtures.path("Fixtures/apple-renders/portrait-heic")
    private static let size = PixelSize(width: 1071, height: 1428)

    func testDepthEffectMatchesPhotosRender() throws {
        let bwPath = try NeighbourhoodAdjustmentTests.writeWithoutDepthEffect(Self.folder + "/IMG_3582.AAE")
        defer { try? FileManager.default.removeItem(atPath: bwPath) }
        let (ours, approximations) = try Self.render(edit: Self.folder + "/IMG_3582.AAE")
        let bw = try Self.render(edit: bwPath).image
        let apple = try FidelityCheck.loadSRGB(Self.folder + "/IMG_E3582.heic").image.thumbnail(maxSide: 1428)
        XCTAssertTrue(approximations.contains { $0.hasPrefix("DepthEffect (approximation") }, "\(approximations)")
        XCTAssertEqual(ours.size, Self.size)
        XCTAssertEqual(apple.size, Self.size)
        let delta = try Self.disparityDistance()

        let psnr = try ImageComparator.compare(ours, apple).psnr
        let background = Self.blocks(delta) { $0 < -1.0 }
        let subject = Self.blocks(delta) { $0 >= 0 && $0 <= 0.35 }
        XCTAssertGreaterThan(background.count, 100)
        XCTAssertGreaterThan(subject.count, 5)
        let kept = (background: Self.energyRatio(ours, bw, background), subject: Self.energyRatio(ours, bw, subject))
        let appleKept = (background: Self.energyRatio(apple, bw, background), subject: Self.energyRatio(apple, bw, subject))
        let halo = Self.halo(ours, apple, delta)
        print(String(format: "portrait depth at 1071x1428: PSNR %.2f dB against Photos; background detail kept %.3f "
                     + "(Photos %.3f), subject %.3f (Photos %.3f); halo %+.2f grey levels in %d ring pixels",
                     psnr, kept.background, appleKept.background, kept.subject, appleKept.subject, halo.mean, halo.count))
        XCTAssertGreaterThanOrEqual(psnr, 37, "PSNR against Photos' render")
        XCTAssertLessThanOrEqual(kept.background, 0.5, "the background is blurred")
        XCTAssertGreaterThanOrEqual(kept.subject, 0.9, "the subject stays sharp")
        XCTAssertGreaterThan(halo.count, 1000)
        XCTAssertEqual(halo.mean, 0, accuracy: 5, "no halo just outside the subject")
    }

    /// The camera-time edit (`IMG_O3582.AAE`, DepthEffect alone, orientation 0 = the file's own)
    /// renders the portrait blur, not the unedited photo.
    func testCameraTimeDepthEffectAloneRendersTheBlur() throws {
        let photo = try PhotoEdit(imagePath: Self.folder + "/IMG_3582.HEIC", editPath: Self.folder + "/IMG_O3582.AAE",
                                  size: .maxSize(1428))
        XCTAssertEqual(photo.edit.chain.steps.map(\.filterName), ["DepthEffect"])
        let blurred = try photo.render()
        let unedited = try photo.geometryOnly(size: .maxSize(1428)).render()
        XCTAssertTrue(blurred.approximations.contains { $0.hasPrefix("DepthEffect (approximation") }, "\(blurred.approximations)")
        XCTAssertEqual(blurred.image.size, Self.size, "upright (the file's orientation 6)")
        let delta = try Self.disparityDistance()
        let background = Self.energyRatio(blurred.image, unedited.image, Self.blocks(delta) { $0 < -1.0 })
        let subject = Self.energyRatio(blurred.image, unedited.image, Self.blocks(delta) { $0 >= 0 && $0 <= 0.35 })
        XCTAssertLessThan(background, 0.5, "the background is blurred")
        XCTAssertGreaterThan(subject, 0.9, "the subject stays sharp")
    }

    /// The depth image's disparity range (its XMP) and the focus: `focusRect` read with its origin
    /// at the bottom-left of the stored frame gives code 157 (depth-effect.md §2); read from the
    /// top-left it would not.
    func testFocusRectIsReadFromTheBottomLeft() throws {
        let depth = try Self.depthMap()
        let range = try XCTUnwrap(depth.disparityRange)
        XCTAssertEqual(range.lowerBound, 0.140991, accuracy: 1e-6)
        XCTAssertEqual(range.upperBound, 6.15625, accuracy: 1e-6)
        let photo = try PhotoEdit(imagePath: Self.folder + "/IMG_3582.HEIC", editPath: Self.folder + "/IMG_3582.AAE",
                                  size: .maxSize(1428))
        let effect = try XCTUnwrap(photo.edit.chain[DepthEffect.self])
        XCTAssertEqual(effect.focusRect[1], 0.356, accuracy: 0.001, "as Photos writes it")
        let rect = effect.focusRectFromTop
        XCTAssertEqual(depth.median(inX: rect.x, y: rect.y, width: rect.width, height: rect.height) * 255, 157, accuracy: 0.5)
        let topLeft = depth.median(inX: effect.focusRect[0], y: effect.focusRect[1], width: effect.focusRect[2], height: effect.focusRect[3])
        XCTAssertNotEqual(topLeft * 255, 157, accuracy: 0.5, "read from the top-left: other rows, another median")
    }

    /// The portrait-effects matte (no sample has one: this is the only check of that path). A
    /// synthetic portrait: far background on the left half, at the focus plane on the right, a
    /// striped pattern throughout. Without a matte the left half is blurred and the right kept; a
    /// matte of 1 on the left keeps the left as it is too, and a matte of 0 changes nothing.
    func testAPortraitMatteKeepsThePersonSharp() {
        let size = PixelSize(width: 200, height: 120)
        let image = RGBFloatImage(size: size, pixels: (0..<size.pixelCount).flatMap { i -> [Float] in
            let v: Float = (i % size.width) % 4 < 2 ? 0.8 : 0.1
            return [v, v, v]
        })
        // Disparity plane 8 × 6: 0 (far) on the left half, 0.6 on the right; the focus at 0.6.
        let plane = (0..<48).map { $0 % 8 < 4 ? Float(0) : 0.6 }
        let halves = (0..<48).map { $0 % 8 < 4 ? Float(1) : 0 }
        func render(matte: [Float]?) -> RGBFloatImage {
            var depth = DepthMap(size: PixelSize(width: 8, height: 6), values: plane, disparityRange: 0.140991...6.15625)
            depth.matte = matte.map { PortraitMatte(size: PixelSize(width: 8, height: 6), values: $0) }
            let law = DepthBlurLaw(longSide: 200, aperture: 2.8, pixelScale: 1)
            let kernel = LayeredDepthBlur(depth: depth, focus: depth.disparity(ofValue: 0.6), law: law, imageSize: size, space: .linear)
            var out = image
            kernel.apply(to: &out)
            return out
        }
        func changed(_ a: RGBFloatImage, columns: Range<Int>) -> Float {
            var most: Float = 0
            for y in 0..<size.height { for x in columns { most = max(most, abs(a.pixels[(y * size.width + x) * 3] - image.pixels[(y * size.width + x) * 3])) } }
            return most
        }
        let plain = render(matte: nil)
        XCTAssertGreaterThan(changed(plain, columns: 0..<80), 0.2, "the far half is blurred")
        XCTAssertEqual(changed(plain, columns: 120..<200), 0, "the focus half is kept")
        let person = render(matte: halves)
        XCTAssertEqual(changed(person, columns: 0..<80), 0, "the matte keeps the person sharp")
        XCTAssertEqual(render(matte: [Float](repeating: 0, count: 48)), plain, "a matte of 0 changes nothing")
    }

    /// A pixel's sharp share and grain are found four columns at a time over a run and one at a
    /// time at its end (`LayeredDepthBlur.Lookup.shares`): the kernel over whole rows against the
    /// kernel one column at a time (where every pixel is a run's end), bit for bit, with a
    /// matte and with depth values outside 0…1 (the clamp's two branches).
    func testSharesFourColumnsAtATimeAreTheColumnsOwn() {
        let size = PixelSize(width: 61, height: 23)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        let image = RGBFloatImage(size: size, pixels: (0..<(size.pixelCount * 3)).map { _ in random() })
        let plane = (0..<(9 * 5)).map { _ in random() * 1.4 - 0.2 }
        for matte in [nil, (0..<(7 * 4)).map { _ in random() }] {
            var depth = DepthMap(size: PixelSize(width: 9, height: 5), values: plane, disparityRange: 0.140991...6.15625)
            depth.matte = matte.map { PortraitMatte(size: PixelSize(width: 7, height: 4), values: $0) }
            let law = DepthBlurLaw(longSide: 61, aperture: 1.4, pixelScale: 1)
            let kernel = LayeredDepthBlur(depth: depth, focus: depth.disparity(ofValue: 0.5), law: law, imageSize: size, space: .linear)
            var (whole, single) = ([Float](repeating: 0, count: image.pixels.count), [Float](repeating: 0, count: image.pixels.count))
            image.pixels.withUnsafeBufferPointer { source in
                let input = NeighbourhoodRows(rows: 0..<size.height, width: size.width, columnOffset: 0) {
                    UnsafeMutablePointer(mutating: source.baseAddress!) + $0 * size.width * 3
                }
                whole.withUnsafeMutableBufferPointer { t in
                    kernel.apply(rows: 0..<size.height, columns: 0..<size.width, input: input) { t.baseAddress! + $0 * size.width * 3 }
                }
                single.withUnsafeMutableBufferPointer { t in
                    for x in 0..<size.width {
                        kernel.apply(rows: 0..<size.height, columns: x..<(x + 1), input: input) { t.baseAddress! + $0 * size.width * 3 }
                    }
                }
            }
            let differing = (0..<whole.count).filter { whole[$0].bitPattern != single[$0].bitPattern }
            XCTAssertEqual(differing.count, 0, "matte \(matte != nil): first at value \(differing.first ?? 0)")
            XCTAssertNotEqual(whole, image.pixels, "the kernel blurred something")
        }
    }

    /// The compositing's four-pixel path against its pixel path, bit for bit, on made-up rows
    /// reaching every branch: a sharp pixel with and without a front layer over it, coverage too
    /// small to divide by, no grain and grain, values below 0 and above the clamp, a run of sharp
    /// pixels (copied four at a time where no front layer is there), behind and front layers
    /// present or not.
    func testFourPixelCompositingIsThePixelsBits() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        let (count, cells) = (203, 40)
        let source = (0..<(count * 3)).map { _ in random() * 5 - 0.3 }
        let sharp = (0..<count).map { i -> Float in (100..<120).contains(i) ? 1 : [0, 1, 1, 0.3, random()][i % 5] }
        let amount = (0..<count).map { i -> Float in i % 3 == 0 ? 0 : random() }
        let sums = (0..<(count + 1)).map { i -> Float in i % 7 == 0 ? 0 : random() * 2 - 1 }
        func plane(emptyEvery: Int) -> [Float] {
            (0..<cells).flatMap { cell -> [Float] in
                let coverage: Float = cell % emptyEvery == 0 ? 0 : cell % 5 == 1 ? 1e-6 : random()
                return [random() * coverage * 4, random() * coverage, random() * coverage * 2, coverage]
            }
        }
        let (behind, front) = (plane(emptyEvery: 4), plane(emptyEvery: 2))
        let taps = (0..<count).map { x -> (Int32, Int32, Float) in
            let c = min(x / 6, cells - 2)
            return (Int32(c * 4), Int32((c + 1) * 4), Float(x % 6) / 6)
        }
        for layers in [(true, true), (true, false), (false, true), (false, false)] {
            var (fast, slow) = ([Float](repeating: 0, count: count * 3), [Float](repeating: 0, count: count * 3))
            source.withUnsafeBufferPointer { s in sharp.withUnsafeBufferPointer { sh in amount.withUnsafeBufferPointer { a in
            sums.withUnsafeBufferPointer { g in behind.withUnsafeBufferPointer { b in front.withUnsafeBufferPointer { f in
            taps.withUnsafeBufferPointer { t in
                func row(_ target: UnsafeMutablePointer<Float>, from x: Int) -> DepthCompositeRow {
                    DepthCompositeRow(source: s.baseAddress!, target: target, sharp: sh.baseAddress! + x,
                                      grainAmount: a.baseAddress! + x, grainColumns: g.baseAddress! + x,
                                      behind: layers.0 ? b.baseAddress! : nil, front: layers.1 ? f.baseAddress! : nil,
                                      taps: UnsafeBufferPointer(rebasing: t[x...]), space: .linear)
                }
                fast.withUnsafeMutableBufferPointer { row($0.baseAddress!, from: 0).run(columns: 0..<count) }
                slow.withUnsafeMutableBufferPointer { o in
                    for x in 0..<count { row(o.baseAddress!, from: x).run(columns: x..<(x + 1)) }
                }
            } } } } } } }
            let differing = (0..<(count * 3)).filter { fast[$0].bitPattern != slow[$0].bitPattern }
            XCTAssertEqual(differing.count, 0, "behind \(layers.0), front \(layers.1): first at value \(differing.first ?? 0)")
            XCTAssertNotEqual(fast, source, "the rows were composited")
        }
    }

    /// A row of grain noise four columns at a time is each column's own hash, to the bit (rows and
    /// columns of every size of integer, counts that leave a remainder).
    func testNoiseRowIsEachColumnsHash() {
        for (y, x, count) in [(0, 0, 9), (5711, 4280, 7), (123, -3, 23), (1 << 33, (1 << 32) - 2, 6)] {
            var row = [Float](repeating: .nan, count: count)
            row.withUnsafeMutableBufferPointer { DepthBlurGrain.noiseRow(y: y, x: x, count: count, into: $0.baseAddress!) }
            for i in 0..<count {
                XCTAssertEqual(row[i].bitPattern, DepthBlurGrain.white(x + i, y).bitPattern, "(\(x + i), \(y))")
            }
        }
    }

    // MARK: measures

    private static func render(edit: String) throws -> (image: RGBA8Image, approximations: [String]) {
        let photo = try PhotoEdit(imagePath: folder + "/IMG_3582.HEIC", editPath: edit, size: .maxSize(1428))
        var rendering = try photo.render()
        try SRGBConversion.convert(&rendering.image, from: ColourProfile(jpegHeader: photo.original.metadataJPEG))
        return (rendering.image, rendering.approximations)
    }

    private static func depthMap() throws -> DepthMap {
        let heif = try HEIFFile(try TestFixtures.bytes(folder + "/IMG_3582.HEIC"), maxSide: 16_384)
        return try XCTUnwrap(withExtendedLifetime(heif) { HEICDecoder.depthMap(heif.handle) })
    }

    /// Δd = d − d_focus (1/m) at each upright output pixel: the stored frame (5712 × 4284) turned by
    /// orientation 6, the focus code 157 of depth-effect.md §2, the range stated by the depth XMP.
    private static func disparityDistance() throws -> [Float] {
        let depth = try depthMap()
        let range = try XCTUnwrap(depth.disparityRange)
        let span = range.upperBound - range.lowerBound
        let focus = range.lowerBound + 157 / 255 * span
        var delta = [Float](repeating: 0, count: size.pixelCount)
        for y in 0..<size.height { for x in 0..<size.width {
            let u = (Float(y) + 0.5) / Float(size.height), v = 1 - (Float(x) + 0.5) / Float(size.width)
            delta[y * size.width + x] = range.lowerBound + depth.value(u: u, v: v) * span - focus
        } }
        return delta
    }

    /// 21 × 21 blocks (without the image's edge pixels) all of whose pixels satisfy `keep`.
    private static func blocks(_ delta: [Float], _ keep: (Float) -> Bool) -> [(Range<Int>, Range<Int>)] {
        var found: [(Range<Int>, Range<Int>)] = []
        for by in stride(from: 1, to: size.height - 22, by: 21) { for bx in stride(from: 1, to: size.width - 22, by: 21) {
            let (xs, ys) = (bx..<(bx + 21), by..<(by + 21))
            if ys.allSatisfy({ y in xs.allSatisfy { keep(delta[y * size.width + $0]) } }) { found.append((xs, ys)) }
        } }
        return found
    }

    private static func luma(_ image: RGBA8Image, _ x: Int, _ y: Int) -> Double {
        let p = (y * image.size.width + x) * 4
        return 0.2126 * Double(image.pixels[p]) + 0.7152 * Double(image.pixels[p + 1]) + 0.0722 * Double(image.pixels[p + 2])
    }

    /// High-frequency energy (squared Laplacian of luma) of `image` over the blocks, against `sharp`'s.
    private static func energyRatio(_ image: RGBA8Image, _ sharp: RGBA8Image, _ blocks: [(Range<Int>, Range<Int>)]) -> Double {
        func energy(_ i: RGBA8Image) -> Double {
            blocks.reduce(0) { sum, block in
                var s = 0.0
                for y in block.1 { for x in block.0 {
                    let l = 4 * luma(i, x, y) - luma(i, x - 1, y) - luma(i, x + 1, y) - luma(i, x, y - 1) - luma(i, x, y + 1)
                    s += l * l
                } }
                return sum + s
            }
        }
        return energy(image) / energy(sharp)
    }

    /// The mean luma difference, ours − Photos', in a ring 3–12 px outside the subject (pixels at
    /// or nearer than 0.1 /m behind the focus plane) over clear background (Δd < −0.5).
    private static func halo(_ ours: RGBA8Image, _ apple: RGBA8Image, _ delta: [Float]) -> (mean: Double, count: Int) {
        let subject = delta.map { $0 > -0.1 }
        let (near, far) = (dilate(subject, by: 2), dilate(subject, by: 12))
        var (sum, count) = (0.0, 0)
        for y in 0..<size.height { for x in 0..<size.width {
            let i = y * size.width + x
            guard far[i], !near[i], delta[i] < -0.5 else { continue }
            sum += luma(ours, x, y) - luma(apple, x, y)
            count += 1
        } }
        return (count > 0 ? sum / Double(count) : .nan, count)
    }

    /// The mask grown by `r` pixels (a square), across then down.
    private static func dilate(_ mask: [Bool], by r: Int) -> [Bool] {
        let (w, h) = (size.width, size.height)
        var across = [Bool](repeating: false, count: mask.count), out = across
        for y in 0..<h { for x in 0..<w where mask[y * w + x] {
            for k in max(0, x - r)...min(w - 1, x + r) { across[y * w + k] = true }
        } }
        for y in 0..<h { for x in 0..<w where across[y * w + x] {
            for k in max(0, y - r)...min(h - 1, y + r) { out[k * w + x] = true }
        } }
        return out
    }
}
