import XCTest
import XMPParse

final class XMPNumberTests: XCTestCase {
    func testAcceptsPercentGOutputAndOtherDecimalForms() throws {
        let cases: [(String, Double)] = [
            ("-331", -331), ("0.0919118", 0.0919118), ("1.23457e+06", 1_234_570),
            (" 5 ", 5), (".5", 0.5), ("5.", 5), ("+2", 2), ("1E3", 1000), ("-0.5e-3", -0.0005),
            ("\n\t1938\r\n", 1938), ("1e-999", 0),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try XMPNumber.parse(text), expected, "\(text.debugDescription)")
        }
    }

    func testRejectsNonNumbers() {
        for text in ["nan", "NaN", "inf", "-infinity", "0x10", "", "   ", "1,5", "12abc", "abc", ".", "e5", "1e", "1e+",
                     "--1", "1 2", "١٢", "+.e1"] {
            XCTAssertThrowsXMPError(try XMPNumber.parse(text), .notANumber(text), "\(text.debugDescription)")
        }
        XCTAssertEqual(XMPError.notANumber("abc").description, #"not a number: "abc""#)
    }

    func testRejectsOverflow() {
        XCTAssertThrowsXMPError(try XMPNumber.parse("1e999"), .nonFiniteNumber("1e999"))
        XCTAssertThrowsXMPError(try XMPNumber.parse("-1e999"), .nonFiniteNumber("-1e999"))
        XCTAssertEqual(XMPError.nonFiniteNumber("1e999").description, #"non-finite number: "1e999""#)
    }

    func testErrorDescriptionStaysOneShortLine() {
        let hostile = "1\n" + String(repeating: "x", count: 500)
        let description = XMPError.notANumber(hostile).description
        XCTAssertFalse(description.contains("\n"))
        XCTAssertLessThan(description.count, 80)
    }

    func testBooleans() {
        for text in ["True", "true", "TRUE", " tRuE\n"] { XCTAssertTrue(XMPBool.parse(text), text) }
        for text in ["False", "false", "1", "yes", "", "truee", "tru", "True False"] { XCTAssertFalse(XMPBool.parse(text), text) }
    }
}
