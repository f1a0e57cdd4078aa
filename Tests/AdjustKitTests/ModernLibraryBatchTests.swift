import AdjustKit
import Foundation
import XCTest

/// `adjust batch` over what an iCloud download or a Photos export holds (docs/spec/aae-format.md
/// §1): an original with its `.AAE`, Apple's own render `IMG_E…` beside it, and a HEIC.
final class ModernLibraryBatchTests: XCTestCase {
    func testOriginalsWithAAEAndAppleRendersAndHEIC() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adjust-modern-\(UUID())")
        let photos = folder.appendingPathComponent("photos"), out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func copy(_ fixture: String, _ name: String) throws {
            try FileManager.default.copyItem(atPath: TestFixtures.path(fixture), toPath: photos.appendingPathComponent(name).path)
        }
        try copy("Fixtures/images/Landscape_1.jpg", "IMG_0001.JPG")
        try copy("Fixtures/images/Landscape_3.jpg", "IMG_E0001.JPG")
        try copy("Fixtures/heic/cheers-1440x960.heic", "IMG_0002.HEIC")
        let crop = AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":100,"yOrigin":50,"width":640,"height":480}"#)
        let aae = AAEBuilder.plist(data: AAEBuilder.deflate(Array(AAEBuilder.payload([crop], masterWidth: 1800, masterHeight: 1200).utf8)),
                                   format: .binary)
        try Data(aae).write(to: photos.appendingPathComponent("IMG_0001.AAE"))

        let run = try BinaryRun.run(CLITests.binary, ["batch", photos.path, "--out", out.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let records = lines.filter { $0["input"] != nil }
        XCTAssertEqual(records.count, 2, "one record per photo; Apple's render is not a photo: \(run.stdout)")
        let byName = Dictionary(uniqueKeysWithValues: records.map { (($0["input"] as! NSString).lastPathComponent, $0) })
        XCTAssertEqual(byName["IMG_0001.JPG"]?["status"] as? String, "ok")
        XCTAssertEqual(byName["IMG_0001.JPG"]?["edit"] as? String, "aae")
        XCTAssertEqual(byName["IMG_0001.JPG"]?["size"] as? [Int], [640, 480])
        XCTAssertEqual(byName["IMG_0002.HEIC"]?["status"] as? String, "no-edit")
        XCTAssertEqual(byName["IMG_0002.HEIC"]?["size"] as? [Int], [1440, 960])
        XCTAssertNil(byName["IMG_E0001.JPG"])
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(written, ["IMG_0001.jpg", "IMG_0002.heic"], "an unedited HEIC, nothing asked: kept HEIC (issue 29)")
        XCTAssertEqual(try TestFixtures.bytes(out.appendingPathComponent("IMG_0002.heic").path),
                       try TestFixtures.bytes(photos.appendingPathComponent("IMG_0002.HEIC").path))
        XCTAssertTrue(run.stderr.contains("2 files: 1 ok, 1 without edits, 0 skipped, 0 failed"), run.stderr)
    }
}
