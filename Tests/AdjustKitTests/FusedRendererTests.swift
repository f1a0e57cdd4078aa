@testable import AdjustKit
import XCTest

/// The streaming renderer against the whole-image reference pipeline it replaced
/// (`Renderer.renderReference`): identical bits at full size and DCT scales, colour chains
/// included (`ColourMemo` runs the exact kernels); within one code on a few pixels in 10⁴ where
/// the plan area-shrinks (`--max-size`, and colour chains at a DCT scale, which oversample): the
/// shrink's encoding-curve table; and the streamed JPEG equal to encoding the raster. Red-eye
/// chains (a region kernel, run on the rows of its areas) included.
final class FusedRendererTests: XCTestCase {
    static let sizes: [SizeRequest] = [.full, .scale(DecodeScale(numerator: 4)!), .scale(DecodeScale(numerator: 3)!),
                                       .scale(DecodeScale(numerator: 1)!), .maxSize(500), .maxSize(97)]

    private func renderings(_ image: String, _ xmp: String?, _ size: SizeRequest,
                            space: WorkingSpace = .linear) throws -> (fused: RGBA8Image, reference: RGBA8Image, shrunk: Bool) {
        let renderer = Renderer(colour: ColourOptions(workingSpace: space))
        let edit = try PhotoEdit(imagePath: TestFixtures.image(image), editPath: xmp.map(TestFixtures.xmp), size: size,
                                 renderer: renderer)
        let program = try ColourProgram(chain: edit.plan.rescaledChain, options: renderer.colour)
        let reference = try renderer.renderReference(edit.plan, jpeg: try edit.original.source.whole(), program: program).image
        return (try edit.render().image, reference, edit.plan.needsResample)
    }

    func testGeometryChainsAreBitIdenticalToTheReference() throws {
        for c in GeometryCase.all {
            for size in Self.sizes {
                let (fused, reference, shrunk) = try renderings(c.image, c.xmp, size)
                XCTAssertEqual(fused.size, reference.size, "\(c.name) \(size)")
                let diff = ImageMetrics.differences(TestImage(fused), TestImage(reference))
                if shrunk {
                    XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 99, 1, "\(c.name) \(size): \(diff)")
                    XCTAssertLessThanOrEqual(diff.meanPerChannel.max() ?? 99, 0.001, "\(c.name) \(size): \(diff)")
                } else {
                    XCTAssertEqual(diff.maxPerChannel.max() ?? 99, 0, "\(c.name) \(size): \(diff)")
                }
            }
        }
    }

    func testColourChainsMatchTheReference() throws {
        let chains = ["vibrance", "vibrance-negative", "tone-curve", "shadows-highlights", "shadows-darken", "face-balance",
                      "exposure", "enhance-effect-crop", "effect-chrome", "effect-noir"].map { "colour/\($0).xmp" }
            + ["enhance-and-crop.xmp"]
        for xmp in chains {
            for size in [SizeRequest.full, .scale(DecodeScale(numerator: 2)!), .maxSize(400)] {
                for space in WorkingSpace.allCases {
                    let (fused, reference, shrunk) = try renderings("Landscape_1.jpg", xmp, size, space: space)
                    let diff = ImageMetrics.differences(TestImage(fused), TestImage(reference))
                    let label = "\(xmp) \(size) \(space): max \(diff.maxPerChannel) mean \(diff.meanPerChannel)"
                    if shrunk {
                        XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 99, 1, label)
                        XCTAssertLessThanOrEqual(diff.meanPerChannel.max() ?? 99, 0.001, label)
                    } else {
                        XCTAssertEqual(diff.maxPerChannel.max() ?? 99, 0, label)
                    }
                }
            }
        }
    }

    /// Geometries that walk up the source (a flip, a half turn: the window must hold the whole
    /// region) and a rotation with stored-frame colour (converted rows through the memo).
    func testUnusualGeometriesMatchTheReference() throws {
        let W = 1800, H = 1200
        let edits = [
            "half-turn": "<aas:AffineA>-1</aas:AffineA><aas:AffineB>0</aas:AffineB><aas:AffineC>0</aas:AffineC>"
                + "<aas:AffineD>-1</aas:AffineD><aas:AffineX>\(W - 100)</aas:AffineX><aas:AffineY>\(H - 50)</aas:AffineY>"
                + "<aas:CropX>0</aas:CropX><aas:CropY>0</aas:CropY><aas:CropW>1500</aas:CropW><aas:CropH>1000</aas:CropH>",
            "flip": "<aas:AffineA>1</aas:AffineA><aas:AffineB>0</aas:AffineB><aas:AffineC>0</aas:AffineC>"
                + "<aas:AffineD>-1</aas:AffineD><aas:AffineX>0</aas:AffineX><aas:AffineY>\(H)</aas:AffineY>",
            "straighten-enhance": "<aas:Vibrance>0.3</aas:Vibrance><aas:Shadows>0.4</aas:Shadows><aas:Highlights>0.8</aas:Highlights>"
                + "<aas:AffineA>0.99863</aas:AffineA><aas:AffineB>-0.052336</aas:AffineB><aas:AffineC>0.052336</aas:AffineC>"
                + "<aas:AffineD>0.99863</aas:AffineD><aas:AffineX>-40</aas:AffineX><aas:AffineY>60</aas:AffineY>"
                + "<aas:CropX>20</aas:CropX><aas:CropY>30</aas:CropY><aas:CropW>1600.5</aas:CropW><aas:CropH>1000.25</aas:CropH>",
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fused-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, properties) in edits {
            let xmp = directory.appendingPathComponent("\(name).xmp")
            try ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                + "<rdf:Description rdf:about=\"\" xmlns:aas=\"http://ns.apple.com/adjustment-settings/1.0/\">"
                + properties + "</rdf:Description></rdf:RDF></x:xmpmeta>").write(to: xmp, atomically: true, encoding: .utf8)
            for size in [SizeRequest.full, .maxSize(300)] {
                let renderer = Renderer()
                let edit = try PhotoEdit(imagePath: TestFixtures.image("Landscape_1.jpg"), editPath: xmp.path, size: size,
                                         renderer: renderer)
                let program = try ColourProgram(chain: edit.plan.rescaledChain, options: renderer.colour)
                let reference = try renderer.renderReference(edit.plan, jpeg: try edit.original.source.whole(), program: program).image
                let fused = try edit.render().image
                XCTAssertEqual(fused.size, reference.size, name)
                let diff = ImageMetrics.differences(TestImage(fused), TestImage(reference))
                XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 99, edit.plan.needsResample ? 1 : 0, "\(name) \(size): \(diff)")
                XCTAssertLessThanOrEqual(diff.meanPerChannel.max() ?? 99, 0.001, "\(name) \(size): \(diff)")
            }
        }
    }

    func testStreamedJPEGDecodesLikeTheEncodedRaster() throws {
        for (image, xmp) in [("Landscape_1.jpg", "straighten-3deg.xmp"), ("Landscape_1.jpg", "fractional-crop.xmp"),
                             ("canon-a85.jpg", "seed-example.xmp")] {
            let edit = try PhotoEdit(imagePath: TestFixtures.image(image), editPath: TestFixtures.xmp(xmp))
            let streamed = try edit.renderer.renderEncoded(edit.plan, jpeg: try edit.original.source.whole(), format: .jpeg, quality: 90)
            let raster = try edit.render()
            let encoded = try JPEGEncoder.encode(raster.image, quality: 90, compositingIn: raster.workingSpace)
            XCTAssertEqual(streamed.size, raster.image.size, xmp)
            let (a, b) = (try JPEGDecoder().decode(streamed.bytes), try JPEGDecoder().decode(encoded))
            XCTAssertEqual(a, b, "\(image) \(xmp): the streamed JPEG decodes to other pixels")
            // The streamed rows go to libjpeg as RGBX (opaque rows without a copy), TurboJPEG's
            // as RGB: the same file. (A turned output is encoded in stripes with restart markers:
            // testOrientedJPEGIsTheOrientedRasterEncoded.)
            if edit.plan.orientation == .identity {
                XCTAssert(streamed.bytes == encoded, "\(image) \(xmp): the streamed JPEG's bytes differ")
            }
        }
    }

    /// A JPEG output in another orientation is the oriented raster encoded in stripes at once
    /// (`StripedJPEGEncoder`): the bytes of one libjpeg encoder over the oriented raster with a
    /// restart marker every MCU row, which decode to the pixels of TurboJPEG's file of that raster
    /// (orientations 6 and 3, at quality 90, 4:4:4 but for the grey one, and 80, 4:2:0).
    func testOrientedJPEGIsTheOrientedRasterEncoded() throws {
        // The third is grey throughout: its raster is the grey one (`OrientedPlacement`).
        for (image, xmp) in [("Landscape_6.jpg", "straighten-3deg.xmp"), ("Landscape_3.jpg", "fractional-crop.xmp"),
                             ("Landscape_6.jpg", "colour/effect-noir.xmp")] {
            let edit = try PhotoEdit(imagePath: TestFixtures.image(image), editPath: TestFixtures.xmp(xmp))
            XCTAssertNotEqual(edit.plan.orientation, .identity, image)
            for quality in [90, 80] {
                let streamed = try edit.renderEncoded(format: .jpeg, quality: quality)
                let raster = try edit.render()
                let size = raster.image.size
                XCTAssertEqual(streamed.size, size, "\(image) q\(quality)")
                var rgb = [UInt8](repeating: 0, count: size.pixelCount * 3)
                raster.image.pixels.withUnsafeBufferPointer { rgba in
                    JPEGEncoder.compositeOverBlack(rgba.baseAddress!, count: size.pixelCount, into: &rgb,
                                                   working: raster.workingSpace.fromByte, space: raster.workingSpace)
                }
                // Noir leaves greys: the file's chroma is at half resolution (JPEGChromaTests).
                let writer = try JPEGRowWriter(size: size, quality: quality, greyPicture: raster.isGrey, restartEachMCURow: true)
                try rgb.withUnsafeBufferPointer { try writer.write(rows: $0.baseAddress!, stride: size.width * 3, count: size.height) }
                XCTAssertTrue(streamed.bytes == (try writer.finish()), "\(image) \(xmp) q\(quality): other bytes")
                let plain = try JPEGEncoder.encode(raster.image, quality: quality, compositingIn: raster.workingSpace)
                XCTAssertEqual(try JPEGDecoder().decode(streamed.bytes), try JPEGDecoder().decode(plain),
                               "\(image) \(xmp) q\(quality): other pixels")
            }
        }
    }

    // MARK: red-eye (a region kernel) on the streaming renderer

    /// The real fixture's correction (a progressive JPEG) at full size, DCT scales and a shrink,
    /// in both working spaces.
    func testRedEyeFixtureIsBitIdenticalToTheReference() throws {
        for size in Self.sizes + [.scale(DecodeScale(numerator: 2)!)] {
            for space in WorkingSpace.allCases {
                try Self.assertFusedMatchesReference(TestFixtures.image("progressive-960x1280.jpg"),
                                                editPath: TestFixtures.xmp("colour/red-eye.xmp"), size: size, space: space,
                                                label: "red-eye.xmp \(size) \(space)")
            }
        }
    }

    /// Corrections around the photo's reddest pixel — overlapping ones (their order matters), one
    /// cut by the crop's edge (its area is decoded whole), one the crop leaves out, a convex hull
    /// and one outside the image (warnings) — with and without stored-frame colour, a straighten
    /// and a half turn, at full size, 1/2, 1/4, 1/8 and a shrink.
    func testRedEyeChainsAreBitIdenticalToTheReference() throws {
        let folder = try ScratchFolder.make("fused-red-eye")
        defer { ScratchFolder.remove(folder) }
        let path = TestFixtures.image("Landscape_1.jpg")
        let stored = try JPEGDecoder().decode(TestFixtures.bytes(path))
        let redEye = try Self.redEyeEdit(stored)
        let spot = Self.reddest(stored)
        let (W, H) = (Double(stored.size.width), Double(stored.size.height))
        let straighten = AffineMap(a: 0.99863, b: -0.052336, c: 0.052336, d: 0.99863, tx: -40, ty: 60)
        let chains: [(String, EditChain)] = [
            ("red-eye", EditChain(redEye: redEye)),
            ("crop cutting the area (left edge)",
             EditChain(redEye: redEye, crop: Crop(x: Double(spot.x), y: 0, width: W - Double(spot.x), height: H))),
            ("crop cutting the area (top edge)",
             EditChain(redEye: redEye, crop: Crop(x: 0, y: 0, width: W, height: H - Double(spot.y) - 3))),
            ("crop leaving the area out",
             EditChain(redEye: redEye, crop: spot.x > stored.size.width / 2 ? Crop(x: 0, y: 0, width: W / 3, height: H)
                                                                          : Crop(x: W * 2 / 3, y: 0, width: W / 3, height: H))),
            ("half turn (the window holds the whole region)",
             EditChain(redEye: redEye, affine: AffineMap(a: -1, b: 0, c: 0, d: -1, tx: W, ty: H))),
            ("vibrance, straighten, fractional crop",
             EditChain(redEye: redEye, vibrance: Vibrance(amount: 0.3), affine: straighten,
                       crop: Crop(x: Double(spot.x) - 10.5, y: 30, width: 900.25, height: H - 200))),
        ]
        for (name, chain) in chains {
            let xmp = folder.appendingPathComponent("edit.xmp")
            try chain.adjustmentXMP().write(to: xmp, atomically: true, encoding: .utf8)
            for size in Self.sizes + [.scale(DecodeScale(numerator: 2)!)] {
                for space in WorkingSpace.allCases {
                    try Self.assertFusedMatchesReference(path, editPath: xmp.path, size: size, space: space,
                                                    label: "\(name) \(size) \(space)")
                }
            }
        }
    }

    /// Every EXIF orientation (the stored frame is what the corrections and the repair use).
    func testRedEyeUnderEveryOrientationIsBitIdenticalToTheReference() throws {
        let folder = try ScratchFolder.make("fused-red-eye-orientation")
        defer { ScratchFolder.remove(folder) }
        for n in 0...8 {
            let path = TestFixtures.image("Landscape_\(n).jpg")
            let redEye = try Self.redEyeEdit(try JPEGDecoder().decode(TestFixtures.bytes(path)))
            let xmp = folder.appendingPathComponent("edit-\(n).xmp")
            try EditChain(redEye: redEye, vibrance: Vibrance(amount: -0.4)).adjustmentXMP()
                .write(to: xmp, atomically: true, encoding: .utf8)
            for size in [SizeRequest.full, .scale(DecodeScale(numerator: 2)!), .maxSize(300)] {
                try Self.assertFusedMatchesReference(path, editPath: xmp.path, size: size, space: .linear,
                                                label: "Landscape_\(n) \(size)")
            }
        }
    }

    /// The streamed JPEG of a red-eye chain (no raster in between) equals encoding the raster.
    func testStreamedJPEGWithRedEyeDecodesLikeTheEncodedRaster() throws {
        let edit = try PhotoEdit(imagePath: TestFixtures.image("progressive-960x1280.jpg"),
                                 editPath: TestFixtures.xmp("colour/red-eye.xmp"))
        let streamed = try edit.renderer.renderEncoded(edit.plan, jpeg: try edit.original.source.whole(), format: .jpeg,
                                                           quality: 90)
        let raster = try edit.render()
        let encoded = try JPEGEncoder.encode(raster.image, quality: 90, compositingIn: raster.workingSpace)
        XCTAssertEqual(try JPEGDecoder().decode(streamed.bytes), try JPEGDecoder().decode(encoded))
        XCTAssertEqual(streamed.warnings, raster.warnings)
    }

    // MARK: the vignette (a position-dependent kernel) on the streaming renderer

    /// Vignettes (darkening, lightening, hard and soft edges), alone and after stored- and
    /// output-frame colour, with a straighten and fractional crop and with red-eye, at full size,
    /// DCT scales and shrinks, in both working spaces; and under every EXIF orientation.
    func testVignetteChainsAreBitIdenticalToTheReference() throws {
        let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let stored = try JPEGDecoder().decode(jpeg)
        let redEye = try Self.redEyeEdit(stored)
        let straighten = AffineMap(a: 0.99863, b: -0.052336, c: 0.052336, d: 0.99863, tx: -40, ty: 60)
        let vignettes = [Vignette(intensity: 0.5), Vignette(intensity: 1, radius: 0.8, falloff: 0.3),
                         Vignette(intensity: -0.6, radius: 0.5, falloff: 0.7), Vignette(intensity: 0.7, radius: 0.3, falloff: 0)]
        var chains = vignettes.map { ("\($0)", EditChain([$0])) }
        chains += [
            ("vibrance, smart colour, vignette", EditChain([Vibrance(amount: 0.4), SmartColor(color: 0.5), vignettes[0]])),
            ("straighten, fractional crop, vignette",
             EditChain([straighten, Crop(x: 20, y: 30, width: 1600.5, height: 1000.25), vignettes[2]])),
            ("red-eye, vignette", EditChain([redEye, vignettes[1]])),
        ]
        for (name, chain) in chains {
            for size in Self.sizes + [.scale(DecodeScale(numerator: 2)!)] {
                for space in WorkingSpace.allCases {
                    let renderer = Renderer(colour: ColourOptions(workingSpace: space))
                    let plan = try RenderPlanner().plan(storedSize: stored.size, exifOrientation: nil, chain: chain, size: size)
                    try Self.assertFusedMatchesReference(plan, original: .jpeg(OriginalBytes(jpeg)), renderer: renderer,
                                                         label: "\(name) \(size) \(space)")
                }
            }
        }
        for n in 0...8 {
            let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_\(n).jpg"))
            let stored = try JPEGDecoder().decode(jpeg).size
            for size in [SizeRequest.full, .scale(DecodeScale(numerator: 2)!), .maxSize(300)] {
                let plan = try RenderPlanner().plan(storedSize: stored, exifOrientation: ExifOrientation.value(inJPEG: jpeg),
                                                    chain: EditChain([vignettes[1]]), size: size)
                try Self.assertFusedMatchesReference(plan, original: .jpeg(OriginalBytes(jpeg)), renderer: Renderer(),
                                                     label: "Landscape_\(n) vignette \(size)")
            }
        }
    }

    // MARK: SmartTone's local light (a stored positional kernel) on the streaming renderer

    /// SmartTone with a light map (the real one of the HEIC sample, stretched over this photo),
    /// alone, after a memoized white balance and before per-pixel colour, with a crop (a region
    /// decode with a column offset) and a straighten, at full size, DCT scales and shrinks, in both
    /// working spaces; with an output-frame effect after it; and under every EXIF orientation.
    /// Bit-identical without a shrink; within one code on a few channels in 10⁵ with one
    /// (`assertFusedMatchesReference`).
    func testSmartToneChainsMatchTheReference() throws {
        let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let stored = try JPEGDecoder().decode(jpeg)
        let tone = try Self.realSmartTone()
        let straighten = AffineMap(a: 0.99863, b: -0.052336, c: 0.052336, d: 0.99863, tx: -40, ty: 60)
        let chains: [(String, EditChain)] = [
            ("smart tone", EditChain([tone])),
            ("white balance, smart tone, smart colour, B&W",
             EditChain([WhiteBalance(.warmthTint(warmth: 0.4, tint: 0.1, face: 0)), tone, SmartColor(color: -0.5),
                        SmartBlackAndWhite(hue: 0.3)])),
            ("smart tone, region crop", EditChain([tone, Crop(x: 333, y: 101, width: 700.5, height: 500.25)])),
            ("smart tone, straighten", EditChain([tone, straighten])),
        ]
        // An output-frame colour kernel after the per-pixel tail, which the pixel copy runs on
        // each row (`PixelCopyChain`): at the sizes that copy pixels (a shrink samples).
        let effect = EditChain([tone, Crop(x: 40, y: 30, width: 900, height: 600), SerializedFilter(name: PhotoEffect.chrome.rawValue)])
        for space in WorkingSpace.allCases {
            for size in [SizeRequest.full, .scale(DecodeScale(numerator: 2)!), .scale(DecodeScale(numerator: 4)!)] {
                let plan = try RenderPlanner().plan(storedSize: stored.size, exifOrientation: nil, chain: effect, size: size)
                try Self.assertFusedMatchesReference(plan, original: .jpeg(OriginalBytes(jpeg)),
                                                     renderer: Renderer(colour: ColourOptions(workingSpace: space)),
                                                     label: "smart tone, crop, photo effect \(size) \(space)")
            }
        }
        for (name, chain) in chains {
            for size in Self.sizes + [.scale(DecodeScale(numerator: 2)!)] {
                for space in WorkingSpace.allCases {
                    let renderer = Renderer(colour: ColourOptions(workingSpace: space))
                    let plan = try RenderPlanner().plan(storedSize: stored.size, exifOrientation: nil, chain: chain, size: size)
                    try Self.assertFusedMatchesReference(plan, original: .jpeg(OriginalBytes(jpeg)), renderer: renderer,
                                                         label: "\(name) \(size) \(space)")
                }
            }
        }
        for n in [3, 6, 8] {
            let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_\(n).jpg"))
            let stored = try JPEGDecoder().decode(jpeg).size
            for size in [SizeRequest.full, .scale(DecodeScale(numerator: 2)!), .maxSize(300)] {
                let plan = try RenderPlanner().plan(storedSize: stored, exifOrientation: ExifOrientation.value(inJPEG: jpeg),
                                                    chain: EditChain([tone, Crop(x: 50, y: 40, width: 900, height: 700)]),
                                                    size: size)
                try Self.assertFusedMatchesReference(plan, original: .jpeg(OriginalBytes(jpeg)), renderer: Renderer(),
                                                     label: "Landscape_\(n) smart tone \(size)")
            }
        }
    }

    /// Which pixel copies take each row through the chain (`PixelCopyChain`): a chain with a
    /// per-pixel stored-frame step and nothing that reads areas, neighbourhoods or output places.
    /// The comparisons above then test that path; without this, a renderer that sent those
    /// chains down the sampled path would pass them too.
    func testPixelCopiesOfPerPixelChainsColourEachRow() throws {
        let tone = try Self.realSmartTone(), size = PixelSize(width: 1200, height: 900)
        func chain(_ filters: [any EditFilter]) throws -> PixelCopyChain? {
            PixelCopyChain(program: try ColourProgram(chain: EditChain(filters), options: ColourOptions()), imageSize: size,
                           columnOffset: 0)
        }
        XCTAssertNotNil(try chain([tone]))
        XCTAssertNotNil(try chain([WhiteBalance(.warmthTint(warmth: 0.4, tint: 0.1, face: 0)), tone, SmartBlackAndWhite(hue: 0.3),
                                   SerializedFilter(name: PhotoEffect.chrome.rawValue)]))
        // One colour each: the whole chain's memo instead.
        XCTAssertNil(try chain([SmartColor(color: -0.5), SmartBlackAndWhite(hue: 0.3)]))
        // A vignette reads its place in the output, Sharpen a neighbourhood: the sampled path.
        XCTAssertNil(try chain([tone, Vignette(intensity: 0.8)]))
        XCTAssertNil(try chain([tone, Sharpen(intensity: 0.5)]))
    }

    /// The SmartTone of the real macOS 10.15 sample (with its light map).
    static func realSmartTone() throws -> SmartTone {
        let path = TestFixtures.path("Fixtures/photos-library/Test-10.15.7.photoslibrary/resources/renders/7/"
            + "7783E8E6-9CAC-40F3-BE22-81FB7051C266.plist")
        let document = try AAEDocument(contentsOf: TestFixtures.bytes(path))
        let adjustment = try XCTUnwrap(document.adjustments.first { $0.identifier == "SmartTone" })
        let tone = try XCTUnwrap(SmartTone.read(aae: adjustment, assumptions: .default))
        XCTAssertNotNil(tone.statistics?.lightMap)
        return tone
    }

    /// The streamed JPEG of a vignette chain equals encoding the raster.
    func testStreamedJPEGWithVignetteDecodesLikeTheEncodedRaster() throws {
        let jpeg = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let stored = try JPEGDecoder().decode(jpeg).size
        let plan = try RenderPlanner().plan(storedSize: stored, exifOrientation: nil,
                                            chain: EditChain([Vignette(intensity: 0.8)]), size: .maxSize(500))
        let streamed = try Renderer().renderEncoded(plan, jpeg: jpeg, format: .jpeg, quality: 90)
        let raster = try Renderer().render(plan, jpeg: jpeg)
        let encoded = try JPEGEncoder.encode(raster.image, quality: 90, compositingIn: raster.workingSpace)
        XCTAssertEqual(try JPEGDecoder().decode(streamed.bytes), try JPEGDecoder().decode(encoded))
    }

    /// Renders `imagePath` with `editPath` (a red-eye chain) both ways and compares.
    static func assertFusedMatchesReference(_ imagePath: String, editPath: String, size: SizeRequest, space: WorkingSpace,
                                            label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let renderer = Renderer(colour: ColourOptions(workingSpace: space))
        let edit = try PhotoEdit(imagePath: imagePath, editPath: editPath, size: size, renderer: renderer)
        try assertFusedMatchesReference(edit.plan, original: edit.original, renderer: renderer, label: label,
                                        file: file, line: line)
    }

    /// Renders `plan` (a chain with a region, a position-dependent, a per-pixel stored-frame or a
    /// neighbourhood kernel) both ways and compares images and warnings: identical bits without
    /// a shrink. With one, identical bits for red-eye and vignette chains, which the reference
    /// pipeline rendered before the streaming one could and which shrink through the exact
    /// encoding curve so as to come out as they did (docs/architecture.md); within one code on a
    /// few channels in 10⁵ for the others, which shrink through the curve's table
    /// (`EncodingTable`), as colour chains do, where the reference takes `powf`.
    static func assertFusedMatchesReference(_ plan: RenderPlan, original: OriginalImage, renderer: Renderer, label: String,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        let program = try ColourProgram(chain: plan.rescaledChain, options: renderer.colour)
        XCTAssertFalse(program.storedRegion.isEmpty && program.outputPositional.isEmpty && program.storedTail.isEmpty
                       && program.neighbourhood.isEmpty, label,
                       file: file, line: line)
        let reference = try renderer.renderReference(plan, original: original, program: program)
        let fused = try renderer.render(plan, original: original)
        XCTAssertEqual(fused.image.size, reference.image.size, label, file: file, line: line)
        XCTAssertEqual(fused.warnings, reference.warnings, label, file: file, line: line)
        // The rule stated here on its own, not read from `ColourProgram.shrinksThroughExactCurve`,
        // which the renderer asks: a wrong answer there must not loosen this comparison.
        let exactCurve = !program.storedRegion.isEmpty || !program.outputPositional.isEmpty
        if !plan.needsResample || exactCurve {
            XCTAssertTrue(fused.image == reference.image,
                          "\(label): \(ImageMetrics.differences(TestImage(fused.image), TestImage(reference.image)))",
                          file: file, line: line)
        } else {
            assertWithinOneCodeOnFewChannels(fused.image, reference.image, label, file: file, line: line)
        }
    }

    /// A shrink through the encoding curve's table against the reference's `powf`: the table is
    /// within 2·10⁻⁷ of the curve (`FusedKernelTablesTests`), so a channel moves only where the
    /// average lands that close to a rounding tie — by one code, on a few channels in 10⁵ (2·10⁻⁵
    /// at most in these tests; the bound allows 10⁻⁴).
    static func assertWithinOneCodeOnFewChannels(_ image: RGBA8Image, _ reference: RGBA8Image, _ label: String,
                                                 file: StaticString = #filePath, line: UInt = #line) {
        let diff = ImageMetrics.differences(TestImage(image), TestImage(reference))
        XCTAssertLessThanOrEqual(diff.maxPerChannel.max() ?? 99, 1, "\(label): \(diff)", file: file, line: line)
        XCTAssertLessThanOrEqual(diff.meanPerChannel.max() ?? 99, 1e-4, "\(label): \(diff)", file: file, line: line)
    }

    /// The stored image's reddest pixel, by the repair's own measure (filters.md §5).
    static func reddest(_ image: RGB8Image) -> (x: Int, y: Int, redness: Float) {
        var best = (x: 0, y: 0, redness: -Float.infinity)
        for y in 0..<image.size.height {
            for x in 0..<image.size.width {
                let p = (y * image.size.width + x) * 3
                let (r, g, b) = (Float(image.pixels[p]) / 255, Float(image.pixels[p + 1]) / 255, Float(image.pixels[p + 2]) / 255)
                let redness = (r - max(g, b)) / (r + 0.05)
                if redness > best.redness { best = (x, y, redness) }
            }
        }
        return best
    }

    /// Corrections for `stored` (its own frame): two overlapping ones on its reddest pixel, a
    /// convex hull, one outside the image, one in the far corner; the repair must change pixels.
    static func redEyeEdit(_ stored: RGB8Image, file: StaticString = #filePath, line: UInt = #line) throws -> RedEyeCorrections {
        let (W, H) = (stored.size.width, stored.size.height)
        let spot = Self.reddest(stored)
        func correction(_ x: Int, _ y: Int, half: Int) -> RedEyeCorrection {
            let (x0, x1) = (max(0, x - half), min(W, x + half)), (y0, y1) = (max(0, y - half), min(H, y + half))
            return RedEyeCorrection(naming: .short, fields: [
                "p": "\(Double(x) / Double(W)) \(1 - Double(y) / Double(H)) 0.02", "s": "\(x) \(y)",
                "b": "\(x) \(y) 0.2", "ps": "0.1 0.2 0.3 0.25", "rr": "\(y0) \(y1) \(x0) \(x1)"])
        }
        let corrections = [
            correction(spot.x, spot.y, half: 40),
            correction(min(W - 1, spot.x + 17), min(H - 1, spot.y + 11), half: 30),
            RedEyeCorrection(naming: .short, fields: ["p": "0.5 0.5 0.05", "hb": "1 2 3 4"]),
            RedEyeCorrection(naming: .short, fields: ["rr": "-90 -20 -90 -20"]),
            correction(spot.x < W / 2 ? W - 30 : 30, spot.y < H / 2 ? H - 30 : 30, half: 25),
        ]
        let redEye = RedEyeCorrections(width: Double(W), height: Double(H), isv: 1, ort: 1, snr: 1, corrections: corrections)
        // The repair must do something here, or the comparisons prove little.
        var working = Renderer.workingValues(of: stored, space: .linear)
        let before = working
        XCTAssertEqual(RedEyeRepair.apply(redEye, to: &working, space: .linear).count, 2, file: file, line: line)
        XCTAssertNotEqual(working, before, "the corrections change no pixel (reddest: \(spot))", file: file, line: line)
        return redEye
    }
}
