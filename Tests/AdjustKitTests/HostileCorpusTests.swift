import AdjustKit
import Foundation
import XCTest

/// Every file in Fixtures/hostile (written by scripts/make-hostile-corpus, listed in
/// Fixtures/hostile/README.md), run through the built `adjust` binary under GNU time
/// (`/usr/bin/time`, Debian package `time`).
///
/// Refused files: exactly one stderr line `adjust: error: PATH: problem`, the documented exit
/// status, nothing on stdout, nothing left in the output directory (no output, no temporary file).
/// Accepted files (EXIF that lies): exit 0, exactly the expected stderr lines, one whole output
/// file and nothing else. Both: peak RSS under 200 MB and under 2 s of wall time.
final class HostileCorpusTests: XCTestCase {
    static let maxResidentKB = 200_000
    static let maxSeconds = 2.0
    static let gnuTime = "/usr/bin/time"

    private var scratch: URL!
    /// Where the output goes and the child runs: must hold nothing but the output afterwards.
    private var outputDirectory: URL { scratch.appendingPathComponent("out") }

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-hostile")
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: CLITests.binary), "build the adjust product first")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.gnuTime),
                      "GNU time is needed for the RSS and time bounds (apt-get install time)")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    // MARK: - XMP: DTDs and entities (refused before libxml2 sees them)

    func testXXEFile() throws {
        try refusedEdit("xxe-file.xmp", 65, "DOCTYPE declarations are not allowed in XMP")
    }

    func testXXEHTTP() throws {
        try refusedEdit("xxe-http.xmp", 65, "DOCTYPE declarations are not allowed in XMP")
    }

    func testBillionLaughs() throws {
        try refusedEdit("billion-laughs.xmp", 65, "DOCTYPE declarations are not allowed in XMP")
    }

    func testQuadraticBlowup() throws {
        try refusedEdit("quadratic-blowup.xmp", 65, "DOCTYPE declarations are not allowed in XMP")
    }

    func testUTF16Doctype() throws {
        try refusedEdit("utf16-doctype.xmp", 65, "DOCTYPE declarations are not allowed in XMP")
    }

    // MARK: - XMP: size and complexity limits

    func testDeepNesting10000() throws {
        // libxml2's own 256-level cap fires while parsing, before the tool's walk; the parser
        // reports it as the same nesting error the walk gives for 33…255 levels.
        try refusedEdit("deep-nesting-10000.xmp", 65, "XMP nesting deeper than 32 levels")
    }

    func testProperties100k() throws {
        try refusedEdit("properties-100k.xmp", 65, "XMP packet has more than 10000 values")
    }

    func testAttributes100k() throws {
        try refusedEdit("attributes-100k.xmp", 65, "an XML element in the XMP packet has more than 1024 attributes")
    }

    func testHugePacket() throws {
        try refusedEdit("huge-packet.xmp", 65, "XMP packet is 4195328 bytes, over the 4194304-byte limit")
    }

    func testFilters1000() throws {
        try refusedEdit("filters-1000.xmp", 65, "1000 aas:Filters items, over the limit of 64")
    }

    func testRedEye1000() throws {
        try refusedEdit("redeye-1000.xmp", 65, "1000 red-eye corrections, over the limit of 64")
    }

    func testMetadataDumpBombJSON() throws {
        try refusedEdit("metadata-dump-bomb.json", 65, "metadata dump is neither a property list nor JSON")
    }

    func testMetadataDumpBombPlist() throws {
        try refusedEdit("metadata-dump-bomb.plist", 65, "metadata dump is neither a property list nor JSON")
    }

    func testNotXML() throws {
        try refusedEdit("not-xml.xmp", 65, "malformed XML at line 1: Document is empty")
    }

    // MARK: - XMP: values

    func testNaNValues() throws {
        try refusedEdit("nan-values.xmp", 65, #"aas:CropX must be a finite number, got "NaN" (not a number: "NaN")"#)
    }

    func testInfiniteAffine() throws {
        try refusedEdit("infinite-affine.xmp", 65,
                        #"aas:AffineA must be a finite number, got "1e400" (non-finite number: "1e400")"#)
    }

    func testZeroDeterminant() throws {
        try refusedEdit("zero-determinant.xmp", 65,
                        "the affine transform [1.0 2.0 2.0 4.0] cannot be inverted (determinant 0.0)")
    }

    func testCropOutside() throws {
        try refusedEdit("crop-outside.xmp", 65, "the edit keeps no pixels: crop (x 5000, y 5000, w 100, h 100) "
                        + "does not overlap the image, which lies in (x 0, y 0, w 1800, h 1200)")
    }

    func testNegativeCrop() throws {
        try refusedEdit("negative-crop.xmp", 65, "the edit keeps no pixels: crop (x 10, y 10, w -200, h -100) has no area")
    }

    // MARK: - JPEG

    func testTruncatedHeader() throws {
        try refusedImage("truncated-header.jpg", 65, "corrupt or truncated JPEG: no frame header, or zero width or height")
    }

    func testTruncatedData() throws {
        try refusedImage("truncated-data.jpg", 65, "corrupt or truncated JPEG: Premature end of JPEG file")
    }

    // MARK: - HEIC/HEIF

    func testHEICGrid65000() throws {
        // Refused while libheif (1.19) reads the boxes, before any tile is decoded: the grid
        // names 127×127 tiles and the file holds 48.
        try refusedImage("heic-grid-65000x65000.heic", 65,
                         "corrupt or truncated HEIF: Invalid input: Missing grid images: Tiled image with "
                         + "127x127=16129 tiles, but only 48 tile images in file")
    }

    func testHEICTruncatedHeader() throws {
        try refusedImage("heic-truncated-header.heic", 65, "corrupt or truncated HEIF: Invalid input: Unexpected end of file")
    }

    func testHEICTruncatedData() throws {
        try refusedImage("heic-truncated-data.heic", 65,
                         "HEIF image data cannot be decoded: Invalid input: Unexpected end of file: Extent in iloc box "
                         + "references data outside of file bounds (points to file position 34043)")
    }

    func testMalformedHEIFIllegalArgument() throws {
        try refusedImage("IllegalArgumentException.HeifReader.processBoxes.heif", 65,
                         "corrupt or truncated HEIF: Invalid input: Invalid box size: Box size (5 bytes) smaller than header size (8 bytes)")
    }

    func testMalformedHEIFNegativeArraySize() throws {
        try refusedImage("NegativeArraySizeException.HeifReader.processBoxes.heif", 65,
                         "corrupt or truncated HEIF: Invalid input: Invalid box size: Box size (6 bytes) smaller than header size (8 bytes)")
    }

    func testBomb65000() throws {
        try refusedImage("bomb-65000x65000.jpg", 65,
                         "JPEG is 65000×65000 pixels, over the limit of 16384 per side and 100000000 in all")
    }

    func testBomb20000() throws {
        try refusedImage("bomb-20000x20000.jpg", 65,
                         "JPEG is 20000×20000 pixels, over the limit of 16384 per side and 100000000 in all")
    }

    func testZeroWidth() throws {
        try refusedImage("zero-width.jpg", 65, "corrupt or truncated JPEG: Empty JPEG image (DNL not supported)")
    }

    func testProgressive5000Scans() throws {
        try refusedImage("progressive-5000-scans.jpg", 65,
                         "corrupt or truncated JPEG: Progressive JPEG image has more than 500 scans")
    }

    func testCorruptMarkers() throws {
        try refusedImage("corrupt-markers.jpg", 65, "corrupt or truncated JPEG: Corrupt JPEG data: premature end of data segment")
    }

    /// Refused until CMYK support (issue 15): now converted to RGB, naively (it has no ICC profile).
    func testCMYK() throws {
        let path = Self.corpus("cmyk.jpg")
        try accepted("cmyk.jpg", size: [64, 48], stderr: [
            "adjust: warning: \(path): CMYK JPEG without an ICC profile: converted to RGB by the naive formula, colours approximate",
            "adjust: note: \(path): no edit found; written upright",
        ])
    }

    func testEmbeddedXXE() throws {
        try refusedImage("embedded-xxe.jpg", 65, "embedded XMP: DOCTYPE declarations are not allowed in XMP")
    }

    // MARK: - EXIF that lies: accepted

    func testBadExifOrientation999() throws {
        let path = Self.corpus("bad-exif-orientation-999.jpg")
        try accepted("bad-exif-orientation-999.jpg", size: [450, 300], stderr: [
            "adjust: warning: \(path): EXIF orientation 999 is not 1–8; treated as 1",
            "adjust: note: \(path): no edit found; written upright",
        ])
    }

    func testBadExifOrientationLong() throws {
        let path = Self.corpus("bad-exif-orientation-long.jpg")
        try accepted("bad-exif-orientation-long.jpg", size: [450, 300], stderr: [
            "adjust: warning: \(path): EXIF orientation entry is not a SHORT value; treated as 1",
            "adjust: note: \(path): no edit found; written upright",
        ])
    }

    /// The three below carry a valid IFD0 Orientation 6 beside the damage; libexif salvages it,
    /// so the output is the 450×300 picture turned upright: 300×450.
    func testBadExifTruncatedIFD() throws {
        try accepted("bad-exif-truncated-ifd.jpg", size: [300, 450],
                     stderr: ["adjust: note: \(Self.corpus("bad-exif-truncated-ifd.jpg")): no edit found; written upright"])
    }

    func testBadExifHugeCount() throws {
        try accepted("bad-exif-huge-count.jpg", size: [300, 450],
                     stderr: ["adjust: note: \(Self.corpus("bad-exif-huge-count.jpg")): no edit found; written upright"])
    }

    func testBadExifMakerNoteGarbage() throws {
        try accepted("bad-exif-makernote-garbage.jpg", size: [300, 450],
                     stderr: ["adjust: note: \(Self.corpus("bad-exif-makernote-garbage.jpg")): no edit found; written upright"])
    }

    // MARK: - Coverage

    /// Every corpus file has a test above (so a new file cannot go untested), and the folder
    /// stays within its size budget.
    func testEveryCorpusFileIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestFixtures.path("Fixtures/hostile"))
            .filter { $0 != "README.md" }.sorted()
        XCTAssertEqual(names, Self.covered.sorted())
        var total = 0
        for name in names {
            let bytes = try FileManager.default.attributesOfItem(atPath: Self.corpus(name))[.size] as? Int ?? 0
            XCTAssertLessThanOrEqual(bytes, 4_300_000, name)
            total += bytes
        }
        XCTAssertLessThanOrEqual(total, 10_000_000)
        let readme = try String(contentsOfFile: TestFixtures.path("Fixtures/hostile/README.md"), encoding: .utf8)
        for name in names { XCTAssertTrue(readme.contains("`\(name)`"), "README.md lacks \(name)") }
    }

    static let covered = [
        "xxe-file.xmp", "xxe-http.xmp", "billion-laughs.xmp", "quadratic-blowup.xmp", "utf16-doctype.xmp",
        "deep-nesting-10000.xmp", "properties-100k.xmp", "attributes-100k.xmp", "huge-packet.xmp",
        "filters-1000.xmp", "redeye-1000.xmp", "metadata-dump-bomb.json", "metadata-dump-bomb.plist", "not-xml.xmp",
        "nan-values.xmp", "infinite-affine.xmp", "zero-determinant.xmp", "crop-outside.xmp", "negative-crop.xmp",
        "truncated-header.jpg", "truncated-data.jpg", "bomb-65000x65000.jpg", "bomb-20000x20000.jpg",
        "zero-width.jpg", "progressive-5000-scans.jpg", "corrupt-markers.jpg", "cmyk.jpg", "embedded-xxe.jpg",
        "bad-exif-orientation-999.jpg", "bad-exif-orientation-long.jpg", "bad-exif-truncated-ifd.jpg",
        "bad-exif-huge-count.jpg", "bad-exif-makernote-garbage.jpg",
        "heic-grid-65000x65000.heic", "heic-truncated-header.heic", "heic-truncated-data.heic",
        "IllegalArgumentException.HeifReader.processBoxes.heif", "NegativeArraySizeException.HeifReader.processBoxes.heif",
    ] + AAEHostileCorpusTests.covered

    // MARK: - AAE: through the CLI

    /// Every hostile AAE as the edit of a render: one line naming the AAE, exit 69 for another
    /// editor's format and 65 for the rest, no output, within the bounds. The line is the
    /// reader's own (AAEHostileCorpusTests checks which error each file gets).
    func testAAEFilesAreRefusedByTheCLI() throws {
        for name in AAEHostileCorpusTests.covered {
            let problem: String
            do {
                _ = try AAEDocument(contentsOf: try TestFixtures.bytes(Self.corpus(name)))
                problem = "accepted by the reader"
            } catch {
                problem = "\(error)"
            }
            let status: Int32 = name == "aae-external-edit.aae" || name == "aae-slomo.aae" ? 69 : 65
            try refusedEdit(name, status, problem)
        }
    }

    // MARK: - Helpers

    struct Run { var status: Int32; var stdout: String; var stderr: String; var residentKB: Int; var seconds: Double }

    static func corpus(_ name: String) -> String { TestFixtures.path("Fixtures/hostile/\(name)") }

    private var outputPath: String { outputDirectory.appendingPathComponent("out.jpg").path }

    /// `adjust render --xmp FILE Landscape_1.jpg -o OUT` must fail naming FILE.
    private func refusedEdit(_ name: String, _ status: Int32, _ problem: String, line: UInt = #line) throws {
        let run = try adjust(["render", "--unedited", "render", "--xmp", Self.corpus(name), TestFixtures.image("Landscape_1.jpg"), "-o", outputPath])
        assertRefused(run, name, status, problem, line: line)
    }

    /// `adjust render FILE -o OUT` must fail naming FILE.
    private func refusedImage(_ name: String, _ status: Int32, _ problem: String, line: UInt = #line) throws {
        let run = try adjust(["render", "--unedited", "render", Self.corpus(name), "-o", outputPath])
        assertRefused(run, name, status, problem, line: line)
    }

    private func assertRefused(_ run: Run, _ name: String, _ status: Int32, _ problem: String, line: UInt) {
        XCTAssertEqual(run.status, status, "\(name): \(run.stderr)", line: line)
        XCTAssertEqual(run.stderr, "adjust: error: \(Self.corpus(name)): \(problem)\n", name, line: line)
        XCTAssertEqual(run.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2,
                       "\(name): exactly one line", line: line)
        XCTAssertEqual(run.stdout, "", name, line: line)
        XCTAssertEqual(leftovers(), [], "\(name): no output file and no temporary file", line: line)
        assertBounds(run, name, line: line)
    }

    /// `adjust render FILE -o OUT` must succeed with exactly `stderr` and write one whole JPEG
    /// of `size` (width, height).
    private func accepted(_ name: String, size: [Int], stderr: [String], line: UInt = #line) throws {
        let run = try adjust(["render", "--unedited", "render", Self.corpus(name), "-o", outputPath])
        XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)", line: line)
        XCTAssertEqual(run.stderr, stderr.map { $0 + "\n" }.joined(), name, line: line)
        XCTAssertEqual(run.stdout, "", name, line: line)
        XCTAssertEqual(leftovers(), ["out.jpg"], "\(name): the output and nothing else", line: line)
        if let bytes = try? TestFixtures.bytes(outputPath) {
            let header = try JPEGDecoder().header(of: bytes)
            XCTAssertEqual([header.size.width, header.size.height], size, name, line: line)
            XCTAssertNoThrow(try JPEGDecoder().decode(bytes), "\(name): the output is a whole JPEG", line: line)
        }
        assertBounds(run, name, line: line)
    }

    private func assertBounds(_ run: Run, _ name: String, line: UInt) {
        XCTAssertGreaterThan(run.residentKB, 0, "\(name): GNU time reported no peak RSS", line: line)
        XCTAssertLessThan(run.residentKB, Self.maxResidentKB, "\(name): peak RSS \(run.residentKB) KB", line: line)
        XCTAssertLessThan(run.seconds, Self.maxSeconds, "\(name): \(run.seconds) s", line: line)
    }

    private func leftovers() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: outputDirectory.path)) ?? []).sorted()
    }

    /// Runs `adjust arguments` under `/usr/bin/time -f '%M %e'`, in the output directory.
    private func adjust(_ arguments: [String]) throws -> Run {
        let timeFile = scratch.appendingPathComponent("time.txt")
        let stdoutFile = scratch.appendingPathComponent("stdout.txt")
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        let stdoutHandle = try FileHandle(forWritingTo: stdoutFile)
        defer { try? stdoutHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.gnuTime)
        process.arguments = ["-f", "%M %e", "-o", timeFile.path, CLITests.binary] + arguments
        process.currentDirectoryURL = outputDirectory
        let err = Pipe()
        process.standardOutput = stdoutHandle
        process.standardError = err
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // GNU time writes "Command exited with non-zero status N" before the format line.
        let report = (try? String(contentsOf: timeFile, encoding: .utf8)) ?? ""
        let fields = report.split(separator: "\n").last?.split(separator: " ") ?? []
        let stdout = (try? Data(contentsOf: stdoutFile)) ?? Data()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self),
                   residentKB: fields.count == 2 ? Int(fields[0]) ?? -1 : -1,
                   seconds: fields.count == 2 ? Double(fields[1]) ?? .infinity : .infinity)
    }
}
