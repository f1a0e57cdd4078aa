/// The XML namespaces of AdjustmentXMP (xmp-format.md §1, §5). Properties are matched by
/// namespace URI and local name, never by prefix.
package enum AdjustmentNamespace {
    /// The `aas:` namespace of Apple's adjustment properties.
    package static let aas = "http://ns.apple.com/adjustment-settings/1.0/"
    /// Adobe Camera Raw's `crs:` namespace, read for the crop fallback.
    package static let cameraRaw = "http://ns.adobe.com/camera-raw-settings/1.0/"
    /// Red-eye structs with short field names (`p`, `s`, `rr`, …).
    package static let redEyeShort = "http://ns.apple.com/adjustment-settings/1.0/sType/redeye"
    /// Red-eye structs with long field names (`pointX`, `snappedX`, …).
    package static let redEyeLong = "http://ns.apple.com/adjustment-settings/1.0/sType/red-eye"
}
