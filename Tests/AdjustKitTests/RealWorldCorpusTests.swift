import AdjustKit
import Foundation
import XCTest

/// Every JPEG in Fixtures/real-world (camera files and decoder-test-suite files from a real
/// corpus no one here wrote; see Fixtures/SOURCES.md) through the built `adjust` binary, checked
/// against the outcome `Fixtures/real-world/expected.tsv` gives it:
///
/// - `rendered`: exit 0, no stderr but `adjust: note: IN: no edit found; written upright` (run with `--unedited render`), a whole JPEG of the size given;
/// - `rendered-warning`: the same with the warning lines given (libjpeg warnings that leave the
///   pixels intact);
/// - `refused-damaged`: exit 65 with the lines given (the last names the damage), no output;
///   with `--tolerate-jpeg-warnings` exit 0, the tolerant lines, a whole JPEG;
/// - `refused-undecodable`: exit 65 with the lines given, no output, with the flag too.
///
/// The expectations were set from `djpeg -d -d -d` (libjpeg-turbo's own decoder, every warning
/// printed): a file is `refused-damaged` when djpeg reports damaged or missing image data, and
/// `rendered-warning` when its only warnings are stray bytes between header segments or an
/// unknown JFIF revision.
final class RealWorldCorpusTests: XCTestCase {
    struct Row {
        var file: String
        var outcome: String
        var flags: [String]
        var status: Int32
        var stderr: [String]
        var tolerantStderr: [String]
        var size: String
    }

    static let folder = TestFixtures.path("Fixtures/real-world")
    static let outcomes = ["rendered", "rendered-warning", "refused-damaged", "refused-undecodable"]

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-realworld")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: CLITests.binary), "build the adjust product first")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    static func table() throws -> [Row] {
        let text = try String(contentsOfFile: folder + "/expected.tsv", encoding: .utf8)
        func lines(_ cell: Substring) -> [String] {
            cell == "-" ? [] : cell.components(separatedBy: " | ")
        }
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard cells.count == 7, let status = Int32(cells[3]) else {
                throw XCTSkip("malformed row in expected.tsv: \(line)")
            }
            return Row(file: String(cells[0]), outcome: String(cells[1]),
                       flags: cells[2] == "-" ? [] : cells[2].split(separator: " ").map(String.init),
                       status: status, stderr: lines(cells[4]), tolerantStderr: lines(cells[5]), size: String(cells[6]))
        }
    }

    func testTheTableCoversEveryFile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".jpg") }
        let rows = try Self.table()
        XCTAssertEqual(rows.map(\.file).sorted(), files.sorted())
        XCTAssertEqual(Set(rows.map(\.file)).count, rows.count, "a file listed twice")
        for row in rows { XCTAssertTrue(Self.outcomes.contains(row.outcome), "\(row.file): outcome \(row.outcome)") }
    }

    func testEveryFileAsTheTableSays() throws {
        let rows = try Self.table()
        var counts: [String: Int] = [:]
        var failuresBefore = 0
        for row in rows {
            failuresBefore = testRun?.failureCount ?? 0
            try check(row)
            if (testRun?.failureCount ?? 0) == failuresBefore { counts[row.outcome, default: 0] += 1 }
        }
        let summary = Self.outcomes.map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ")
        let passed = counts.values.reduce(0, +)
        print("real-world corpus: \(passed) of \(rows.count) files as expected (\(summary))")
        XCTAssertEqual(passed, rows.count)
    }

    /// `adjust batch` over the folder: exactly the files the table renders are rendered (none that
    /// djpeg decodes cleanly or with harmless warnings only is refused), each record carries its
    /// warnings, and the summary counts the rest as failed.
    func testBatchOverTheFolder() throws {
        let rows = try Self.table().filter { $0.flags.isEmpty }
        let out = scratch.appendingPathComponent("batch").path
        let run = try BinaryRun.run(CLITests.binary, ["batch", Self.folder, "--out", out, "--json", "--unedited", "render"])
        XCTAssertEqual(run.status, 65, "some files are refused")
        var records: [String: [String: Any]] = [:]
        var summary: [String: Any] = [:]
        for line in run.stdout.split(separator: "\n") {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let s = object["summary"] as? [String: Any] { summary = s; continue }
            let input = try XCTUnwrap(object["input"] as? String)
            records[URL(fileURLWithPath: input).lastPathComponent] = object
        }
        for row in rows {
            let record = try XCTUnwrap(records[row.file], row.file)
            let rendered = row.status == 0
            XCTAssertEqual(record["status"] as? String, rendered ? "no-edit" : "failed", row.file)
            if rendered {
                let warnings = (record["warnings"] as? [String]) ?? []
                XCTAssertEqual(warnings.count, row.stderr.count, row.file)
            }
        }
        // references/Multiple_ICC_segments.vips-perceptual.png is another picture: copied as it is
        // (issue 29: everything comes out), one file more than the table's JPEGs.
        XCTAssertEqual(records["Multiple_ICC_segments.vips-perceptual.png"]?["source"] as? String, "copy")
        let renderedCount = rows.filter { $0.status == 0 }.count
        XCTAssertEqual(summary["noEdit"] as? Int, renderedCount + 1)
        XCTAssertEqual(summary["files"] as? Int, try Self.table().count + 1)
        print("real-world batch summary: \(summary)")
    }

    private func check(_ row: Row) throws {
        let input = "\(Self.folder)/\(row.file)"
        let name = row.file
        // The consistency of the table itself: what each outcome allows.
        switch row.outcome {
        case "rendered":
            XCTAssertEqual(row.status, 0, name)
            XCTAssertEqual(row.stderr, [], name)
        case "rendered-warning":
            XCTAssertEqual(row.status, 0, name)
            XCTAssertFalse(row.stderr.isEmpty, name)
            XCTAssertTrue(row.stderr.allSatisfy { $0.hasPrefix("adjust: warning: FILE: ") }, name)
        default:
            XCTAssertEqual(row.status, 65, name)
            XCTAssertEqual(row.stderr.count, 1, "\(name): one line")
            XCTAssertTrue(row.stderr.first?.hasPrefix("adjust: error: FILE: ") ?? false, name)
        }

        let output = scratch.appendingPathComponent("\(name).out.jpg").path
        let run = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render"] + row.flags + [input, "-o", output])
        assertRun(run, status: row.status, lines: row.stderr, input: input, output: output, size: row.size, name)

        switch row.outcome {
        case "refused-damaged":
            let tolerant = scratch.appendingPathComponent("\(name).tolerant.jpg").path
            let again = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", "--tolerate-jpeg-warnings"] + row.flags + [input, "-o", tolerant])
            XCTAssertTrue(row.tolerantStderr.contains { $0.contains("the image data is damaged") }, name)
            assertRun(again, status: 0, lines: row.tolerantStderr, input: input, output: tolerant, size: row.size, "\(name) tolerated")
        case "refused-undecodable":
            let tolerant = scratch.appendingPathComponent("\(name).tolerant.jpg").path
            let again = try BinaryRun.run(CLITests.binary, ["render", "--unedited", "render", "--tolerate-jpeg-warnings"] + row.flags + [input, "-o", tolerant])
            XCTAssertEqual(again.status, 65, name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: tolerant), name)
        default:
            XCTAssertEqual(row.tolerantStderr, [], name)
        }
    }

    /// Exit status, stderr exactly (a render without an edit, given `--unedited render`, ends with its note),
    /// and the output: a whole JPEG of `size` after exit 0, nothing otherwise.
    private func assertRun(_ run: BinaryRun, status: Int32, lines: [String], input: String, output: String,
                           size: String, _ name: String) {
        XCTAssertEqual(run.status, status, "\(name): \(run.stderr)")
        var expected = lines.map { $0.replacingOccurrences(of: "FILE", with: input) }
        if status == 0 { expected.append("adjust: note: \(input): no edit found; written upright") }
        XCTAssertEqual(run.stderr, expected.map { $0 + "\n" }.joined(), name)
        XCTAssertEqual(run.stdout, "", name)
        if status == 0 {
            guard let bytes = try? TestFixtures.bytes(output) else { return XCTFail("\(name): no output") }
            do {
                let decoded = try JPEGDecoder(maxSide: 65_500).decode(bytes)
                XCTAssertEqual("\(decoded.size.width)x\(decoded.size.height)", size, name)
            } catch {
                XCTFail("\(name): the output does not decode: \(error)")
            }
        } else {
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "\(name): no output on failure")
        }
    }
}
