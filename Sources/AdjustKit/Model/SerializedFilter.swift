/// One item of `aas:Filters`: a Core Image filter name followed by `,Key=Value` pairs
/// (xmp-format.md §6). Kept exactly as parsed so that unknown filters survive a round trip.
public struct SerializedFilter: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case number(Double)
        case vector([Double])
        case text(String)
        case null
    }

    public struct Parameter: Equatable, Sendable {
        public var key: String
        public var value: Value
        public init(key: String, value: Value) { (self.key, self.value) = (key, value) }
    }

    /// What the renderer makes of an item.
    public enum Meaning: Equatable, Sendable {
        case photoEffect(PhotoEffect)
        case exposure(ExposureAdjust)
        /// A name this project does not know, or a known name with parameters it cannot use.
        case unsupported
    }

    public var name: String
    public var parameters: [Parameter]

    public init(name: String, parameters: [Parameter] = []) {
        (self.name, self.parameters) = (name, parameters)
    }

    public func parameter(_ key: String) -> Value? {
        parameters.first { $0.key == key }?.value
    }

    public var meaning: Meaning {
        if let effect = PhotoEffect(rawValue: name) { return .photoEffect(effect) }
        if name == "CIExposureAdjust", case .number(let ev)? = parameter("EV") {
            return .exposure(ExposureAdjust(ev: ev))
        }
        return .unsupported
    }
}
