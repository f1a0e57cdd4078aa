import Foundation
import XCTest

/// `adjust render` on an iPhone photo whose own XMP carries the edit, checked with exiftool:
/// the original's metadata survives, Orientation reads 1, the size is the output's, the edit is gone.
final class MetadataCLITests: XCTestCase {
    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: Data) {
        let run = try BinaryRun.run(executable, arguments)
        return (run.status, run.output)
    }

    private func tag(_ name: String, _ file: String) throws -> Data {
        try run("/usr/bin/exiftool", ["-b", "-n", "-\(name)", file]).out
    }

    func testRenderedIPhonePhotoKeepsItsMetadataWithoutTheEdit() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else {
            throw XCTSkip("exiftool is not installed (apt-get install libimage-exiftool-perl)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metadata-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("IMG_0001.jpg").path
        try FileManager.default.copyItem(atPath: TestFixtures.image("iphone4s-2592x1936.jpg"), toPath: original)
        // The real iOS 5.1.1 edit, written into the photo's own XMP, and a GPS position.
        let setup = try run("/usr/bin/exiftool", ["-q", "-overwrite_original",
            "-XMP-aas:AffineA=1", "-XMP-aas:AffineB=0", "-XMP-aas:AffineC=0", "-XMP-aas:AffineD=1",
            "-XMP-aas:AffineX=-331", "-XMP-aas:AffineY=-161", "-XMP-aas:CropX=0", "-XMP-aas:CropY=0",
            "-XMP-aas:CropW=1938", "-XMP-aas:CropH=1420", "-XMP-xmp:Rating=4",
            "-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522", "-GPSLongitudeRef=E", original])
        XCTAssertEqual(setup.status, 0)

        let rendered = folder.appendingPathComponent("out.jpg").path
        XCTAssertEqual(try run(CLITests.binary, ["render", "--unedited", "render", original, "-o", rendered]).status, 0)
        XCTAssertEqual(String(decoding: try tag("Orientation", rendered), as: UTF8.self), "1")
        XCTAssertEqual(String(decoding: try tag("ImageWidth", rendered), as: UTF8.self), "1420")
        XCTAssertEqual(String(decoding: try tag("ImageHeight", rendered), as: UTF8.self), "1938")
        XCTAssertEqual(String(decoding: try tag("ExifImageWidth", rendered), as: UTF8.self), "1420")
        for name in ["Make", "Model", "DateTimeOriginal", "GPSLatitude", "GPSLongitude", "GPSLatitudeRef"] {
            let before = try tag(name, original)
            XCTAssertFalse(before.isEmpty, name)
            XCTAssertEqual(try tag(name, rendered), before, "\(name) must survive byte-identical")
        }
        XCTAssertEqual(try tag("XMP-aas:all", rendered), Data(), "no aas properties: the edit is never applied twice")
        XCTAssertEqual(String(decoding: try tag("XMP-xmp:Rating", rendered), as: UTF8.self), "4", "other XMP is kept")

        let stripped = folder.appendingPathComponent("nogps.jpg").path
        XCTAssertEqual(try run(CLITests.binary, ["render", "--unedited", "render", original, "-o", stripped, "--strip-gps"]).status, 0)
        XCTAssertEqual(try tag("GPSLatitude", stripped), Data())
        XCTAssertEqual(try tag("Make", stripped), try tag("Make", original))
        let bare = folder.appendingPathComponent("bare.jpg").path
        XCTAssertEqual(try run(CLITests.binary, ["render", "--unedited", "render", original, "-o", bare, "--strip-metadata"]).status, 0)
        XCTAssertEqual(try tag("Make", bare), Data())
    }
}
