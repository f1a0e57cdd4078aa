@testable import AdjustKit
import XCTest

/// The streaming renderer against the whole-image reference pipeline it replaced
/// (`Renderer.renderReference`): identical bits at full size and DCT scales, colour chains
/// included (`ColourMemo` runs the exact kernels); within one code on a few pixels in 10⁴ where
/// the plan area-shrinks (`--max-size`, and colour chains at a DCT scale, which oversample): the
/// shrink's encoding-curve table; and the streamed JPEG equal to encoding the raster.
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
        }
    }
}
