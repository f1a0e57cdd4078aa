import CHeifLoader

/// A libheif release number, as `heif_get_version_number()` gives it (0xMMmmpp00).
package struct LibheifVersion: Comparable, Sendable, CustomStringConvertible {
    package var major: Int, minor: Int, patch: Int

    package init(major: Int, minor: Int, patch: Int) { (self.major, self.minor, self.patch) = (major, minor, patch) }

    /// The oldest libheif that opens the HEICs current iPhones and Photos write (aae-format.md §8:
    /// 1.15 refuses the gain-map `tmap` brand and portraits with many auxiliary images).
    package static let required = LibheifVersion(major: 1, minor: 19, patch: 0)

    /// The libheif this process loads (loading it if needed), or nil when none can be loaded.
    package static var loaded: LibheifVersion? {
        guard adjust_heif_load() == 1 else { return nil }
        let number = adjust_heif_get_version_number()
        return LibheifVersion(major: Int(number >> 24 & 0xFF), minor: Int(number >> 16 & 0xFF), patch: Int(number >> 8 & 0xFF))
    }

    package var description: String { "\(major).\(minor).\(patch)" }

    package static func < (a: LibheifVersion, b: LibheifVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}
