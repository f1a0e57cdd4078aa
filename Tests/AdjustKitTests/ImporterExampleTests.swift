import AdjustKit
import Foundation
import XCTest

/// The runnable library example (Examples/ImporterExample) builds with the suite and renders.
final class ImporterExampleTests: XCTestCase {
    func testTheExampleRendersAPreviewBesideEachPhoto() throws {
        let binary = URL(fileURLWithPath: CLITests.binary).deletingLastPathComponent()
            .appendingPathComponent("adjust-importer-example").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary), binary)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("IMG_0001.jpg").path
        try FileManager.default.copyItem(atPath: TestFixtures.image("iphone4s-2592x1936.jpg"), toPath: photo)
        try FileManager.default.copyItem(atPath: TestFixtures.xmp("ios5-crop.xmp"),
                                         toPath: folder.appendingPathComponent("IMG_0001.xmp").path)

        let run = try BinaryRun.run(binary, [photo])
        let stdout = run.stdout
        XCTAssertEqual(run.status, 0, stdout + run.stderr)
        XCTAssertTrue(stdout.contains("chain: CIAffineTransform, CICrop"), stdout)
        let preview = folder.appendingPathComponent("IMG_0001-preview.jpg").path
        let size = try JPEGDecoder().header(of: TestFixtures.bytes(preview)).size
        XCTAssertEqual(size, PixelSize(width: 750, height: 1024))   // 1420 × 1938 upright, longest side 1024
    }
}
