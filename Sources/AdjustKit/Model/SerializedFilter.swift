/// One item of `aas:Filters`: a Core Image filter name followed by `,Key=Value` pairs
/// (xmp-format.md §6). Kept exactly as parsed so that unknown filters survive a round trip.
public struct SerializedFilter: Equatable, Sendable {
    /// A parameter value as written: a number, a `[x y …]` vector, a `"quoted"` string, or `nil`.
    public enum Value: Equatable, Sendable {
        case number(Double)
        case vector([Double])
        case text(String)
        case null
    }

    /// One `Key=Value` pair of the item.
    public struct Parameter: Equatable, Sendable {
        /// The Core Image input key without the `input` prefix, e.g. `EV`.
        public var key: String
        /// The parsed value.
        public var value: Value
        /// The pair `key`=`value`.
        public init(key: String, value: Value) { (self.key, self.value) = (key, value) }
    }

    /// What the renderer makes of an item.
    public enum Meaning: Equatable, Sendable {
        case photoEffect(PhotoEffect)
        case exposure(ExposureAdjust)
        /// A name this project does not know, or a known name with parameters it cannot use.
        case unsupported
    }

    /// The Core Image filter name, e.g. `CIPhotoEffectNoir`.
    public var name: String
    /// The `Key=Value` pairs in written order.
    public var parameters: [Parameter]

    /// An item named `name` with `parameters` in order (none by default).
    public init(name: String, parameters: [Parameter] = []) {
        (self.name, self.parameters) = (name, parameters)
    }

    /// The value of the first parameter whose key is exactly `key`, or nil.
    public func parameter(_ key: String) -> Value? {
        parameters.first { $0.key == key }?.value
    }

    /// A photo effect by name, `CIExposureAdjust` with a numeric `EV`, otherwise `.unsupported`.
    public var meaning: Meaning {
        if let effect = PhotoEffect(rawValue: name) { return .photoEffect(effect) }
        if name == "CIExposureAdjust", case .number(let ev)? = parameter("EV") {
            return .exposure(ExposureAdjust(ev: ev))
        }
        return .unsupported
    }
}
