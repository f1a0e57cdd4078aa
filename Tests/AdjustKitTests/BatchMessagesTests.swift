@testable import adjust
import AdjustKit
import Foundation
import XCTest

/// Issue 20 scopes 4 and 5: what a user reads while a batch runs and when something fails — the
/// progress bar's rate and time left, Foundation's errors in short words, options before limits.
final class BatchMessagesTests: XCTestCase {
    func testTheBarShowsRateAndTimeLeft() {
        var counts = BatchProgress.Counts()
        counts.ok = 30
        let line = BatchProgress.barLine(counts, total: 90, name: "IMG_0030.JPG", columns: 200, elapsed: 10)
        XCTAssertTrue(line.contains("3.0/s  ETA 0:20"), line)   // 60 left at 3 a second
        XCTAssertFalse(BatchProgress.barLine(counts, total: 90, name: "", columns: 200).contains("ETA"), "no time: no rate")
    }

    func testFoundationErrorsAreShortWords() throws {
        do {
            try FileManager.default.createDirectory(atPath: "/proc/adjust-cannot-be-here", withIntermediateDirectories: true)
            XCTFail("created a folder in /proc")
        } catch {
            let text = try XCTUnwrap(SystemErrorText.describe(error))
            XCTAssertFalse(text.contains("Domain="), text)
            XCTAssertFalse(text.contains("\n"), text)
            XCTAssertLessThan(text.count, 60, text)
        }
        XCTAssertEqual(SystemErrorText.describe(CocoaError(.fileWriteNoPermission)), "permission denied")
        XCTAssertEqual(SystemErrorText.describe(CocoaError(.fileNoSuchFile)), "no such file or folder")
        XCTAssertNil(SystemErrorText.describe(AAEError.notAPropertyList), "the project's own errors keep their words")
        let wrapped = FileError(path: "/x", kind: .unwritable, CocoaError(.fileWriteNoPermission))
        XCTAssertEqual(wrapped.description, "/x: permission denied")
    }

    func testHelpListsOptionsBeforeLimits() throws {
        for command in ["render", "inspect", "batch", "fidelity"] {
            let help = try BinaryRun.run(CLITests.binary, [command, "--help"]).stdout
            let options = try XCTUnwrap(help.range(of: "--working-space"), command)
            let limits = try XCTUnwrap(help.range(of: "--max-input-bytes"), command)
            XCTAssertLessThan(options.lowerBound, limits.lowerBound, command)
        }
    }
}
