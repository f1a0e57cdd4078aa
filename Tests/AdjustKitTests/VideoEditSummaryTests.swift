@testable import AdjustKit
import XCTest

/// A video copied without its edit names what the edit holds (issue 29 scope 2). The expected
/// times are the upstream notes' (docs/spec/photos-library.md §3: Trim 46059/90000 s to
/// 248936/90000 s; slow motion from 0.398 s for 1.857 s at rate 0.125), not this reader's.
final class VideoEditSummaryTests: XCTestCase {
    func testTrim() {
        XCTAssertEqual(VideoEditSummary.describe(editAt: TestFixtures.path("Fixtures/aae/423C0683-672D-4DDD-979C-23A6A53D7256.plist")),
                       ["Trim 0.512 s to 2.766 s"])
    }

    func testSlowMotion() {
        let plist = TestFixtures.path("Fixtures/photos-library/Test-Media-Types-15.7.2.photoslibrary/resources/renders/3/"
                                      + "3715655F-9437-4B8E-ADE5-515CD1FD0343.plist")
        XCTAssertEqual(VideoEditSummary.describe(editAt: plist), ["slow motion 0.398 s to 2.255 s at 1/8"])
    }

    func testAnythingElseIsNamedNeverFatal() throws {
        XCTAssertEqual(VideoEditSummary.describe(editAt: TestFixtures.path("Fixtures/aae/IMG_1994.AAE")), ["com.apple.photo"])
        XCTAssertEqual(VideoEditSummary.describe(editAt: "/nonexistent.plist"), ["video edit"])
        let scratch = try ScratchFolder.make("video-edit")
        defer { ScratchFolder.remove(scratch) }
        let bomb = scratch.appendingPathComponent("deep.plist")
        try Data(("<plist><array>" + String(repeating: "<array>", count: 5000) + "</array></plist>").utf8).write(to: bomb)
        XCTAssertEqual(VideoEditSummary.describe(editAt: bomb.path), ["video edit"], "the nesting limit holds")
    }
}
