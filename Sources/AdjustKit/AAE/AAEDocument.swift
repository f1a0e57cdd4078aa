import Foundation

/// An Apple adjustment sidecar — an iOS/macOS `.AAE` file, an iPhone's `Adjustments.plist`, or a
/// macOS Photos `resources/renders/…/UUID.plist` (all the same format) — read into typed values:
/// the property list's keys, and the `com.apple.photo` payload's metadata and enabled adjustments,
/// uninterpreted. Reading it is spec aae-format.md §2; what each adjustment means is for the
/// mapping layer (`FilterRegistry.aaeSupport` gives each adjustment's support level, from its filter).
package struct AAEDocument: Sendable, Equatable {
    /// The only `adjustmentFormatIdentifier` whose payload is Apple's pipeline format.
    package static let photoFormatIdentifier = "com.apple.photo"

    /// `adjustmentFormatIdentifier` (always `com.apple.photo` in a document that was read; other
    /// identifiers are refused with `AAEError.unsupportedFormat`).
    package var formatIdentifier: String
    /// `adjustmentFormatVersion`, e.g. `1.4`, `1.11`.
    package var formatVersion: String
    /// `adjustmentEditorBundleID`, e.g. `com.apple.Photos`, `com.apple.camera`.
    package var editorBundleID: String
    /// `adjustmentBaseVersion`, when present.
    package var baseVersion: Int?
    /// The payload's `metadata`.
    package var metadata: AAEMetadata
    /// The enabled adjustments, in the payload's order (which does not matter to Apple's pipeline).
    package var adjustments: [AAEAdjustment]
    /// The identifiers of the adjustments marked disabled, which Photos does not apply (for notes).
    package var disabledAdjustments: [String]

    package init(formatIdentifier: String = AAEDocument.photoFormatIdentifier, formatVersion: String,
                editorBundleID: String, baseVersion: Int? = nil, metadata: AAEMetadata,
                adjustments: [AAEAdjustment], disabledAdjustments: [String] = []) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.editorBundleID = editorBundleID
        self.baseVersion = baseVersion
        self.metadata = metadata
        self.adjustments = adjustments
        self.disabledAdjustments = disabledAdjustments
    }

    /// The first enabled adjustment with `identifier`, if any.
    package func adjustment(_ identifier: String) -> AAEAdjustment? {
        adjustments.first { $0.identifier == identifier }
    }

    /// Reads an AAE file's bytes (XML or binary property list).
    ///
    /// Every limit in `limits` is checked before the work it bounds: the file size before anything,
    /// the property list's structure (`AAEPlistScan`) before Foundation parses it, the payload size
    /// before inflating, the inflated size while inflating, and the JSON's depth and counts
    /// (`AAEJSONScan`) before the JSON parser. Then: `enabled` may be a boolean or 0/1 and is true
    /// when absent (Live Photo key-frame entries omit it); disabled adjustments are dropped (and
    /// listed in `disabledAdjustments`); the metadata sizes and the `Crop` rectangle must be within
    /// ±`limits.maxPixelValue`.
    package init(contentsOf bytes: [UInt8], limits: AAELimits = .default) throws(AAEError) {
        guard bytes.count <= limits.maxFileBytes else { throw .fileTooLarge(bytes: bytes.count, limit: limits.maxFileBytes) }
        switch try AAEPlistScan.format(of: bytes) {
        case .xml: try AAEPlistScan.checkXML(bytes, limits: limits)
        case .binary: try AAEPlistScan.checkBinary(bytes, limits: limits)
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw .malformedPropertyList((error as NSError).localizedDescription)
        }
        guard let root = plist as? [String: Any] else { throw .malformedPropertyList("the root is not a dictionary") }

        let identifier = root["adjustmentFormatIdentifier"] as? String
        let editor = root["adjustmentEditorBundleID"] as? String
        guard let identifier else { throw .missingPlistKey("adjustmentFormatIdentifier") }
        guard identifier == Self.photoFormatIdentifier else {
            throw .unsupportedFormat(identifier: identifier, editor: editor ?? "an unnamed editor")
        }
        guard let editor else { throw .missingPlistKey("adjustmentEditorBundleID") }
        // Written as a string ("1.4"); a number is accepted as its text.
        guard let version = (root["adjustmentFormatVersion"] as? String)
                ?? (root["adjustmentFormatVersion"] as? NSNumber)?.stringValue else {
            throw .missingPlistKey("adjustmentFormatVersion")
        }
        guard let data = root["adjustmentData"] as? Data else { throw .missingPlistKey("adjustmentData") }
        guard data.count <= limits.maxCompressedBytes else {
            throw .payloadTooLarge(bytes: data.count, limit: limits.maxCompressedBytes)
        }

        let json = try AAEInflate.inflate([UInt8](data), cap: limits.maxInflatedBytes)
        try AAEJSONScan.check(json, limits: limits)
        let payload: AAEValue
        do {
            payload = try JSONDecoder().decode(AAEValue.self, from: Data(json))
        } catch let DecodingError.dataCorrupted(context) {
            throw .payloadNotJSON(context.underlyingError.map { "\($0)" } ?? context.debugDescription)
        } catch {
            throw .payloadNotJSON("\(error)")
        }
        guard let top = payload.objectValue else {
            throw .malformedPayload(path: "the top level", problem: "is \(payload.typeName), not an object")
        }

        formatIdentifier = identifier
        formatVersion = version
        editorBundleID = editor
        baseVersion = (root["adjustmentBaseVersion"] as? NSNumber)?.intValue
        metadata = try Self.metadata(top["metadata"], limits: limits)
        (adjustments, disabledAdjustments) = try Self.adjustments(top["adjustments"], limits: limits)
    }

    private static func metadata(_ value: AAEValue?, limits: AAELimits) throws(AAEError) -> AAEMetadata {
        guard let value else { throw .malformedPayload(path: "metadata", problem: "is missing") }
        guard let object = value.objectValue else {
            throw .malformedPayload(path: "metadata", problem: "is \(value.typeName), not an object")
        }
        func size(_ key: String) throws(AAEError) -> Int {
            let number = try integer(object[key], path: "metadata.\(key)")
            guard (0...limits.maxPixelValue).contains(Double(number)) else {
                throw .pixelValueOutOfRange(adjustment: "metadata", key: key, value: Double(number), limit: limits.maxPixelValue)
            }
            return number
        }
        let pipelineVersion: String?
        switch object["pipelineVersion"] {
        case nil: pipelineVersion = nil
        case .string(let text)?: pipelineVersion = text
        case let other?: throw .malformedPayload(path: "metadata.pipelineVersion", problem: "is \(other.typeName), not a string")
        }
        return AAEMetadata(masterWidth: try size("masterWidth"), masterHeight: try size("masterHeight"),
                           orientation: try integer(object["orientation"], path: "metadata.orientation"),
                           pipelineVersion: pipelineVersion)
    }

    private static func adjustments(_ value: AAEValue?, limits: AAELimits) throws(AAEError) -> ([AAEAdjustment], [String]) {
        guard let value else { throw .malformedPayload(path: "adjustments", problem: "is missing") }
        guard let items = value.arrayValue else {
            throw .malformedPayload(path: "adjustments", problem: "is \(value.typeName), not an array")
        }
        guard items.count <= limits.maxAdjustments else {
            throw .tooManyAdjustments(count: items.count, limit: limits.maxAdjustments)
        }
        var enabled: [AAEAdjustment] = []
        var disabled: [String] = []
        for (index, item) in items.enumerated() {
            let path = "adjustments[\(index)]"
            guard let object = item.objectValue else {
                throw .malformedPayload(path: path, problem: "is \(item.typeName), not an object")
            }
            guard let identifier = object["identifier"]?.stringValue else {
                throw .malformedPayload(path: "\(path).identifier", problem: "is missing or not a string")
            }
            var isEnabled = true
            if let flag = object["enabled"] {
                guard let value = flag.flagValue else {
                    throw .malformedPayload(path: "\(path).enabled", problem: "is \(flag.typeName), not a boolean or 0/1")
                }
                isEnabled = value
            }
            let formatVersion = try object["formatVersion"].map { (v) throws(AAEError) in try integer(v, path: "\(path).formatVersion") }
            let settings: [String: AAEValue]
            switch object["settings"] {
            case nil: settings = [:]
            case .object(let members)?: settings = members
            case let other?: throw .malformedPayload(path: "\(path).settings", problem: "is \(other.typeName), not an object")
            }
            let adjustment = AAEAdjustment(identifier: identifier, enabled: isEnabled, formatVersion: formatVersion, settings: settings)
            guard isEnabled else { disabled.append(identifier); continue }
            try FilterRegistry.aaeKinds[identifier]?.refuseHostileValues(in: adjustment, limits: limits)
            enabled.append(adjustment)
        }
        return (enabled, disabled)
    }

    /// A whole number within ±2³¹ (so that it converts to Int on every platform).
    private static func integer(_ value: AAEValue?, path: String) throws(AAEError) -> Int {
        guard let value else { throw .malformedPayload(path: path, problem: "is missing") }
        guard let number = value.numberValue else {
            throw .malformedPayload(path: path, problem: "is \(value.typeName), not a number")
        }
        guard number == number.rounded(), abs(number) <= Double(Int32.max) else {
            throw .malformedPayload(path: path, problem: "is \(number), not a whole number within ±2³¹")
        }
        return Int(number)
    }
}
