@testable import AdjustKit
import Foundation
import XCTest
import XMPParse

/// `Provenance`: the digest, its XMP form in JPEG and PNG outputs, and reading it back.
final class ProvenanceTests: XCTestCase {
    private let sample = Provenance(tool: "adjust 9.9.9", originalDigest: String(repeating: "ab", count: 32),
                                    editKind: "sidecar", editDigest: String(repeating: "cd", count: 32),
                                    options: "size=full format=jpeg quality=90 a&b<c>\"d\"", originalPath: "../photos/IMG_0001.JPG")

    // MARK: SHA-256

    /// FIPS 180-4's examples (NIST "SHA256.pdf", "SHA256ShortMsg"): values from the standard, not from this code.
    func testSHA256MatchesTheNISTExamples() {
        XCTAssertEqual(SHA256.hex(of: Array("abc".utf8)),
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: [UInt8]()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // One million "a", fed in uneven pieces so that blocks straddle the calls.
        var hash = SHA256()
        var fed = 0
        for piece in [1, 63, 64, 65, 127, 1000, 4096].cycled(until: 1_000_000) {
            let count = min(piece, 1_000_000 - fed)
            hash.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
            fed += count
        }
        XCTAssertEqual(hash.finish().hexString, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every padding length (0…129 bytes) against coreutils' `sha256sum`, an independent implementation.
    func testSHA256AgreesWithSha256sumOnFiles() throws {
        let scratch = try ScratchFolder.make("adjust-sha")
        defer { ScratchFolder.remove(scratch) }
        var paths: [String] = []
        for length in Array(0...129) + [1 << 20, (1 << 20) + 17] {
            let path = scratch.appendingPathComponent("f\(length)").path
            try Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        paths.append(TestFixtures.image("iphone4s-2592x1936.jpg"))
        let run = try BinaryRun.run("/usr/bin/sha256sum", paths)
        XCTAssertEqual(run.status, 0, run.stderr)
        let expected = run.stdout.split(separator: "\n").map { String($0.prefix(64)) }
        XCTAssertEqual(expected.count, paths.count)
        for (path, digest) in zip(paths, expected) {
            XCTAssertEqual(try SHA256.hex(ofFileAt: path), digest, path)
        }
    }

    // MARK: XMP

    func testTheStandalonePacketParsesBackToTheSameProvenance() throws {
        let parsed = try XMPPacketParser.parse(sample.standalonePacket)
        XCTAssertEqual(Provenance(packet: parsed), sample)
        var noEdit = sample
        noEdit.editKind = "none"
        noEdit.editDigest = nil
        XCTAssertEqual(Provenance(packet: try XMPPacketParser.parse(noEdit.standalonePacket)), noEdit)
        XCTAssertNil(Provenance(packet: try XMPPacketParser.parse(Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:adjust="\(Provenance.namespace)" adjust:Tool="adjust 1"/>
            </rdf:RDF></x:xmpmeta>
            """.utf8))), "an incomplete provenance is none")
    }

    func testChangeSaysWhatDiffersAndIgnoresWhereTheOriginalIs() {
        var other = sample
        other.originalPath = "../../elsewhere/IMG_0001.JPG"
        XCTAssertNil(sample.change(since: other))
        other.options = "size=max-size:1024"
        XCTAssertEqual(sample.change(since: other), "options changed")
        other.editDigest = nil
        XCTAssertEqual(sample.change(since: other), "edit changed")
        other.originalDigest = "00"
        XCTAssertEqual(sample.change(since: other), "original changed")
        other.tool = "adjust 0.0.1"
        XCTAssertEqual(sample.change(since: other), "tool changed (adjust 0.0.1 → adjust 9.9.9)")
    }

    /// The original's XMP is kept (its aas edit and an earlier render's provenance removed) and the
    /// provenance added beside it; with --strip-metadata the provenance is the only metadata.
    func testCarryOverMergesTheProvenanceIntoTheOriginalsXMP() throws {
        let earlier = Provenance(tool: "adjust 0.0.1", originalDigest: "11", editKind: "none", editDigest: nil,
                                 options: "old", originalPath: "x.jpg")
        let originalXMP = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:aas="http://ns.apple.com/adjustment-settings/1.0/"
              aas:Version="1"><dc:format>image/jpeg</dc:format></rdf:Description>
            <rdf:Description rdf:about="" xmlns:adjust="\(Provenance.namespace)" adjust:Tool="\(earlier.tool)"
              adjust:OriginalDigest="sha256:11" adjust:EditKind="none" adjust:Options="old" adjust:OriginalPath="x.jpg"/>
            </rdf:RDF></x:xmpmeta>
            """
        let original = try jpeg(withXMP: Array(originalXMP.utf8))
        let encoded = try smallJPEG()
        let options = MetadataOptions(provenance: sample)
        let (merged, warnings) = MetadataCarryOver.carryOver(from: original, into: encoded, outputSize: PixelSize(width: 8, height: 8),
                                                             options: options)
        XCTAssertEqual(warnings, [])
        let packet = try XCTUnwrap(try JPEGSegments.xmpPacket(in: merged))
        let parsed = try XMPPacketParser.parse(packet)
        XCTAssertEqual(Provenance(packet: parsed), sample)
        XCTAssertEqual(parsed[namespace: "http://purl.org/dc/elements/1.1/", name: "format"], .text("image/jpeg"))
        XCTAssertFalse(parsed.hasProperties(inNamespace: "http://ns.apple.com/adjustment-settings/1.0/"))
        XCTAssertEqual(String(decoding: packet, as: UTF8.self).components(separatedBy: "adjust:Tool=").count, 2,
                       "one provenance: the earlier render's is gone")

        let stripped = MetadataCarryOver.carryOver(from: original, into: encoded, outputSize: PixelSize(width: 8, height: 8),
                                                   options: MetadataOptions(stripAll: true, provenance: sample)).jpeg
        let strippedPacket = try XMPPacketParser.parse(try XCTUnwrap(try JPEGSegments.xmpPacket(in: stripped)))
        XCTAssertEqual(Provenance(packet: strippedPacket), sample)
        XCTAssertEqual(strippedPacket.properties.count, 6, "the provenance's six properties and nothing else")
        XCTAssertNil(try JPEGSegments.exifPayload(in: stripped))
    }

    /// The PNG chunk: libpng still decodes the file (it checks every chunk's CRC) to the same pixels,
    /// and the packet reads back.
    func testAPNGCarriesTheProvenanceInAnITXtChunk() throws {
        let image = RGBA8Image(size: PixelSize(width: 3, height: 2), pixels: (0..<24).map { UInt8($0 * 10) })
        let png = try PNGCodec.encode(image)
        let withChunk = PNGXMPChunk.inserting(sample.standalonePacket, into: png)
        XCTAssertEqual(try PNGCodec.decode(withChunk), try PNGCodec.decode(png))
        let packet = try XCTUnwrap(PNGXMPChunk.packet(in: withChunk))
        XCTAssertEqual(Provenance(packet: try XMPPacketParser.parse(packet)), sample)
        XCTAssertNil(PNGXMPChunk.packet(in: png))
    }

    func testRecordedProvenanceOfWholeTruncatedAndForeignFiles() throws {
        let scratch = try ScratchFolder.make("adjust-provenance")
        defer { ScratchFolder.remove(scratch) }
        let whole = MetadataCarryOver.carryOver(from: try smallJPEG(), into: try smallJPEG(),
                                                outputSize: PixelSize(width: 8, height: 8),
                                                options: MetadataOptions(provenance: sample)).jpeg
        let paths = ["whole.jpg", "truncated.jpg", "plain.jpg", "text.jpg"].map { scratch.appendingPathComponent($0).path }
        try Data(whole).write(to: URL(fileURLWithPath: paths[0]))
        try Data(whole.dropLast(40)).write(to: URL(fileURLWithPath: paths[1]))
        try Data(try smallJPEG()).write(to: URL(fileURLWithPath: paths[2]))
        try Data("not an image at all".utf8).write(to: URL(fileURLWithPath: paths[3]))
        XCTAssertEqual(Provenance.recorded(inOutputAt: paths[0]), .recorded(sample))
        XCTAssertEqual(Provenance.recorded(inOutputAt: paths[1]), .incomplete)
        XCTAssertEqual(Provenance.recorded(inOutputAt: paths[2]), RecordedProvenance.none)
        XCTAssertEqual(Provenance.recorded(inOutputAt: paths[3]), .incomplete)
        guard case .unreadable = Provenance.recorded(inOutputAt: scratch.appendingPathComponent("missing.jpg").path) else {
            return XCTFail("a missing file is unreadable")
        }
    }

    // MARK: helpers

    private func smallJPEG() throws -> [UInt8] {
        try JPEGEncoder.encode(RGBA8Image(size: PixelSize(width: 8, height: 8), pixels: [UInt8](repeating: 128, count: 256)), quality: 90)
    }

    /// A small JPEG with `packet` as its standard XMP APP1, right after SOI.
    private func jpeg(withXMP packet: [UInt8]) throws -> [UInt8] {
        let body = try smallJPEG()
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + packet
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + body.dropFirst(2)
    }
}

private extension Array where Element == Int {
    /// The elements repeated in order until their sum reaches `total`.
    func cycled(until total: Int) -> [Int] {
        var result: [Int] = [], sum = 0, index = 0
        while sum < total { result.append(self[index % count]); sum += self[index % count]; index += 1 }
        return result
    }
}
