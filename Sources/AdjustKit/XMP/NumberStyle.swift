import Foundation

/// How the writer spells numbers.
package enum NumberStyle: Sendable {
    /// C `%g`, as Core Image wrote them (6 significant digits): what iOS produced, but lossy for
    /// numbers with more digits.
    case coreImage
    /// The shortest text that reads back to the same Double: lossless.
    case exact

    /// `value` spelled in this style.
    package func format(_ value: Double) -> String {
        switch self {
        case .coreImage:
            return String(format: "%g", value)
        case .exact:
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        }
    }
}
