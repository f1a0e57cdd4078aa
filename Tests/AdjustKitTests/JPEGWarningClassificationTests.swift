@testable import AdjustKit
import CTurboJPEG
import XCTest

/// libjpeg's warnings sorted by what they mean, on both decode paths (TurboJPEG for plain files,
/// the libjpeg shim for the rest) and at header time.
final class JPEGWarningClassificationTests: XCTestCase {
    static let harmlessDQT = "harmless JPEG warning, pixels intact: Corrupt JPEG data: 2 extraneous bytes before marker 0xdb"

    private func plain() throws -> [UInt8] {
        try JPEGRegionReaderTests.madeJPEG(size: PixelSize(width: 67, height: 45), subsampling: TJSAMP_420)
    }

    /// `bytes` inserted before the first marker `marker` (after SOI).
    private func inserting(_ bytes: [UInt8], before marker: UInt8, in jpeg: [UInt8]) throws -> [UInt8] {
        let at = try XCTUnwrap((2..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == marker })
        return Array(jpeg[..<at]) + bytes + Array(jpeg[at...])
    }

    /// Junk before DQT, raised while the header is read: reported, never refused, and the pixels
    /// are those of the file without the junk, at every scale and in a region.
    func testJunkBeforeDQTIsHarmlessWithOrWithoutTheFlag() throws {
        let clean = try plain()
        let junk = try inserting([0x00, 0x17], before: 0xDB, in: clean)
        for tolerate in [false, true] {
            let decoder = JPEGDecoder(tolerateWarnings: tolerate)
            XCTAssertEqual(try decoder.header(of: junk).warnings, [Self.harmlessDQT])
            for scale in [DecodeScale.full, DecodeScale(numerator: 2)!] {
                let (image, warnings) = try decoder.decodeReportingWarnings(junk, scale: scale)
                XCTAssertEqual(image, try JPEGDecoder().decode(clean, scale: scale), "scale \(scale)")
                XCTAssertEqual(warnings, [Self.harmlessDQT], "once, though the shim reads the header again")
            }
            let reader = try JPEGRegionReader(jpeg: junk, scale: .full, columns: 20..<50, firstRow: 17,
                                              tolerateWarnings: tolerate)
            XCTAssertEqual(reader.headerWarnings, [Self.harmlessDQT])
        }
    }

    /// An unknown Adobe colour transform, raised while the header is read, may mean wrong colours:
    /// refused by default, rendered with --tolerate-jpeg-warnings (which reaches the header).
    func testDamageAtHeaderTimeIsRefusedUnlessTolerated() throws {
        let adobe: [UInt8] = [0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8) + [0x00, 0x64, 0, 0, 0, 0, 7]
        var jpeg = try inserting(adobe, before: 0xDB, in: plain())
        // libjpeg reads the Adobe transform only without a JFIF marker: make TurboJPEG's APP0 an APP5.
        XCTAssertEqual(Array(jpeg[2..<4]), [0xFF, 0xE0])
        jpeg[3] = 0xE5
        XCTAssertThrowsError(try JPEGDecoder().header(of: jpeg)) { error in
            XCTAssertEqual(error as? DecodeError, .corrupt("Unknown Adobe color transform code 7"))
        }
        let header = try JPEGDecoder(tolerateWarnings: true).header(of: jpeg)
        XCTAssertEqual(header.warnings, ["the image data is damaged, rendered anyway (--tolerate-jpeg-warnings): Unknown Adobe color transform code 7"])
        XCTAssertNoThrow(try JPEGDecoder(tolerateWarnings: true).decode(jpeg))
    }

    /// Missing data below the header: refused on both paths; tolerated, one data warning.
    func testTruncatedDataIsDamage() throws {
        let clean = try plain()
        let truncated = Array(clean[..<(clean.count * 2 / 3)])
        XCTAssertEqual(try JPEGDecoder().header(of: truncated).warnings, [])
        XCTAssertThrowsError(try JPEGDecoder().decode(truncated)) { error in
            XCTAssertEqual(error as? DecodeError, .corrupt("Premature end of JPEG file"))
        }
        let (_, warnings) = try JPEGDecoder(tolerateWarnings: true).decodeReportingWarnings(truncated)
        XCTAssertEqual(warnings, ["the image data is damaged, rendered anyway (--tolerate-jpeg-warnings): Premature end of JPEG file"])
    }
}
