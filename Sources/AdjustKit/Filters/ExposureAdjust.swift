import Foundation

/// `CIExposureAdjust`, as carried in `aas:Filters` (`CIExposureAdjust,EV=…`).
package struct ExposureAdjust: Equatable, Sendable {
    /// `inputEV`, in stops: working values are multiplied by 2^ev.
    package var ev: Double
    /// An exposure change of `ev` stops.
    package init(ev: Double) { self.ev = ev }

    /// The `aas:Filters` item's name.
    static let serializedName = "CIExposureAdjust"

    /// The item's exposure, when it is `CIExposureAdjust` with a numeric `EV`.
    init?(serialized item: SerializedFilter) {
        guard item.name == Self.serializedName, case .number(let ev)? = item.parameter("EV") else { return nil }
        self.init(ev: ev)
    }

    /// The `aas:Filters` item for this exposure.
    package var serialized: SerializedFilter {
        SerializedFilter(name: Self.serializedName, parameters: [.init(key: "EV", value: .number(ev))])
    }
}

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
