import Foundation
import XCTest
@testable import AdjustKit

/// Metadata carry-over into rendered JPEGs, checked with exiftool (skipped where it is missing)
/// and by walking the segments directly.
final class MetadataCarryOverTests: XCTestCase {
    private static let aasURI = "http://ns.apple.com/adjustment-settings/1.0/"
    private static let outputSize = PixelSize(width: 64, height: 48)

    private var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("metadata-carry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
    }

    // MARK: - Fixtures

    /// An XMP packet with aas properties (attribute and element form, a red-eye struct), a crs
    /// mirror, a rating, a stale tiff:Orientation and an xmpNote:HasExtendedXMP.
    private static let xmpPacket = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:aas="\(aasURI)" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
              xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
              xmlns:xmpNote="http://ns.adobe.com/xmp/note/"
              aas:AffineA="1" aas:AffineB="0" xmp:Rating="4" crs:AlreadyApplied="False" tiff:Orientation="6"
              xmpNote:HasExtendedXMP="0123456789ABCDEF0123456789ABCDEF">
           <aas:Version>1</aas:Version>
           <aas:Filters><rdf:Seq><rdf:li>CIRedEyeCorrections</rdf:li></rdf:Seq></aas:Filters>
           <xmp:CreatorTool>unit test</xmp:CreatorTool>
          </rdf:Description>
          <rdf:Description rdf:about="" xmlns:aas="\(aasURI)">
           <aas:CropX>12</aas:CropX>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    /// A minimal but well-formed ICC profile: 128-byte header, one tag; padding bytes of padding so
    /// that it splits into two chunks below.
    private static let iccProfile: [UInt8] = {
        var profile = [UInt8](repeating: 0, count: 732)
        let size = UInt32(profile.count)
        profile[0...3] = [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        profile[4..<8] = ArraySlice("none".utf8)
        profile[8...11] = [0x02, 0x10, 0, 0]
        profile[12..<16] = ArraySlice("mntr".utf8)
        profile[16..<20] = ArraySlice("RGB ".utf8)
        profile[20..<24] = ArraySlice("XYZ ".utf8)
        profile[36..<40] = ArraySlice("acsp".utf8)
        // One tag, so that readers do not call the table bad: cprt, a `text` of "ok".
        profile[128...131] = [0, 0, 0, 1]
        profile[132..<136] = ArraySlice("cprt".utf8)
        profile[136...143] = [0, 0, 0, 144, 0, 0, 0, 11]
        profile[144..<155] = ArraySlice("text\0\0\0\0ok\0".utf8)
        for index in 156..<profile.count { profile[index] = UInt8(index & 0xFF) }
        return profile
    }()

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        JPEGHeaderSegments.segment(marker: marker, payload: payload)
    }

    /// The ICC profile as two APP2 chunks, written in reverse order (carry-over sorts them).
    private static var iccSegments: [[UInt8]] {
        let signature = Array("ICC_PROFILE\0".utf8)
        let first = Array(iccProfile[..<400]), second = Array(iccProfile[400...])
        return [segment(0xE2, signature + [2, 2] + second), segment(0xE2, signature + [1, 2] + first)]
    }

    /// Inserts `segments` right after the original's first APP1 (its EXIF).
    private static func inserting(_ segments: [[UInt8]], into jpeg: [UInt8]) throws -> [UInt8] {
        let walked = try XCTUnwrap(JPEGHeaderSegments.walk(jpeg))
        let exif = try XCTUnwrap(walked.first { $0.marker == 0xE1 })
        return Array(jpeg[..<exif.range.upperBound]) + segments.flatMap { $0 } + Array(jpeg[exif.range.upperBound...])
    }

    /// The iPhone 4S fixture (EXIF orientation 6, Make/Model/DateTimeOriginal, IFD1 thumbnail)
    /// with GPS added by exiftool, plus an aas XMP packet, a two-chunk ICC profile, Extended XMP,
    /// an MPF APP2 and a Photoshop APP13.
    private func preparedOriginal() throws -> (path: String, bytes: [UInt8]) {
        let withGPS = workDirectory.appendingPathComponent("gps.jpg").path
        try FileManager.default.copyItem(atPath: TestFixtures.image("iphone4s-2592x1936.jpg"), toPath: withGPS)
        _ = try exiftool(["-q", "-overwrite_original", "-GPSLatitude=37.33182", "-GPSLatitudeRef=N",
                          "-GPSLongitude=122.03118", "-GPSLongitudeRef=W", "-GPSAltitude=12.5",
                          "-GPSAltitudeRef=0", "-GPSTimeStamp=15:53:03", withGPS])
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(Self.xmpPacket.utf8)
        let extended = Array("http://ns.adobe.com/xmp/extension/\0".utf8) + Array("0123456789ABCDEF0123456789ABCDEF".utf8)
            + [0, 0, 0, 4, 0, 0, 0, 0] + Array("<x/>".utf8)
        let mpf = Array("MPF\0".utf8) + [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0]
        let photoshop = Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, 0]
        let bytes = try Self.inserting([Self.segment(0xE1, xmp), Self.segment(0xE1, extended)] + Self.iccSegments
                                       + [Self.segment(0xE2, mpf), Self.segment(0xED, photoshop)],
                                       into: TestFixtures.bytes(withGPS))
        let path = workDirectory.appendingPathComponent("original.jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    private static func encodedImage() throws -> [UInt8] {
        var image = RGBA8Image(size: outputSize)
        for index in 0..<outputSize.pixelCount {
            image.pixels[index * 4] = UInt8(index % 256)
            image.pixels[index * 4 + 1] = 128
            image.pixels[index * 4 + 2] = UInt8((index / 64) * 4 % 256)
            image.pixels[index * 4 + 3] = 255
        }
        return try JPEGEncoder.encode(image, quality: 90)
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = workDirectory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: - exiftool

    private static let exiftoolPath: String? = {
        for directory in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        where FileManager.default.isExecutableFile(atPath: directory + "/exiftool") {
            return directory + "/exiftool"
        }
        return nil
    }()

    /// Runs exiftool and returns its stdout; fails the test on a non-zero exit.
    @discardableResult
    private func exiftool(_ arguments: [String]) throws -> Data {
        guard let path = Self.exiftoolPath else { throw XCTSkip("exiftool is not installed") }
        let run = try BinaryRun.run(path, arguments)
        XCTAssertEqual(run.status, 0, "exiftool \(arguments.joined(separator: " "))")
        return run.output
    }

    private func text(_ arguments: [String]) throws -> String {
        String(decoding: try exiftool(arguments), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func requireExiftool() throws {
        if Self.exiftoolPath == nil { throw XCTSkip("exiftool is not installed") }
    }

    // MARK: - Tests with exiftool

    func testCarriesEXIFXMPAndICCRewrittenForTheRender() throws {
        try requireExiftool()
        let original = try preparedOriginal()
        XCTAssertEqual(try text(["-n", "-s3", "-Orientation", original.path]), "6")
        XCTAssertFalse(try exiftool(["-b", "-ThumbnailImage", original.path]).isEmpty)

        let encoded = try Self.encodedImage()
        let (jpeg, warnings) = MetadataCarryOver.carryOver(from: original.bytes, into: encoded,
                                                           outputSize: Self.outputSize, options: MetadataOptions())
        XCTAssertEqual(warnings, ["metadata: Extended XMP is not carried over; dropped"])
        let output = try write(jpeg, "out.jpg")

        // Still a valid JPEG of the output size, JFIF first.
        XCTAssertEqual(try JPEGDecoder().decode(jpeg).size, Self.outputSize)
        let segments = try XCTUnwrap(JPEGHeaderSegments.walk(jpeg))
        XCTAssertEqual(segments.first?.marker, 0xE0)
        XCTAssertEqual(segments.map(\.marker).prefix(5), [0xE0, 0xE1, 0xE1, 0xE2, 0xE2])

        // EXIF: upright, output size, no thumbnail, the rest byte-identical.
        XCTAssertEqual(try text(["-n", "-s3", "-EXIF:Orientation", output]), "1")
        XCTAssertEqual(try text(["-n", "-s3", "-ExifImageWidth", output]), "64")
        XCTAssertEqual(try text(["-n", "-s3", "-ExifImageHeight", output]), "48")
        XCTAssertTrue(try exiftool(["-b", "-ThumbnailImage", output]).isEmpty)
        XCTAssertFalse(try text(["-a", "-G1", "-s", "-EXIF:all", output]).contains("[IFD1]"))
        let kept = ["Make", "Model", "DateTimeOriginal", "CreateDate", "ModifyDate", "Software", "ExposureTime",
                    "FNumber", "SubjectArea", "GPSVersionID", "GPSLatitude", "GPSLatitudeRef", "GPSLongitude",
                    "GPSLongitudeRef", "GPSAltitude", "GPSAltitudeRef", "GPSTimeStamp"]
        for tag in kept {
            let before = try exiftool(["-b", "-n", "-" + tag, original.path])
            XCTAssertFalse(before.isEmpty, "\(tag) missing from the prepared original")
            XCTAssertEqual(try exiftool(["-b", "-n", "-" + tag, output]), before, tag)
            XCTAssertEqual(try exiftool(["-b", "-" + tag, output]), try exiftool(["-b", "-" + tag, original.path]), tag)
        }
        XCTAssertEqual(try text(["-s3", "-Make", output]), "Apple")
        XCTAssertEqual(try text(["-s3", "-Model", output]), "iPhone 4S")
        XCTAssertEqual(try text(["-s3", "-Warning", output]), "")

        // XMP: no aas, the rest kept, stale orientation fixed.
        let xmpTags = try text(["-a", "-G1", "-s", "-XMP:all", output])
        XCTAssertFalse(xmpTags.contains("[XMP-aas]"), xmpTags)
        XCTAssertTrue(try text(["-a", "-G1", "-s", "-XMP:all", original.path]).contains("[XMP-aas]"))
        XCTAssertEqual(try text(["-s3", "-XMP-xmp:Rating", output]), "4")
        XCTAssertEqual(try text(["-s3", "-XMP-xmp:CreatorTool", output]), "unit test")
        XCTAssertEqual(try text(["-s3", "-XMP-crs:AlreadyApplied", output]), "False")
        XCTAssertEqual(try text(["-n", "-s3", "-XMP-tiff:Orientation", output]), "1")
        XCTAssertEqual(try text(["-s3", "-XMP-xmpNote:HasExtendedXMP", output]), "")
        let packet = String(decoding: try exiftool(["-b", "-XMP", output]), as: UTF8.self)
        XCTAssertFalse(packet.contains(Self.aasURI), packet)
        XCTAssertFalse(packet.contains("aas:"), packet)
        XCTAssertTrue(packet.hasPrefix("<?xpacket begin="), packet)
        XCTAssertTrue(packet.hasSuffix("<?xpacket end=\"w\"?>"), packet)

        // ICC: byte-identical, chunks in order.
        XCTAssertEqual([UInt8](try exiftool(["-b", "-ICC_Profile", output])), Self.iccProfile)
        let icc = segments.filter { $0.marker == 0xE2 && $0.payload.starts(with: Array("ICC_PROFILE\0".utf8)) }
        XCTAssertEqual(icc.map { Array(Self.segment(0xE2, Array($0.payload))) }, Self.iccSegments.reversed())

        // Dropped: MPF, Photoshop/IPTC, Extended XMP.
        XCTAssertEqual(try text(["-MPF:all", "-Photoshop:all", output]), "")
        XCTAssertFalse(segments.contains { $0.marker == 0xED })
        XCTAssertFalse(segments.contains { $0.payload.starts(with: Array("http://ns.adobe.com/xmp/extension/".utf8)) })
        XCTAssertEqual(segments.filter { $0.marker == 0xE2 }.count, 2)
    }

    func testStripGPSDropsEveryGPSTagAndKeepsTheRest() throws {
        try requireExiftool()
        let original = try preparedOriginal()
        XCTAssertFalse(try text(["-GPS:all", original.path]).isEmpty)
        let (jpeg, _) = MetadataCarryOver.carryOver(from: original.bytes, into: try Self.encodedImage(),
                                                    outputSize: Self.outputSize, options: MetadataOptions(stripGPS: true))
        let output = try write(jpeg, "nogps.jpg")
        XCTAssertEqual(try text(["-a", "-G1", "-s", "-GPS:all", output]), "")
        XCTAssertFalse(try text(["-a", "-s", "-all", output]).contains("GPS"))
        for tag in ["Make", "Model", "DateTimeOriginal"] {
            XCTAssertEqual(try exiftool(["-b", "-" + tag, output]), try exiftool(["-b", "-" + tag, original.path]), tag)
        }
        XCTAssertEqual(try text(["-n", "-s3", "-Orientation", output]), "1")
        XCTAssertEqual(try text(["-s3", "-Warning", output]), "")
    }

    func testStripAllCarriesNothing() throws {
        try requireExiftool()
        let original = try preparedOriginal()
        let encoded = try Self.encodedImage()
        let (jpeg, warnings) = MetadataCarryOver.carryOver(from: original.bytes, into: encoded, outputSize: Self.outputSize,
                                                           options: MetadataOptions(stripGPS: false, stripAll: true))
        XCTAssertEqual(jpeg, encoded)
        XCTAssertEqual(warnings, [])
        let output = try write(jpeg, "bare.jpg")
        XCTAssertEqual(try text(["-EXIF:all", "-XMP:all", "-ICC_Profile:all", "-GPS:all", output]), "")
    }

    /// The bundled fixture as it is (no GPS, no XMP, no ICC): EXIF only, and a Canon (little
    /// endian, vendor MakerNote) photo for a second byte order.
    func testPlainCameraFilesKeepTheirTags() throws {
        try requireExiftool()
        for name in ["iphone4s-2592x1936.jpg", "canon-a85.jpg"] {
            let path = TestFixtures.image(name)
            let (jpeg, warnings) = MetadataCarryOver.carryOver(from: try TestFixtures.bytes(path), into: try Self.encodedImage(),
                                                               outputSize: Self.outputSize, options: MetadataOptions())
            XCTAssertEqual(warnings, [], name)
            let output = try write(jpeg, "plain-" + name)
            for tag in ["Make", "Model", "DateTimeOriginal", "ExposureTime", "FNumber", "ISO", "FocalLength"] {
                let before = try exiftool(["-b", "-" + tag, path])
                if before.isEmpty { continue }
                XCTAssertEqual(try exiftool(["-b", "-" + tag, output]), before, "\(name) \(tag)")
            }
            XCTAssertFalse(try exiftool(["-b", "-Make", output]).isEmpty, name)
            XCTAssertEqual(try text(["-n", "-s3", "-ExifImageWidth", "-ExifImageHeight", output]), "64\n48", name)
            XCTAssertTrue(try exiftool(["-b", "-ThumbnailImage", output]).isEmpty, name)
            XCTAssertEqual(try text(["-XMP:all", "-ICC_Profile:all", output]), "", name)
            let orientation = try text(["-n", "-s3", "-Orientation", output])
            XCTAssertTrue(orientation == "1" || orientation.isEmpty, "\(name): orientation \(orientation)")
        }
    }

    // MARK: - Without exiftool

    private static func app1XMP(_ packet: String) -> [UInt8] {
        segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(packet.utf8))
    }

    private static func minimalOriginal(_ segments: [[UInt8]]) -> [UInt8] {
        [0xFF, 0xD8] + segments.flatMap { $0 } + [0xFF, 0xD9]
    }

    private static func xmpSegments(of jpeg: [UInt8]) -> [String] {
        (JPEGHeaderSegments.walk(jpeg) ?? []).filter {
            $0.marker == 0xE1 && $0.payload.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8))
        }.map { String(decoding: $0.payload.dropFirst(29), as: UTF8.self) }
    }

    func testXMPWithOnlyAdjustmentsIsDropped() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:aas="\(Self.aasURI)" aas:AffineA="1"><aas:Version>1</aas:Version>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let encoded = try Self.encodedImage()
        let (jpeg, warnings) = MetadataCarryOver.carryOver(from: Self.minimalOriginal([Self.app1XMP(packet)]), into: encoded,
                                                           outputSize: Self.outputSize, options: MetadataOptions())
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(jpeg, encoded)
    }

    func testXMPWithoutAdjustmentsIsCarriedByteIdentical() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"   xmp:Rating='3'/></rdf:RDF></x:xmpmeta>
            """
        let (jpeg, warnings) = MetadataCarryOver.carryOver(from: Self.minimalOriginal([Self.app1XMP(packet)]),
                                                           into: try Self.encodedImage(), outputSize: Self.outputSize,
                                                           options: MetadataOptions())
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(Self.xmpSegments(of: jpeg), [packet])
    }

    func testNestedAndNonAdjustmentPropertiesSurviveRemoval() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:aas="\(Self.aasURI)" xmlns:dc="http://purl.org/dc/elements/1.1/"
             xmlns:exif="http://ns.adobe.com/exif/1.0/">
            <aas:RedEye><rdf:Seq><rdf:li rdf:parseType="Resource"><aas:p>1</aas:p></rdf:li></rdf:Seq></aas:RedEye>
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Caf\u{E9}</rdf:li></rdf:Alt></dc:title>
            <exif:PixelXDimension>2592</exif:PixelXDimension></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let (jpeg, warnings) = MetadataCarryOver.carryOver(from: Self.minimalOriginal([Self.app1XMP(packet)]),
                                                           into: try Self.encodedImage(), outputSize: Self.outputSize,
                                                           options: MetadataOptions())
        XCTAssertEqual(warnings, [])
        let carried = try XCTUnwrap(Self.xmpSegments(of: jpeg).first)
        XCTAssertFalse(carried.contains("aas"), carried)
        XCTAssertTrue(carried.contains("<rdf:li xml:lang=\"x-default\">Caf\u{E9}</rdf:li>"), carried)
        XCTAssertTrue(carried.contains("<exif:PixelXDimension>64</exif:PixelXDimension>"), carried)
        XCTAssertFalse(carried.hasPrefix("<?xml"), carried)
    }

    func testHostileOrBrokenMetadataIsDroppedWithWarnings() throws {
        let encoded = try Self.encodedImage()
        let doctype = """
            <!DOCTYPE x [<!ENTITY e "aaaa">]><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF \
            xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
            xmlns:aas="\(Self.aasURI)" aas:A="&e;"/></rdf:RDF></x:xmpmeta>
            """
        let broken = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF>"
        let badExif = Self.segment(0xE1, Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0x00, 0x2A, 0xFF, 0xFF, 0xFF, 0xF0, 1, 2, 3])
        let truncatedICC = Self.segment(0xE2, Array("ICC_PROFILE\0".utf8) + [2, 2] + [1, 2, 3])
        for (segments, expected) in [
            ([Self.app1XMP(doctype)], "DOCTYPE"),
            ([Self.app1XMP(broken)], "well-formed"),
            ([badExif], "EXIF dropped"),
            ([truncatedICC], "ICC profile dropped"),
        ] {
            let (jpeg, warnings) = MetadataCarryOver.carryOver(from: Self.minimalOriginal(segments), into: encoded,
                                                               outputSize: Self.outputSize, options: MetadataOptions())
            XCTAssertEqual(jpeg, encoded, expected)
            XCTAssertEqual(warnings.count, 1, expected)
            XCTAssertTrue(warnings.first?.contains(expected) ?? false, "\(warnings)")
        }
        let (jpeg, warnings) = MetadataCarryOver.carryOver(from: [0xFF, 0xD8, 0xFF, 0xE1, 0x40], into: encoded,
                                                           outputSize: Self.outputSize, options: MetadataOptions())
        XCTAssertEqual(jpeg, encoded)
        XCTAssertEqual(warnings.count, 1)
    }
}
