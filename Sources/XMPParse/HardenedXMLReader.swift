import CLibXML2

/// Parses untrusted XML with libxml2 while refusing any document type declaration.
///
/// libxml2 2.9.14 has no `XML_PARSE_NO_XXE`, and the global defaults it copies into a fresh
/// parser context (entity substitution, external subset loading) can be changed by other code in
/// the process. So rather than rely on switches, SAX hooks stop the parser the moment a DOCTYPE or
/// entity declaration is reported — before any entity can be declared, expanded or fetched — and
/// the options below never ask for DTD processing. A structured-error hook keeps the first error,
/// because libxml2 keeps parsing after a fatal error and its last error is usually a consequence
/// ("Premature end of data") rather than the cause.
public enum HardenedXMLReader {
    /// Options for `xmlCtxtReadMemory`. Deliberately absent: NOENT, DTDLOAD, DTDATTR, DTDVALID,
    /// HUGE, XINCLUDE. NOERROR/NOWARNING keep libxml2 from printing; errors are still recorded and
    /// reported through `XMPError.malformedXML`. IGNORE_ENC, with UTF-8 forced below, makes
    /// libxml2 read the very bytes the safety scans checked (see `XMLTextEncoding`).
    private static let parseOptions = Int32(bitPattern:
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_IGNORE_ENC.rawValue)

    /// Longest libxml2 message kept in an error, so hostile input cannot make error lines huge.
    private static let maxMessageLength = 200

    private static let libraryInitialized: Void = { xmlInitParser() }()

    /// Parses `utf8` (read as UTF-8 whatever its XML declaration says) and passes the root element
    /// to `body`; the document is freed when `body` returns or throws, so no libxml2 pointer may
    /// escape `body`.
    public static func withRootElement<Result>(
        ofUTF8 bytes: [UInt8],
        _ body: (xmlNodePtr) throws(XMPError) -> Result
    ) throws(XMPError) -> Result {
        _ = libraryInitialized
        guard let length = Int32(exactly: bytes.count) else {
            throw .packetTooLarge(bytes: bytes.count, limit: Int(Int32.max))
        }
        guard let context = xmlNewParserCtxt() else {
            throw .malformedXML(line: 0, message: "libxml2 could not create a parser")
        }
        defer { xmlFreeParserCtxt(context) }

        let state = ParseState()
        installHooks(on: context, reporting: state)
        defer { context.pointee._private = nil }

        let parsed: xmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { characters in
                    xmlCtxtReadMemory(context, characters, length, nil, "UTF-8", parseOptions)
                }
            }
        }
        defer { if let parsed { xmlFreeDoc(parsed) } }

        if state.declarationSeen { throw .doctypeForbidden }
        guard let document = parsed, context.pointee.wellFormed != 0, context.pointee.nsWellFormed != 0 else {
            throw state.firstError ?? lastError(of: context)
        }
        // Belt and braces: a DTD that somehow slipped past the hooks still fails the read.
        if document.pointee.intSubset != nil || document.pointee.extSubset != nil {
            throw .doctypeForbidden
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw .malformedXML(line: 0, message: "document has no root element")
        }
        return try body(root)
    }

    /// What the C callbacks observed. Reached through `xmlParserCtxt._private`, because
    /// `@convention(c)` closures cannot capture it.
    private final class ParseState {
        var declarationSeen = false
        var firstError: XMPError?
    }

    /// `userData` in every SAX callback is the parser context itself: `xmlNewParserCtxt` sets
    /// `userData = ctxt`.
    private static func state(of userData: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, ParseState)? {
        guard let userData else { return nil }
        let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let state = context.pointee._private else { return nil }
        return (context, Unmanaged<ParseState>.fromOpaque(state).takeUnretainedValue())
    }

    private static func installHooks(on context: xmlParserCtxtPtr, reporting state: ParseState) {
        context.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        guard let handler = context.pointee.sax else { return }
        handler.pointee.serror = { userData, error in
            HardenedXMLReader.recordError(userData, error)
        }
        handler.pointee.internalSubset = { userData, _, _, _ in
            HardenedXMLReader.refuseDeclaration(userData)
        }
        handler.pointee.externalSubset = { userData, _, _, _ in
            HardenedXMLReader.refuseDeclaration(userData)
        }
        handler.pointee.entityDecl = { userData, _, _, _, _, _ in
            HardenedXMLReader.refuseDeclaration(userData)
        }
    }

    private static func refuseDeclaration(_ userData: UnsafeMutableRawPointer?) {
        guard let (context, state) = state(of: userData) else {
            // No state to record in, but stopping is what matters; the caller still sees a
            // failed parse.
            if let userData { xmlStopParser(userData.assumingMemoryBound(to: xmlParserCtxt.self)) }
            return
        }
        state.declarationSeen = true
        xmlStopParser(context)
    }

    private static func recordError(_ userData: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
        guard let (_, state) = state(of: userData), state.firstError == nil,
              let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        state.firstError = malformedXML(from: error)
    }

    private static func lastError(of context: xmlParserCtxtPtr) -> XMPError {
        guard let error = xmlCtxtGetLastError(context) else {
            return .malformedXML(line: 0, message: "libxml2 rejected the document")
        }
        return malformedXML(from: error)
    }

    private static func malformedXML(from error: xmlErrorPtr) -> XMPError {
        guard let message = error.pointee.message else {
            return .malformedXML(line: Int(error.pointee.line), message: "libxml2 error \(error.pointee.code)")
        }
        let oneLine = String(cString: message)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { XMLWhitespace.trimmed(String($0)) }
            .joined(separator: " ")
        let shortened = oneLine.count > maxMessageLength ? String(oneLine.prefix(maxMessageLength)) + "…" : oneLine
        return .malformedXML(line: Int(error.pointee.line), message: shortened)
    }
}
