/// Resource caps applied while reading an untrusted `.AAE` sidecar (or `Adjustments.plist`, or a
/// macOS `resources/renders` plist). Each is checked before the allocation or recursion it guards,
/// so a hostile file fails fast with an `AAEError` instead of exhausting memory or stack.
///
/// Real files are tiny: the samples are 0.9–3.5 KB of XML, 226–2 113 bytes of DEFLATE inflating to
/// 356–4 044 bytes of JSON, nested 6 deep, with 1–3 adjustments. The defaults leave two to three
/// orders of magnitude of room and still bound the worst case to a few MiB and milliseconds.
package struct AAELimits: Sendable, Equatable {
    /// Largest property-list file read at all, in bytes.
    package var maxFileBytes: Int
    /// Deepest nesting of arrays and dictionaries in the property list (the AAE's top-level
    /// dictionary is level 1; real files have 1). Checked by a scan before Foundation parses it.
    package var maxPlistDepth: Int
    /// Most objects in the property list, checked before Foundation parses it: a binary plist's
    /// trailer count, or an XML plist's start tags other than `<plist>` and `<key>`.
    package var maxPlistObjects: Int
    /// Largest `adjustmentData` (the compressed payload), in bytes.
    package var maxCompressedBytes: Int
    /// Largest payload once inflated, in bytes. Inflation stops, and the file is refused, as soon
    /// as this many bytes have come out and more remain (a deflate bomb never inflates further).
    package var maxInflatedBytes: Int
    /// Deepest nesting of JSON arrays and objects (the top-level object is level 1; real payloads
    /// reach 6). Checked by a scan before the JSON parser sees the text.
    package var maxJSONDepth: Int
    /// Most JSON values (scalars and containers) in the payload.
    package var maxJSONValues: Int
    /// Most members of one JSON object or elements of one JSON array.
    package var maxContainerCount: Int
    /// Longest JSON number literal, in characters.
    package var maxNumberLength: Int
    /// Most entries in the payload's `adjustments` array (enabled or not).
    package var maxAdjustments: Int
    /// Largest magnitude accepted for a value in pixels: `metadata.masterWidth/Height` and the
    /// `Crop` adjustment's `xOrigin`, `yOrigin`, `width` and `height`. The renderer's own size
    /// limits apply later; this only keeps absurd numbers out of the edit model.
    package var maxPixelValue: Double

    /// Creates limits; every argument defaults to the value in `AAELimits.default`.
    package init(
        maxFileBytes: Int = 1 << 20,
        maxPlistDepth: Int = 8,
        maxPlistObjects: Int = 4_096,
        maxCompressedBytes: Int = 512 << 10,
        maxInflatedBytes: Int = 4 << 20,
        maxJSONDepth: Int = 32,
        maxJSONValues: Int = 200_000,
        maxContainerCount: Int = 65_536,
        maxNumberLength: Int = 128,
        maxAdjustments: Int = 256,
        maxPixelValue: Double = 1_048_576
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxPlistDepth = maxPlistDepth
        self.maxPlistObjects = maxPlistObjects
        self.maxCompressedBytes = maxCompressedBytes
        self.maxInflatedBytes = maxInflatedBytes
        self.maxJSONDepth = maxJSONDepth
        self.maxJSONValues = maxJSONValues
        self.maxContainerCount = maxContainerCount
        self.maxNumberLength = maxNumberLength
        self.maxAdjustments = maxAdjustments
        self.maxPixelValue = maxPixelValue
    }

    /// 1 MiB file, plist depth 8 and 4 096 objects, 512 KiB compressed, 4 MiB inflated, JSON depth
    /// 32, 200 000 JSON values, 65 536 per container, numbers of at most 128 characters, 256
    /// adjustments, pixel values within ±2²⁰ (1 048 576).
    package static let `default` = AAELimits()
}
