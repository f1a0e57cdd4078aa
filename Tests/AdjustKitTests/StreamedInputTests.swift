@testable import AdjustKit
import Foundation
import XCTest
import XMPParse

/// A render reads its original from the file as the decoder consumes it, holding only the head
/// (`OriginalImage(path:)`, `OriginalBytes`): the head must answer every question the whole file
/// did (header, orientation, embedded edit, metadata), the file source must decode exactly as the
/// bytes in memory, a file that changed after it was planned is refused, and the decode time is
/// measured.
final class StreamedInputTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws { scratch = try ScratchFolder.make("adjust-streamed") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    /// Every JPEG the fixtures hold: photos, the real-world corpus (stray bytes, damage, odd
    /// markers) and the hostile ones.
    static func fixtureJPEGs() throws -> [String] {
        var paths: [String] = []
        for folder in ["Fixtures/images", "Fixtures/real-world", "Fixtures/hostile"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: TestFixtures.path(folder))
            paths += names.filter { $0.lowercased().hasSuffix(".jpg") }.sorted().map { TestFixtures.path("\(folder)/\($0)") }
        }
        return paths
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What a header read says: the header, or the error's text.
    private func headerRead(_ bytes: [UInt8], tolerate: Bool) -> String {
        do { return "\(try JPEGDecoder(tolerateWarnings: tolerate).header(of: bytes))" } catch { return "error: \(error)" }
    }

    /// The metadata readers' view: APP1 payloads (or their error), EXIF orientation, the ICC chunks.
    private func metadataRead(_ bytes: [UInt8]) -> String {
        let app1: String
        do { app1 = "\(try JPEGSegments.app1Payloads(in: bytes).map(Array.init))" } catch { app1 = "error: \(error)" }
        let segments = JPEGHeaderSegments.walk(bytes).map { $0.map { "\($0.marker) \(Array($0.payload))" } }
        return "\(app1) \(ExifOrientation.read(inJPEG: bytes)) \(String(describing: segments))"
    }

    private func head(of bytes: [UInt8]) throws -> [UInt8] {
        try OriginalImage(path: write(bytes, "head.jpg")).source.head
    }

    // MARK: - The head answers as the whole file

    func testTheHeadAnswersAsTheWholeFileForEveryFixture() throws {
        for path in try Self.fixtureJPEGs() {
            let whole = try TestFixtures.bytes(path)
            let head = try OriginalImage(path: path).source.head
            let name = (path as NSString).lastPathComponent
            XCTAssertTrue(whole.starts(with: head), name)
            for tolerate in [false, true] {
                XCTAssertEqual(headerRead(head, tolerate: tolerate), headerRead(whole, tolerate: tolerate), "\(name) \(tolerate)")
            }
            XCTAssertEqual(metadataRead(head), metadataRead(whole), name)
        }
    }

    func testALargeJPEGHoldsOnlyItsHeader() throws {
        let path = TestFixtures.image("iphone4s-2592x1936.jpg")
        let original = try OriginalImage(path: path)
        let count = try TestFixtures.bytes(path).count
        XCTAssertEqual(original.source.count, count)
        XCTAssertEqual(original.source.path, path)
        XCTAssertLessThan(original.source.head.count, 100_000, "header segments and the margin, not \(count) bytes")
        XCTAssertEqual(original.metadataJPEG, original.source.head)
        XCTAssertEqual(try original.source.whole(), try TestFixtures.bytes(path))
    }

    /// Cut anywhere in the header (and a little past it) or with bytes changed there, a file's head
    /// reads as the whole file does: the walk agrees with libjpeg's marker reader on where the
    /// header ends, or keeps enough past it.
    func testTruncatedAndDamagedHeadersReadAsTheWholeFile() throws {
        var rng = SplitMix64(seed: 0x5EED_0014)
        for name in ["canon-a85.jpg", "Landscape_1.jpg"] {
            let clean = try TestFixtures.bytes(TestFixtures.image(name))
            let sos = try XCTUnwrap((2..<(clean.count - 1)).first { clean[$0] == 0xFF && clean[$0 + 1] == 0xDA })
            var variants: [[UInt8]] = stride(from: 0, to: sos + 300, by: max(1, sos / 97)).map { Array(clean[..<$0]) }
            variants += (1...6).map { Array(clean[..<(sos + $0)]) }
            let poisons: [UInt8] = [0x00, 0x01, 0x02, 0xFF, 0xD8, 0xD9, 0xDA, 0xDB, 0xC0, 0xC4, 0xE1, 0xFE]
            for _ in 0..<120 {
                var damaged = clean
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    let at = Int(rng.next() % UInt64(sos + 200))
                    damaged[at] = rng.next() % 2 == 0 ? poisons[Int(rng.next() % UInt64(poisons.count))] : UInt8(truncatingIfNeeded: rng.next())
                }
                variants.append(damaged)
            }
            for (index, whole) in variants.enumerated() {
                let head = try head(of: whole)
                XCTAssertTrue(whole.starts(with: head))
                for tolerate in [false, true] {
                    XCTAssertEqual(headerRead(head, tolerate: tolerate), headerRead(whole, tolerate: tolerate),
                                   "\(name) variant \(index), \(whole.count) bytes, tolerate \(tolerate)")
                }
                XCTAssertEqual(metadataRead(head), metadataRead(whole), "\(name) variant \(index)")
            }
        }
    }

    // MARK: - The file source decodes as memory does

    /// What a region decode gives: the rows and the warnings, or the error.
    private func regionDecode(_ open: () throws -> JPEGRegionReader) -> String {
        do {
            let reader = try open()
            var rows = [UInt8](repeating: 0, count: reader.width * 3 * (reader.decodedSize.height - reader.nextRow))
            let count = reader.decodedSize.height - reader.nextRow
            try rows.withUnsafeMutableBufferPointer { try reader.readRows(into: $0.baseAddress!, stride: reader.width * 3, count: count) }
            return "\(reader.columnOffset) \(reader.width) \(rows.hashValue) \(rows.count) \(reader.warnings)"
        } catch {
            return "error: \(error)"
        }
    }

    func testTheFileSourceDecodesAsMemory() throws {
        for path in try Self.fixtureJPEGs() {
            let name = (path as NSString).lastPathComponent
            let whole = try TestFixtures.bytes(path)
            guard let header = try? JPEGDecoder(tolerateWarnings: true).header(of: whole),
                  header.size.pixelCount <= 6_000_000 else { continue }
            let head = try OriginalImage(path: path).source.head
            let size = header.size
            let regions: [(DecodeScale, Range<Int>?, Int)] = [
                (.full, nil, 0),
                (DecodeScale(numerator: 2)!, (size.width / 8)..<max(size.width / 8 + 1, size.width / 4), size.height / 8),
            ]
            for tolerate in [false, true] {
                for (scale, columns, firstRow) in regions {
                    let memory = regionDecode {
                        try JPEGRegionReader(jpeg: whole, scale: scale, columns: columns, firstRow: firstRow, tolerateWarnings: tolerate)
                    }
                    for bufferSize in [65536, 0] {
                        let file = try OpenInputFile(path)
                        let streamed = regionDecode {
                            try JPEGRegionReader(file: file, head: head, bufferSize: bufferSize, scale: scale, columns: columns,
                                                 firstRow: firstRow, tolerateWarnings: tolerate)
                        }
                        XCTAssertEqual(streamed, memory, "\(name) \(scale) \(String(describing: columns)) tolerate \(tolerate) buffer \(bufferSize)")
                        XCTAssertNil(file.readFailure, name)
                    }
                }
            }
        }
    }

    /// Entropy-coded data damaged here and there, in a file larger than the shim's buffer: the
    /// file source decodes to the same pixels with the same warnings, or fails with the same
    /// error, as memory — libjpeg's fast Huffman path (which decodes a bad code silently) and its
    /// slow one (which reports it) are taken for the same MCUs both ways.
    func testDamagedDataDecodesAsInMemory() throws {
        var rng = SplitMix64(seed: 0x5EED_0015)
        let clean = try TestFixtures.bytes(TestFixtures.image("iphone4s-2592x1936.jpg"))
        let sos = try XCTUnwrap((2..<(clean.count - 1)).first { clean[$0] == 0xFF && clean[$0 + 1] == 0xDA })
        var damage = 0
        for variant in 0..<24 {
            var damaged = clean
            for _ in 0..<(1 + variant % 4) {
                let at = sos + 20 + Int(rng.next() % UInt64(clean.count - sos - 40))
                if variant % 2 == 0 {
                    damaged[at] = UInt8(truncatingIfNeeded: rng.next())
                } else {
                    // 32 one bits (stuffed 0xFF bytes): longer than any Huffman code.
                    damaged.replaceSubrange(at..<(at + 4), with: [0xFF, 0x00, 0xFF, 0x00])
                }
            }
            let path = try write(damaged, "damaged.jpg")
            let head = try OriginalImage(path: path).source.head
            for tolerate in [false, true] {
                let columns = 300..<1700, firstRow = 128 * (variant % 5)
                let memory = regionDecode {
                    try JPEGRegionReader(jpeg: damaged, columns: columns, firstRow: firstRow, tolerateWarnings: tolerate)
                }
                let streamed = regionDecode {
                    try JPEGRegionReader(file: OpenInputFile(path), head: head, bufferSize: 65536, columns: columns,
                                         firstRow: firstRow, tolerateWarnings: tolerate)
                }
                XCTAssertEqual(streamed, memory, "variant \(variant) tolerate \(tolerate)")
                if memory.hasPrefix("error") || memory.contains("damaged") { damage += 1 }
            }
        }
        // Most damage decodes silently (the fast path takes 32 one bits for a code of 0); without
        // the shim's top-up, variant 3 renders from memory and is refused from the file ("bad
        // Huffman code").
        XCTAssertGreaterThanOrEqual(damage, 2, "damage libjpeg sees")
    }

    /// The streamed render of a path and the render of the same bytes in memory are the same bytes,
    /// JPEG and HEIC, full size and reduced.
    func testAPathRendersAsItsBytes() throws {
        let cases = [(TestFixtures.image("Landscape_1.jpg"), "straighten-3deg.xmp"), (TestFixtures.image("canon-a85.jpg"), "seed-example.xmp"),
                     (TestFixtures.image("progressive-960x1280.jpg"), "fractional-crop.xmp"),
                     (TestFixtures.path("Fixtures/heic/iphone-xr-irot270.heic"), "ios5-crop.xmp")]
        for (image, xmp) in cases {
            for size in [SizeRequest.full, .maxSize(500)] {
                let edit = try PhotoEdit(imagePath: image, editPath: TestFixtures.xmp(xmp), size: size)
                XCTAssertNotNil(edit.original.source.path)
                let start = DispatchTime.now().uptimeNanoseconds
                let streamed = try edit.renderEncoded(format: .jpeg)
                let wallMs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                // The render waits for its decoder: the time inside it is part of the render's.
                XCTAssertLessThanOrEqual(streamed.decodeMs, wallMs, "\(image) \(size)")
                let inMemory = try edit.renderer.renderEncoded(edit.plan, original: OriginalImage(bytes: TestFixtures.bytes(image)),
                                                               format: .jpeg, quality: 90)
                XCTAssertEqual(streamed.bytes, inMemory.bytes, "\(image) \(xmp) \(size)")
                XCTAssertEqual(streamed.warnings, inMemory.warnings)
                XCTAssertGreaterThan(streamed.decodeMs, 0, "\(image): the decoder's time is measured")
                XCTAssertGreaterThan(inMemory.decodeMs, 0)
                let raster = try edit.render()
                XCTAssertGreaterThan(raster.decodeMs, 0)
                XCTAssertGreaterThan(try raster.encoded(as: .jpeg).decodeMs, 0, "encoded(as:) keeps the decode time")
            }
        }
    }

    // MARK: - A file that changed is refused

    func testAFileChangedAfterPlanningIsRefused() throws {
        let bytes = try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg"))
        let path = try write(bytes, "photo.jpg")
        let edit = try PhotoEdit(imagePath: path, editPath: TestFixtures.xmp("seed-example.xmp"))
        XCTAssertNoThrow(try edit.renderEncoded(format: .jpeg))

        // Rewritten in place, same size, another modification time.
        var other = bytes
        other[other.count - 100] ^= 0x55
        try Data(other).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
        for render in [{ _ = try edit.renderEncoded(format: .jpeg) }, { _ = try edit.render() }, { _ = try edit.original.source.whole() }] {
            XCTAssertThrowsError(try render()) { error in
                let error = error as? FileError
                XCTAssertEqual(error?.kind, .unreadable)
                XCTAssertEqual(error?.description, "\(path): cannot read: the file changed while it was read")
            }
        }

        // Gone.
        try FileManager.default.removeItem(atPath: path)
        XCTAssertThrowsError(try edit.renderEncoded(format: .jpeg)) { error in
            XCTAssertEqual((error as? FileError)?.description, "\(path): cannot open: No such file or directory")
        }
    }

    /// The shim checks the head it reads against the one the plan came from, and stops at the
    /// size the file had when opened: either way "the file changed", an `.unreadable` FileError.
    func testTheShimRefusesAChangedHeadOrAShorterFile() throws {
        let bytes = try TestFixtures.bytes(TestFixtures.image("canon-a85.jpg"))
        let path = try write(bytes, "photo.jpg")
        var head = try OriginalImage(path: path).source.head
        head[head.count / 2] ^= 0x01
        let file = try OpenInputFile(path)
        XCTAssertThrowsError(try JPEGRegionReader(file: file, head: head, bufferSize: 512)) { error in
            XCTAssertEqual(error as? DecodeError, .corrupt("the file changed while it was read"))
        }
        XCTAssertEqual(file.readFailure?.description, "\(path): cannot read: the file changed while it was read")
        XCTAssertEqual(file.readFailure?.kind, .unreadable)

        let opened = try OpenInputFile(path)
        let reader = try JPEGRegionReader(file: opened, head: Array(bytes.prefix(3)))
        XCTAssertEqual(truncate(path, off_t(bytes.count / 2)), 0)
        var rows = [UInt8](repeating: 0, count: reader.width * 3 * reader.decodedSize.height)
        XCTAssertThrowsError(try rows.withUnsafeMutableBufferPointer {
            try reader.readRows(into: $0.baseAddress!, stride: reader.width * 3, count: reader.decodedSize.height)
        })
        XCTAssertEqual(reader.inputFailure?.description, "\(path): cannot read: the file changed while it was read")
    }

    /// A truncated file is not a changed one: its missing data is libjpeg's damage, as in memory.
    func testATruncatedFileIsStillDamageNotAReadError() throws {
        let bytes = try TestFixtures.bytes(TestFixtures.image("canon-a85.jpg"))
        let path = try write(Array(bytes.prefix(bytes.count * 2 / 3)), "truncated.jpg")
        let edit = try PhotoEdit(imagePath: path)
        XCTAssertThrowsError(try edit.renderEncoded(format: .jpeg)) { error in
            let error = error as? FileError
            XCTAssertEqual(error?.kind, .invalidContent)
            XCTAssertEqual(error?.problem, "corrupt or truncated JPEG: Premature end of JPEG file")
        }
    }

    // MARK: - Limits and HEIC

    func testTheInputLimitIsCheckedBeforeReading() throws {
        let path = TestFixtures.image("Landscape_1.jpg")
        let count = try TestFixtures.bytes(path).count
        XCTAssertThrowsError(try OriginalImage(path: path, limit: count - 1)) { error in
            let error = error as? FileError
            XCTAssertEqual(error?.kind, .invalidContent)
            XCTAssertEqual(error?.problem, "file is \(count) bytes, over the \(count - 1)-byte input limit")
        }
        XCTAssertNoThrow(try OriginalImage(path: path, limit: count))
    }

    /// libheif reading the file as it asks reads the header as it does from memory: the same
    /// header, or the same error, for every HEIC fixture (hostile ones included).
    func testAHEICFileReadsAsItsBytes() throws {
        var paths: [String] = []
        for folder in ["Fixtures/heic", "Fixtures/hostile"] {
            paths += try FileManager.default.contentsOfDirectory(atPath: TestFixtures.path(folder))
                .filter { $0.hasSuffix(".heic") || $0.hasSuffix(".heif") }.sorted().map { TestFixtures.path("\(folder)/\($0)") }
        }
        XCTAssertGreaterThan(paths.count, 4)
        func described(_ original: OriginalImage) -> String {
            switch original {
            case .jpeg: return "JPEG"
            case .heic(let source, let header):
                if source.path != nil { XCTAssertLessThan(source.head.count, 4096, "the ftyp box only") }
                return "\(header)"
            }
        }
        var heics = 0
        for path in paths {
            let fromBytes: String
            do {
                fromBytes = described(try OriginalImage(bytes: TestFixtures.bytes(path)))
            } catch {
                fromBytes = "error: \(FileError(path: path, kind: .invalidContent, error))"
            }
            let fromFile: String
            do { fromFile = described(try OriginalImage(path: path)) } catch { fromFile = "error: \(error)" }
            // libheif 1.19 words one truncation two ways ("No 'meta' box" from memory, "Unexpected
            // end of file" from a reader): the file and the kind of refusal must agree, not its words.
            func refusal(_ text: String) -> String {
                text.hasPrefix("error: ") ? text.split(separator: ":", maxSplits: 3).prefix(3).joined(separator: ":") : text
            }
            XCTAssertEqual(refusal(fromFile), refusal(fromBytes), path)
            if fromBytes != "JPEG" { heics += 1 }
        }
        XCTAssertGreaterThan(heics, 4)
    }
}
