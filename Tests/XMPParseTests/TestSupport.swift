import Foundation
import XCTest
import XMPParse

/// Locates committed test inputs relative to the package root, so tests run from any directory.
enum FixtureFile {
    /// Tests/XMPParseTests/TestSupport.swift → package root.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(relativePath)))
    }

    static func malformed(_ name: String) throws -> [UInt8] {
        try bytes("Fixtures/xmp/malformed/\(name)")
    }
}

enum Namespaces {
    static let aas = "http://ns.apple.com/adjustment-settings/1.0/"
    static let crs = "http://ns.adobe.com/camera-raw-settings/1.0/"
    static let redEye = "http://ns.apple.com/adjustment-settings/1.0/sType/redeye"
}

func aas(_ name: String) -> XMPName { XMPName(namespace: Namespaces.aas, name: name) }
func redEye(_ name: String) -> XMPName { XMPName(namespace: Namespaces.redEye, name: name) }

func parse(_ xml: String, limits: XMPLimits = .default) throws -> XMPPacket {
    try XMPPacketParser.parse(Array(xml.utf8), limits: limits)
}

/// Wraps property markup in the usual x:xmpmeta / rdf:RDF / rdf:Description frame.
func packet(_ body: String, descriptionAttributes: String = "") -> String {
    """
    <x:xmpmeta xmlns:x="adobe:ns:meta/">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:aas="\(Namespaces.aas)" xmlns:re="\(Namespaces.redEye)" \(descriptionAttributes)>
    \(body)
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    """
}

/// Asserts that `expression` throws exactly `expected`.
func XCTAssertThrowsXMPError<T>(
    _ expression: @autoclosure () throws -> T,
    _ expected: XMPError,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertThrowsError(try expression(), message(), file: file, line: line) { error in
        XCTAssertEqual(error as? XMPError, expected, message(), file: file, line: line)
    }
}

/// Returns the XMPError thrown by `expression`, failing the test if it throws nothing or
/// something else.
func thrownXMPError<T>(
    _ expression: @autoclosure () throws -> T,
    file: StaticString = #filePath,
    line: UInt = #line
) -> XMPError? {
    do {
        _ = try expression()
        XCTFail("expected an XMPError, got a value", file: file, line: line)
        return nil
    } catch let error as XMPError {
        return error
    } catch {
        XCTFail("expected an XMPError, got \(error)", file: file, line: line)
        return nil
    }
}
