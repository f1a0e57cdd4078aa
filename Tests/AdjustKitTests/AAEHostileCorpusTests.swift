import AdjustKit
import Foundation
import XCTest

/// The AAE files of Fixtures/hostile (scripts/make-hostile-corpus, listed in its README), read
/// in-process by `AAEDocument(contentsOf:)` — the CLI does not read AAE files yet. Each must be
/// refused with its typed error, in one line, within the corpus bounds: < 2 s of wall time and
/// < 200 MB of peak RSS above the RSS before the read (Linux: the peak is reset first by writing
/// 5 to /proc/self/clear_refs, then read from VmHWM in /proc/self/status).
final class AAEHostileCorpusTests: XCTestCase {
    static let covered = [
        "aae-deflate-bomb.aae", "aae-plist-deep-nesting.aae", "aae-plist-cycle.aae", "aae-plist-huge-count.aae",
        "aae-plist-4097-objects.aae", "aae-deep-json.aae", "aae-nan-crop.aae", "aae-infinite-crop.aae",
        "aae-huge-crop.aae", "aae-external-edit.aae", "aae-slomo.aae", "aae-truncated.aae", "aae-truncated-binary.aae",
        "aae-payload-not-deflate.aae", "aae-payload-not-json.aae", "aae-payload-truncated-deflate.aae",
    ]

    func testDeflateBomb() throws {
        // 256 MiB of zeros in 261 KB: inflation stops at the 4 MiB cap.
        try refused("aae-deflate-bomb.aae", .inflatedTooLarge(limit: 4 << 20))
    }

    func testPlistDeepNesting() throws {
        try refused("aae-plist-deep-nesting.aae", .plistNestingTooDeep(limit: 8))
    }

    func testPlistCycle() throws {
        try refused("aae-plist-cycle.aae", .plistNestingTooDeep(limit: 8))
    }

    func testPlistHugeCount() throws {
        try refused("aae-plist-huge-count.aae", .tooManyPlistObjects(count: 1 << 40, limit: 4096))
    }

    func testPlist4097Objects() throws {
        try refused("aae-plist-4097-objects.aae", .tooManyPlistObjects(count: 4097, limit: 4096))
    }

    func testDeepJSON() throws {
        try refused("aae-deep-json.aae", .jsonNestingTooDeep(limit: 32))
    }

    func testNaNCrop() throws {
        // JSON has no NaN: the scan passes the word on as a literal, and the JSON parser refuses it.
        let error = try refused("aae-nan-crop.aae")
        guard case .payloadNotJSON = error else { return XCTFail("\(error)") }
    }

    func testInfiniteCrop() throws {
        try refused("aae-infinite-crop.aae", .numberOutOfRange("1e400"))
    }

    func testHugeCrop() throws {
        try refused("aae-huge-crop.aae", .pixelValueOutOfRange(adjustment: "Crop", key: "width", value: 1e12, limit: 1_048_576))
    }

    func testExternalEdit() throws {
        try refused("aae-external-edit.aae",
                    .unsupportedFormat(identifier: "com.apple.Photos.externalEdit", editor: "com.example.PhotoEditor"))
    }

    func testSlowMotion() throws {
        try refused("aae-slomo.aae", .unsupportedFormat(identifier: "com.apple.video.slomo", editor: "com.apple.camera"))
    }

    func testTruncatedXML() throws {
        let error = try refused("aae-truncated.aae")
        guard case .malformedPropertyList = error else { return XCTFail("\(error)") }
    }

    func testTruncatedBinary() throws {
        let error = try refused("aae-truncated-binary.aae")
        guard case .malformedPropertyList = error else { return XCTFail("\(error)") }
    }

    func testPayloadNotDeflate() throws {
        let error = try refused("aae-payload-not-deflate.aae")
        guard case .payloadNotDeflate = error else { return XCTFail("\(error)") }
    }

    func testPayloadTruncatedDeflate() throws {
        try refused("aae-payload-truncated-deflate.aae", .payloadNotDeflate("the stream is truncated"))
    }

    func testPayloadNotJSON() throws {
        let error = try refused("aae-payload-not-json.aae")
        guard case .payloadNotJSON = error else { return XCTFail("\(error)") }
    }

    // MARK: - Helpers

    /// Reads the corpus file; it must be refused (with `expected`, when given) in one line, within
    /// the time and memory bounds. Returns the error.
    @discardableResult
    private func refused(_ name: String, _ expected: AAEError? = nil, line: UInt = #line) throws -> AAEError {
        let bytes = try TestFixtures.bytes(HostileCorpusTests.corpus(name))
        resetPeakRSS()
        let baseKB = Self.status("VmRSS")
        let start = Date()
        let outcome = Result { () throws(AAEError) in try AAEDocument(contentsOf: bytes) }
        let seconds = Date().timeIntervalSince(start)
        let peakKB = Self.status("VmHWM")
        XCTAssertLessThan(seconds, HostileCorpusTests.maxSeconds, "\(name): \(seconds) s", line: line)
        XCTAssertGreaterThan(peakKB, 0, "\(name): no VmHWM", line: line)
        XCTAssertLessThan(peakKB - baseKB, HostileCorpusTests.maxResidentKB, "\(name): peak RSS +\(peakKB - baseKB) KB", line: line)
        guard case .failure(let error) = outcome else {
            XCTFail("\(name): accepted", line: line)
            throw XCTSkip("accepted")
        }
        if let expected { XCTAssertEqual(error, expected, name, line: line) }
        XCTAssertFalse(error.description.isEmpty || error.description.contains("\n"), "\(name): \(error.description)", line: line)
        print("\(name): \(error.description) (\(String(format: "%.3f", seconds)) s, peak RSS +\(peakKB - baseKB) KB)")
        return error
    }

    /// Resets the process's peak RSS (VmHWM) to its current RSS (Linux ≥ 4.0).
    private func resetPeakRSS() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
            return XCTFail("cannot reset the peak RSS through /proc/self/clear_refs")
        }
        handle.write(Data("5".utf8))
        try? handle.close()
    }

    /// A `kB` field of /proc/self/status.
    private static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return -1 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
}
