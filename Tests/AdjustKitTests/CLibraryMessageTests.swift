import XCTest
@testable import AdjustKit

/// The codec shims' message buffers as an error line (`CLibraryMessage`).
final class CLibraryMessageTests: XCTestCase {
    func testTheTextBeforeTheNULTrimmed() {
        let buffer: [CChar] = Array("  Premature end of JPEG file\n".utf8CString) + [CChar](repeating: 65, count: 4)
        XCTAssertEqual(CLibraryMessage.text(buffer), "Premature end of JPEG file")
    }

    func testABufferWithoutNULIsReadToItsEnd() {
        XCTAssertEqual(CLibraryMessage.text("bad".utf8.map { CChar(bitPattern: $0) }), "bad")
    }

    func testNothingSaidIsAnUnknownError() {
        XCTAssertEqual(CLibraryMessage.text([CChar](repeating: 0, count: 8)), "unknown error")
        XCTAssertEqual(CLibraryMessage.text(Array(" \n".utf8CString)), "unknown error")
        "\t".withCString { XCTAssertEqual(CLibraryMessage.text($0), "unknown error") }
        "Huffman table 0x01 was not defined".withCString {
            XCTAssertEqual(CLibraryMessage.text($0), "Huffman table 0x01 was not defined")
        }
    }
}
