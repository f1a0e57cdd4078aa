import XMPParse

/// Every limit on untrusted input, checked before the allocation it guards. The defaults suit
/// photos from phones and cameras; `adjust` has a flag for each.
package struct InputLimits: Sendable {
    /// The default of `maxInputBytes`: 256 MiB.
    package static let defaultMaxInputBytes = 256 << 20
    /// Largest input file (image, edit, metadata dump) read at all.
    package var maxInputBytes: Int = InputLimits.defaultMaxInputBytes
    /// XMP packet size, nesting depth, property and attribute counts; only the edit's own
    /// namespaces (aas:, crs:) must be conformant RDF, other properties' problems are warnings.
    package var xmp = XMPLimits(strictNamespaces: [AdjustmentNamespace.aas, AdjustmentNamespace.cameraRaw])
    /// Most `aas:Filters` items and red-eye records in one edit.
    package var maxChainFilters: Int = 64
    /// Most `aas:RedEyeCorrections` records in one edit.
    package var maxRedEyeCorrections: Int = 64

    /// The defaults, as listed in the README's Limits table.
    package init() {}
}
