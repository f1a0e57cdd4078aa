import CLibXML2
import XMPParse

/// Rewrites the original's standard XMP packet for a rendered image with libxml2's tree API:
/// every property in the aas namespace (`AdjustmentNamespace.aas`) is removed from every
/// rdf:Description, so the edit is never applied twice; `xmpNote:HasExtendedXMP` goes too,
/// because Extended XMP is never carried; and the stale size and orientation properties XMP
/// can mirror (tiff:Orientation, tiff:ImageWidth/ImageLength, exif:PixelXDimension/
/// PixelYDimension) are updated where present. Everything else, crs: included, is kept.
/// Provenance an earlier render recorded (`Provenance.namespace`) is removed as well: it described
/// that render, not this one; with a `provenance` to record, a new rdf:Description holds it.
///
/// With a `library` (what the user set in Photos: `LibraryMetadataXMP`), the properties it writes
/// replace the file's own and a new rdf:Description holds them. Without an `outputSize` the packet
/// belongs to a byte copy of the original (its pixels untouched): only the library's properties
/// and the provenance change, nothing else is removed or updated.
///
/// A packet whose xpacket trailer is broken is carried without it (`PacketTrailer`).
///
/// The parse is XMPParse's `HardenedXMLReader`: a DOCTYPE or entity declaration stops it (the
/// XMP is then dropped), no network, no entity substitution, no DTD loading; input is read as
/// UTF-8 whatever its declaration says.
enum XMPRewriter {
    enum Outcome: Equatable {
        /// Nothing to change: carry the original packet bytes as they are.
        case unchanged
        /// The new packet (without the APP1 signature).
        case rewritten([UInt8])
        /// Nothing but empty rdf:Descriptions was left: carry no XMP.
        case empty
        /// Could not be parsed or rewritten: carry no XMP, say why.
        case failed(String)
    }

    private static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    private static let xmpNote = "http://ns.adobe.com/xmp/note/"
    private static let tiff = "http://ns.adobe.com/tiff/1.0/"
    private static let exif = "http://ns.adobe.com/exif/1.0/"

    static func rewrite(_ packet: [UInt8], outputSize: PixelSize?, provenance: Provenance? = nil,
                        library: LibraryMetadataXMP? = nil) -> Outcome {
        guard !packet.isEmpty else { return .failed("metadata: XMP packet is empty; XMP dropped") }
        do {
            return try HardenedXMLReader.withRootElement(ofUTF8: packet) { root in
                rewrite(root: root, document: root.pointee.doc, outputSize: outputSize, provenance: provenance,
                        library: library.flatMap { $0.isEmpty ? nil : $0 })
            }
        } catch .doctypeForbidden {
            return .failed("metadata: XMP has a DOCTYPE or entity declaration; XMP dropped")
        } catch {
            // A broken xpacket trailer (cut short, or followed by bytes that are not XML) is
            // left out, as the edit reader leaves it out (`PacketTrailer`): the rest is carried.
            let end = (packet.lastIndex { $0 != 0 }).map { $0 + 1 } ?? 0
            if let (repaired, _) = PacketTrailer.repaired(Array(packet[..<end])), !repaired.isEmpty {
                switch rewrite(repaired, outputSize: outputSize, provenance: provenance, library: library) {
                case .unchanged: return .rewritten(repaired)
                case .failed: break
                case let outcome: return outcome
                }
            }
            return .failed("metadata: XMP is not well-formed XML; XMP dropped")
        }
    }

    /// Edits the parsed tree in place and serialises it (the document is freed by the reader).
    private static func rewrite(root: xmlNodePtr, document doc: xmlDocPtr, outputSize: PixelSize?,
                                provenance: Provenance?, library: LibraryMetadataXMP?) -> Outcome {
        var descriptions: [xmlNodePtr] = []
        collectDescriptions(root, into: &descriptions)
        var changed = false
        for description in descriptions {
            changed = rewriteDescription(description, outputSize: outputSize, library: library) || changed
        }
        guard changed || provenance != nil || library != nil else { return .unchanged }

        for description in descriptions where isEmpty(description) { removeElement(description) }
        if provenance != nil || library != nil {
            guard let rdfElement = findRDF(root) else { return .failed("metadata: XMP has no rdf:RDF; XMP dropped") }
            library?.append(to: rdfElement, document: doc)
            if let provenance { append(provenance, to: rdfElement, document: doc) }
        } else if !descriptions.isEmpty, !containsDescription(root) {
            return .empty
        }
        removeUnusedDeclarations(in: root)

        var memory: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpMemoryEnc(doc, &memory, &size, "UTF-8")
        guard let memory, size > 0 else { return .failed("metadata: libxml2 could not serialise the XMP; XMP dropped") }
        defer { freeLibXML2Memory(memory) }
        var bytes = Array(UnsafeBufferPointer(start: memory, count: Int(size)))
        // xmlDocDumpMemoryEnc starts with an XML declaration; an XMP packet in a JPEG has none.
        if bytes.starts(with: Array("<?xml ".utf8)), let end = firstIndex(of: Array("?>".utf8), in: bytes) {
            var cut = end + 2
            while cut < bytes.count, bytes[cut] == 0x0A || bytes[cut] == 0x0D { cut += 1 }
            bytes.removeFirst(cut)
        }
        while let last = bytes.last, last == 0x0A { bytes.removeLast() }
        return .rewritten(bytes)
    }

    // MARK: - Tree edits

    private static func href(_ ns: xmlNsPtr?) -> String? {
        guard let ns, let href = ns.pointee.href else { return nil }
        return String(cString: href)
    }

    private static func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func isAAS(_ ns: xmlNsPtr?) -> Bool { href(ns) == AdjustmentNamespace.aas }

    private static func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    private static func isDescription(_ node: xmlNodePtr) -> Bool {
        node.pointee.type == XML_ELEMENT_NODE && href(node.pointee.ns) == rdf && name(node.pointee.name) == "Description"
    }

    /// Every rdf:Description that is a direct child of an rdf:RDF (the top-level ones holding
    /// properties); nested structs written as rdf:Description are left to their property.
    private static func collectDescriptions(_ node: xmlNodePtr, into result: inout [xmlNodePtr]) {
        for child in elementChildren(node) {
            if isDescription(child), href(node.pointee.ns) == rdf, name(node.pointee.name) == "RDF" {
                result.append(child)
            } else {
                collectDescriptions(child, into: &result)
            }
        }
    }

    private static func containsDescription(_ node: xmlNodePtr) -> Bool {
        elementChildren(node).contains { isDescription($0) || containsDescription($0) }
    }

    /// The value a stale mirror property takes, or nil for a property left alone.
    private static func replacement(namespace: String?, name: String, outputSize: PixelSize) -> String? {
        switch (namespace, name) {
        case (tiff, "Orientation"): "1"
        case (tiff, "ImageWidth"), (exif, "PixelXDimension"): String(outputSize.width)
        case (tiff, "ImageLength"), (exif, "PixelYDimension"): String(outputSize.height)
        default: nil
        }
    }

    private static func isDropped(_ ns: xmlNsPtr?, _ localName: String) -> Bool {
        isAAS(ns) || href(ns) == Provenance.namespace || (href(ns) == xmpNote && localName == "HasExtendedXMP")
    }

    /// The first rdf:RDF element at or under `node`.
    private static func findRDF(_ node: xmlNodePtr) -> xmlNodePtr? {
        if href(node.pointee.ns) == rdf, name(node.pointee.name) == "RDF" { return node }
        for child in elementChildren(node) {
            if let found = findRDF(child) { return found }
        }
        return nil
    }

    /// Appends `<rdf:Description rdf:about="" adjust:Tool="…" …/>` as the last child of `rdfElement`.
    private static func append(_ provenance: Provenance, to rdfElement: xmlNodePtr, document doc: xmlDocPtr) {
        let rdfNamespace = rdfElement.pointee.ns
        guard let description = xmlNewDocNode(doc, rdfNamespace, "Description", nil) else { return }
        xmlAddChild(rdfElement, description)
        xmlSetNsProp(description, rdfNamespace, "about", "")
        let namespace = xmlNewNs(description, Provenance.namespace, Provenance.prefix)
        for (name, value) in provenance.xmpProperties { xmlSetNsProp(description, namespace, name, value) }
    }

    /// Applies the edits to one rdf:Description; true when anything changed.
    private static func rewriteDescription(_ description: xmlNodePtr, outputSize: PixelSize?,
                                           library: LibraryMetadataXMP?) -> Bool {
        // A byte copy (no outputSize) keeps all but what the library replaces.
        func dropped(_ ns: xmlNsPtr?, _ localName: String) -> Bool {
            (outputSize != nil && isDropped(ns, localName)) || library?.replaces(namespace: href(ns), name: localName) == true
        }
        func replacement(namespace: String?, name: String) -> String? {
            outputSize.flatMap { Self.replacement(namespace: namespace, name: name, outputSize: $0) }
        }
        var changed = false
        var attribute = description.pointee.properties
        while let current = attribute {
            attribute = current.pointee.next
            let localName = name(current.pointee.name)
            if dropped(current.pointee.ns, localName) {
                xmlRemoveProp(current)
                changed = true
            } else if let value = replacement(namespace: href(current.pointee.ns), name: localName) {
                if textContent(current.pointee.children) != value {
                    xmlNodeSetContent(UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self), value)
                    changed = true
                }
            }
        }
        for child in elementChildren(description) {
            let localName = name(child.pointee.name)
            if dropped(child.pointee.ns, localName) {
                removeElement(child)
                changed = true
            } else if let value = replacement(namespace: href(child.pointee.ns), name: localName),
                      elementChildren(child).isEmpty, child.pointee.properties == nil || onlyLanguage(child) {
                if textContent(child.pointee.children) != value {
                    xmlNodeSetContent(child, value)
                    changed = true
                }
            }
        }
        return changed
    }

    /// Unlinks and frees `element` together with the whitespace-only text just before it (its
    /// indentation), so removed properties leave no blank lines behind.
    private static func removeElement(_ element: xmlNodePtr) {
        if let previous = element.pointee.prev, previous.pointee.type == XML_TEXT_NODE,
           isWhitespace(textContent(previous, siblings: false)) {
            xmlUnlinkNode(previous)
            xmlFreeNode(previous)
        }
        xmlUnlinkNode(element)
        xmlFreeNode(element)
    }

    private static func isWhitespace(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    }

    private static func onlyLanguage(_ node: xmlNodePtr) -> Bool {
        guard let attribute = node.pointee.properties else { return true }
        return attribute.pointee.next == nil && name(attribute.pointee.name) == "lang"
    }

    private static func textContent(_ first: xmlNodePtr?, siblings: Bool = true) -> String {
        var text = ""
        var node = first
        while let current = node {
            if current.pointee.type == XML_TEXT_NODE, let content = current.pointee.content { text += String(cString: content) }
            node = siblings ? current.pointee.next : nil
        }
        return text
    }

    /// True for an rdf:Description holding no property: no element child, no non-whitespace
    /// text, no attribute but rdf:about (namespace declarations are not attributes in libxml2).
    private static func isEmpty(_ description: xmlNodePtr) -> Bool {
        guard elementChildren(description).isEmpty,
              isWhitespace(textContent(description.pointee.children))
        else { return false }
        var attribute = description.pointee.properties
        while let current = attribute {
            if !(href(current.pointee.ns) == rdf && name(current.pointee.name) == "about") { return false }
            attribute = current.pointee.next
        }
        return true
    }

    /// Removes declarations of the aas namespaces (and xmpNote) that no element or attribute
    /// uses any more, so the output does not even mention them.
    private static func removeUnusedDeclarations(in root: xmlNodePtr) {
        var used = Set<UnsafeMutableRawPointer>()
        func collectUsed(_ node: xmlNodePtr) {
            if let ns = node.pointee.ns { used.insert(UnsafeMutableRawPointer(ns)) }
            var attribute = node.pointee.properties
            while let current = attribute {
                if let ns = current.pointee.ns { used.insert(UnsafeMutableRawPointer(ns)) }
                attribute = current.pointee.next
            }
            for child in elementChildren(node) { collectUsed(child) }
        }
        collectUsed(root)
        func prune(_ node: xmlNodePtr) {
            var previous: xmlNsPtr?
            var declaration = node.pointee.nsDef
            while let current = declaration {
                declaration = current.pointee.next
                let uri = href(current) ?? ""
                let removable = uri.hasPrefix(AdjustmentNamespace.aas) || uri == xmpNote || uri == Provenance.namespace
                if removable, !used.contains(UnsafeMutableRawPointer(current)) {
                    if let previous { previous.pointee.next = current.pointee.next } else { node.pointee.nsDef = current.pointee.next }
                    current.pointee.next = nil
                    xmlFreeNs(current)
                } else {
                    previous = current
                }
            }
            for child in elementChildren(node) { prune(child) }
        }
        prune(root)
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

/// libxml2's `xmlFree`, fetched through `xmlMemGet`: the `xmlFree` global is a mutable C variable,
/// which Swift 6 does not let concurrent code read directly (libxml2 sets it once, at start-up).
private func freeLibXML2Memory(_ memory: UnsafeMutableRawPointer) {
    var free: xmlFreeFunc?
    xmlMemGet(&free, nil, nil, nil)
    free?(memory)
}
