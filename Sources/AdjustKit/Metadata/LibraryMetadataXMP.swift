import CLibXML2

/// What the user set in Photos for one asset (`PhotosAssetMetadata`), written as the XMP
/// properties photo managers read (Immich, digiKam, darktable, Lightroom; the peers' choices in
/// docs/spec/photos-library.md §2):
///
/// - capture time with its offset → `photoshop:DateCreated`, `xmp:CreateDate` and
///   `exif:DateTimeOriginal` ("2021-10-02T15:15:00-04:00");
/// - place → `exif:GPSLatitude`/`exif:GPSLongitude` ("41,15.39396N"), left out with `--strip-gps`;
/// - title → `dc:title`, caption → `dc:description` (language alternatives, x-default);
/// - keywords → `dc:subject`; albums → `lr:hierarchicalSubject` ("Folder|Album");
/// - favourite → `xmp:Rating` 5.
///
/// (In a JPEG, `ExifDatePatch` also sets the EXIF date the camera wrote.)
///
/// Each property it writes replaces the same property of the file's own XMP (Photos read the
/// file's values when it imported it; what it holds now is what the user left). Properties Photos
/// holds no value for are not written, and the file's own (if any) stay. Written through
/// libxml2's tree API, as `XMPRewriter` writes everything else (text escaped by libxml2).
package struct LibraryMetadataXMP: Sendable {
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
    private static let prefixes = [dc: "dc", xmp: "xmp", photoshop: "photoshop", exif: "exif", lightroom: "lr"]

    package var metadata: PhotosAssetMetadata
    /// Whether the place is written (`--strip-gps` leaves it out).
    package var includesPlace: Bool

    package init(_ metadata: PhotosAssetMetadata, includesPlace: Bool) {
        (self.metadata, self.includesPlace) = (metadata, includesPlace)
    }

    /// One property: a simple value, a language alternative or an unordered array.
    enum Value { case text(String), alternative(String), bag([String]) }

    /// (namespace, local name, value) of every property written, in order.
    var properties: [(namespace: String, name: String, value: Value)] {
        var properties: [(String, String, Value)] = []
        if let time = metadata.captureTime {
            let stamp = time.local + time.offset
            properties += [(Self.photoshop, "DateCreated", .text(stamp)), (Self.xmp, "CreateDate", .text(stamp)),
                           (Self.exif, "DateTimeOriginal", .text(stamp))]
        }
        if includesPlace, let latitude = metadata.latitude, let longitude = metadata.longitude {
            properties += [(Self.exif, "GPSLatitude", .text(Self.coordinate(latitude, positive: "N", negative: "S"))),
                           (Self.exif, "GPSLongitude", .text(Self.coordinate(longitude, positive: "E", negative: "W")))]
        }
        if let title = metadata.title { properties.append((Self.dc, "title", .alternative(title))) }
        if let caption = metadata.caption { properties.append((Self.dc, "description", .alternative(caption))) }
        if !metadata.keywords.isEmpty { properties.append((Self.dc, "subject", .bag(metadata.keywords))) }
        if !metadata.albums.isEmpty {
            properties.append((Self.lightroom, "hierarchicalSubject", .bag(metadata.albums.map { $0.joined(separator: "|") })))
        }
        if metadata.isFavorite { properties.append((Self.xmp, "Rating", .text("5"))) }
        return properties
    }

    /// True when there is nothing to write.
    package var isEmpty: Bool { properties.isEmpty }

    /// Whether the file's property `namespace`:`name` gives way to one written here.
    func replaces(namespace: String?, name: String) -> Bool {
        properties.contains { $0.namespace == namespace && $0.name == name }
    }

    /// XMP's GPS coordinate form (XMP Specification Part 2, "GPSCoordinate"): "DDD,MM.mmmmmmmmK",
    /// degrees and decimal minutes, the hemisphere last.
    static func coordinate(_ value: Double, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        var degrees = Int(magnitude)
        var minutes = ((magnitude - Double(degrees)) * 60 * 100_000_000).rounded() / 100_000_000
        if minutes >= 60 { (degrees, minutes) = (degrees + 1, 0) }
        var text = String(format: "%.8f", minutes)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return "\(degrees),\(text)\(value < 0 ? negative : positive)"
    }

    /// XML 1.0 allows no C0 control character but tab, line feed and carriage return.
    static func xmlSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0.value >= 0x20 || $0 == "\t" || $0 == "\n" || $0 == "\r"
        }))
    }

    /// Appends `<rdf:Description rdf:about="">` holding every property as the last child of
    /// `rdfElement`.
    func append(to rdfElement: xmlNodePtr, document doc: xmlDocPtr) {
        let rdfNamespace = rdfElement.pointee.ns
        guard !isEmpty, let description = xmlNewDocNode(doc, rdfNamespace, "Description", nil) else { return }
        xmlAddChild(rdfElement, description)
        xmlSetNsProp(description, rdfNamespace, "about", "")
        var declared: [String: xmlNsPtr] = [:]
        for (namespace, name, value) in properties {
            if declared[namespace] == nil { declared[namespace] = xmlNewNs(description, namespace, Self.prefixes[namespace]) }
            switch value {
            case .text(let text):
                xmlNewTextChild(description, declared[namespace], name, Self.xmlSafe(text))
            case .alternative(let text):
                let property = xmlNewChild(description, declared[namespace], name, nil)
                let alternative = xmlNewChild(property, rdfNamespace, "Alt", nil)
                let item = xmlNewTextChild(alternative, rdfNamespace, "li", Self.xmlSafe(text))
                xmlNodeSetLang(item, "x-default")
            case .bag(let items):
                let property = xmlNewChild(description, declared[namespace], name, nil)
                let bag = xmlNewChild(property, rdfNamespace, "Bag", nil)
                for text in items { xmlNewTextChild(bag, rdfNamespace, "li", Self.xmlSafe(text)) }
            }
        }
    }

    /// A packet of its own: these properties (and `provenance`, when given), for a sidecar
    /// `NAME.EXT.xmp` or an output whose original has no XMP.
    package func standalonePacket(provenance: Provenance? = nil) -> [UInt8]? {
        let skeleton = Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"></rdf:RDF></x:xmpmeta>
            """.utf8)
        guard case .rewritten(let bytes) = XMPRewriter.rewrite(skeleton, outputSize: nil, provenance: provenance, library: self)
        else { return nil }
        return bytes
    }
}
