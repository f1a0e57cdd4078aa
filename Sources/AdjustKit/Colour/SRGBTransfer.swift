import Foundation

/// The sRGB transfer functions of filters.md §0, odd-symmetric for negative values, the power law
/// continued above 1.
package enum SRGBTransfer {
    /// Linear → encoded.
    @inline(__always)
    package static func encode(_ x: Float) -> Float {
        let a = abs(x)
        let e = a <= 0.0031308 ? 12.92 * a : 1.055 * powf(a, 1 / 2.4) - 0.055
        return x < 0 ? -e : e
    }

    /// Encoded → linear.
    @inline(__always)
    package static func decode(_ v: Float) -> Float {
        let a = abs(v)
        let d = a <= 0.04045 ? a / 12.92 : powf((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -d : d
    }
}
