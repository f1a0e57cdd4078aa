/// One entry of an AAE payload's `adjustments` array, as stored: its identifier and settings,
/// uninterpreted. The typed accessors name the adjustment and the key when a setting is missing or
/// of the wrong type, so callers can pass their errors straight to the user.
package struct AAEAdjustment: Sendable, Equatable {
    /// Apple's name for the operation, e.g. `Crop`, `SmartTone`, `LivePhotoKeyFrame`.
    package var identifier: String
    /// Whether Photos applies it. The reader keeps enabled adjustments only (disabled ones are
    /// listed in `AAEDocument.disabledAdjustments`), so this is true for every adjustment it returns.
    package var enabled: Bool
    /// The adjustment's own `formatVersion`, when present.
    package var formatVersion: Int?
    /// The `settings` object (empty when the adjustment has none).
    package var settings: [String: AAEValue]

    package init(identifier: String, enabled: Bool = true, formatVersion: Int? = nil, settings: [String: AAEValue] = [:]) {
        self.identifier = identifier
        self.enabled = enabled
        self.formatVersion = formatVersion
        self.settings = settings
    }

    /// The number under `key`; throws when it is absent or not a number.
    package func number(_ key: String) throws(AAEError) -> Double {
        guard let value = try optionalNumber(key) else { throw .missingSetting(adjustment: identifier, key: key) }
        return value
    }

    /// The number under `key`, nil when absent; throws when present but not a number (`AAEValue.lenientNumber`).
    package func optionalNumber(_ key: String) throws(AAEError) -> Double? {
        guard let value = settings[key] else { return nil }
        guard let number = value.lenientNumber else { throw wrongType(key, "a number", value) }
        return number
    }

    /// A pixel value under `key` (nil when absent), within ±`limit`: the reader checks the `Crop`
    /// rectangle with this; the mapping layer may check other pixel-valued settings the same way.
    package func optionalPixels(_ key: String, limit: Double = AAELimits.default.maxPixelValue) throws(AAEError) -> Double? {
        guard let number = try optionalNumber(key) else { return nil }
        guard abs(number) <= limit else {
            throw .pixelValueOutOfRange(adjustment: identifier, key: key, value: number, limit: limit)
        }
        return number
    }

    /// The flag under `key` (`true`/`false`, or 1/0 as older files write it); throws when absent
    /// or anything else.
    package func flag(_ key: String) throws(AAEError) -> Bool {
        guard let value = try optionalFlag(key) else { throw .missingSetting(adjustment: identifier, key: key) }
        return value
    }

    /// The flag under `key`, nil when absent; throws when present but not a flag (`AAEValue.lenientFlag`).
    package func optionalFlag(_ key: String) throws(AAEError) -> Bool? {
        guard let value = settings[key] else { return nil }
        guard let flag = value.lenientFlag else { throw wrongType(key, "a boolean or 0/1", value) }
        return flag
    }

    /// The string under `key`; throws when it is absent or not a string.
    package func string(_ key: String) throws(AAEError) -> String {
        guard let value = try optionalString(key) else { throw .missingSetting(adjustment: identifier, key: key) }
        return value
    }

    /// The string under `key`, nil when absent; throws when present but not a string.
    package func optionalString(_ key: String) throws(AAEError) -> String? {
        guard let value = settings[key] else { return nil }
        guard let string = value.stringValue else { throw wrongType(key, "a string", value) }
        return string
    }

    /// The object under `key`; throws when it is absent or not an object.
    package func object(_ key: String) throws(AAEError) -> [String: AAEValue] {
        guard let value = settings[key] else { throw .missingSetting(adjustment: identifier, key: key) }
        guard let object = value.objectValue else { throw wrongType(key, "an object", value) }
        return object
    }

    private func wrongType(_ key: String, _ expected: String, _ found: AAEValue) -> AAEError {
        .wrongSettingType(adjustment: identifier, key: key, expected: expected, found: found.typeName)
    }
}
