import Foundation

/// CIExposureAdjust, filters.md §7 [exact]: out = P·2^EV.
struct ExposureKernel: PixelKernel {
    let gain: Float

    init?(_ exposure: ExposureAdjust) {
        guard exposure.ev != 0 else { return nil }
        gain = Float(pow(2, exposure.ev))
    }

    func apply(_ r: inout Float, _ g: inout Float, _ b: inout Float) {
        r *= gain; g *= gain; b *= gain
    }
}
