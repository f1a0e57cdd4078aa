import Foundation
import XCTest
@testable import AdjustKit

/// `LibraryMetadataXMP` and `JPEGCopyXMP` on their own: the file's properties Photos replaces are
/// replaced (never doubled), the rest kept, text escaped, the picture's bytes untouched; read back
/// with exiftool.
final class LibraryMetadataXMPTests: XCTestCase {
    private var scratch: URL!
    override func setUpWithError() throws { scratch = try ScratchFolder.make("library-xmp") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    /// A JPEG whose XMP has a title, a rating and a creator of its own.
    private func jpegWithXMP() throws -> [UInt8] {
        let original = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let packet = Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="2">
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Camera title</rdf:li></rdf:Alt></dc:title>
            <dc:creator><rdf:Seq><rdf:li>Someone</rdf:li></rdf:Seq></dc:creator>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
        let segment = JPEGHeaderSegments.segment(marker: 0xE1, payload: Array("http://ns.adobe.com/xap/1.0/\0".utf8) + packet)
        return Array(original[..<2]) + segment + Array(original[2...])
    }

    private func exiftool(_ bytes: [UInt8]) throws -> [String: Any] {
        let file = scratch.appendingPathComponent("\(UUID().uuidString).jpg")
        try Data(bytes).write(to: file)
        let run = try BinaryRun.run("/usr/bin/env", ["exiftool", "-j", "-G1", "-n", file.path])
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stderr)
        return try XCTUnwrap(objects.first)
    }

    func testACopyReplacesWhatPhotosHoldsAndKeepsTheRest() throws {
        var values = PhotosAssetMetadata()
        values.title = "Fixed <in> Photos & \u{1}co"
        values.isFavorite = true
        values.created = 654_894_900.417   // 2021-10-02 19:15:00.417 UTC
        values.timeZoneOffset = -14_400
        values.latitude = -34.91889167
        values.longitude = 138.59686167
        let original = try jpegWithXMP()
        let copy = try XCTUnwrap(JPEGCopyXMP.copy(original, with: LibraryMetadataXMP(values, includesPlace: true)))
        XCTAssertEqual(LibraryMetadataTests.entropyCodedData(copy), LibraryMetadataTests.entropyCodedData(original))
        let tags = try exiftool(copy)
        XCTAssertEqual(tags["XMP-dc:Title"] as? String, "Fixed <in> Photos & co", "replaced, escaped, no control character")
        XCTAssertEqual(tags["XMP-xmp:Rating"] as? Int, 5)
        XCTAssertEqual(tags["XMP-dc:Creator"] as? String, "Someone", "the file's other properties stay")
        XCTAssertEqual(tags["XMP-photoshop:DateCreated"] as? String, "2021:10:02 15:15:00-04:00")
        XCTAssertEqual(tags["XMP-exif:GPSLatitude"] as? Double ?? .nan, -34.91889167, accuracy: 1e-8)
        XCTAssertEqual(tags["XMP-exif:GPSLongitude"] as? Double ?? .nan, 138.59686167, accuracy: 1e-8)
        // One title, one rating: the file's own are gone, not doubled.
        let text = String(decoding: copy, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "<dc:title>").count, 2, text)
        XCTAssertFalse(text.contains("Camera title"))
        XCTAssertFalse(text.contains("xmp:Rating=\"2\""))

        // Without the place (--strip-gps), and no value Photos does not hold.
        let noPlace = try XCTUnwrap(JPEGCopyXMP.copy(original, with: LibraryMetadataXMP(values, includesPlace: false)))
        XCTAssertNil(try exiftool(noPlace)["XMP-exif:GPSLatitude"])
    }

    /// A Canon JPEG (its MakerNote's offsets count from the TIFF header): the EXIF date is
    /// overwritten in place — the segment differs from the original's in those 19 bytes only.
    func testTheEXIFDateIsOverwrittenInPlace() throws {
        let original = try TestFixtures.bytes(TestFixtures.image("canon-a85.jpg"))
        var values = PhotosAssetMetadata()
        values.created = 654_894_900.417
        values.timeZoneOffset = -14_400
        let copy = try XCTUnwrap(JPEGCopyXMP.copy(original, with: LibraryMetadataXMP(values, includesPlace: true)))
        func exif(_ jpeg: [UInt8]) throws -> [UInt8] {
            let segments = try XCTUnwrap(JPEGHeaderSegments.walk(jpeg))
            return Array(try XCTUnwrap(segments.first { $0.marker == 0xE1 && $0.payload.starts(with: Array("Exif\0\0".utf8)) }).payload)
        }
        let before = try exif(original), after = try exif(copy)
        XCTAssertEqual(before.count, after.count)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        XCTAssertFalse(changed.isEmpty)
        XCTAssertLessThan((changed.last ?? 0) - (changed.first ?? 0), 19, "only the 19 characters of the date: \(changed)")
        XCTAssertEqual(try exiftool(copy)["ExifIFD:DateTimeOriginal"] as? String, "2021:10:02 15:15:00")
        XCTAssertEqual(LibraryMetadataTests.entropyCodedData(copy), LibraryMetadataTests.entropyCodedData(original))
        values.timeZoneOffset = nil
        let unzoned = try XCTUnwrap(JPEGCopyXMP.copy(original, with: LibraryMetadataXMP(values, includesPlace: true)))
        XCTAssertEqual(try exif(unzoned), before, "no zone in Photos: the local time is unknown, the EXIF stays")
    }

    func testTimesWithoutAZoneAndOutOfRangeAndCoordinatesAtTheEdge() {
        var values = PhotosAssetMetadata()
        values.created = 0
        XCTAssertEqual(values.captureTime?.local, "2001-01-01T00:00:00")
        XCTAssertEqual(values.captureTime?.offset, "Z", "no offset in the database: UTC, said")
        values.created = 123_456_789_012_345   // Test-10.15.7's IMG_1693.tif
        XCTAssertNil(values.captureTime)
        values.created = -1.5
        values.timeZoneOffset = 34_200
        XCTAssertEqual(values.captureTime?.local, "2001-01-01T09:29:58", "to the second, rounded down")
        XCTAssertEqual(values.captureTime?.offset, "+09:30")
        XCTAssertEqual(LibraryMetadataXMP.coordinate(-0.1318055, positive: "E", negative: "W"), "0,7.90833W")
        XCTAssertEqual(LibraryMetadataXMP.coordinate(51.99999999999, positive: "N", negative: "S"), "52,0N")
    }
}
