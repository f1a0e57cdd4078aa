import Foundation
import XCTest

/// Issue 20 scope 4: SIGINT during a 60-photo batch stops it cleanly — the photos being written
/// finish, the summary is printed with the hint to resume, no temporary file is left — and
/// `--update` then completes the rest.
final class BatchInterruptionTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws { scratch = try ScratchFolder.make("batch-interrupt") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    func testSIGINTStopsCleanlyAndUpdateFinishes() throws {
        let input = scratch.appendingPathComponent("in").path, out = scratch.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for n in 1...60 {
            try FileManager.default.copyItem(atPath: TestFixtures.image("iphone4s-2592x1936.jpg"),
                                            toPath: input + String(format: "/IMG_%04d.jpg", n))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BatchTests.binary)
        process.arguments = ["batch", input, "--out", out, "--unedited", "render", "-j", "2"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Interrupt once the first outputs are there, well before the 60th.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter({ $0.hasSuffix(".jpg") }).count < 3 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        XCTAssertEqual(process.terminationReason, .exit, "ended by itself, not killed by the signal")
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: out)
        XCTAssertEqual(written.filter { $0.contains(".adjust-tmp-") }, [], "no temporary file left")
        let outputs = written.filter { $0.hasSuffix(".jpg") }.count
        XCTAssertLessThan(outputs, 60, "stopped before the end")
        XCTAssertTrue(stderr.contains("adjust: \(outputs) files: 0 ok, \(outputs) without edits"), stderr)
        XCTAssertTrue(stderr.contains("adjust: stopped after \(outputs) of 60 photos; re-run the same command with --update to finish"),
                      stderr)

        let resumed = try BinaryRun.run(BatchTests.binary, ["batch", input, "--out", out, "--unedited", "render", "--update"],
                                        in: scratch)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("60 files: 0 ok, \(60 - outputs) without edits, \(outputs) current"), resumed.stderr)
    }
}
