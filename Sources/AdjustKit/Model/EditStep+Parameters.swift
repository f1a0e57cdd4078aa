/// A parameter's value, for display (`adjust inspect`) and JSON.
public enum ParameterValue: Equatable, Sendable {
    case number(Double)
    case numbers([Double])
    case text(String)
    case list([[(String, ParameterValue)]])

    /// Equal when both are the same case with equal values; `list` items compare as
    /// (name, value) pairs in order.
    public static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
        switch (lhs, rhs) {
        case let (.number(a), .number(b)): return a == b
        case let (.numbers(a), .numbers(b)): return a == b
        case let (.text(a), .text(b)): return a == b
        case let (.list(a), .list(b)):
            return a.count == b.count && zip(a, b).allSatisfy { x, y in
                x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            }
        default: return false
        }
    }
}

extension EditStep {
    /// The step's parameters, named as Core Image names its inputs (less the `input` prefix).
    public var parameters: [(String, ParameterValue)] {
        switch self {
        case .redEye(let r):
            var list: [(String, ParameterValue)] = [
                ("Width", .number(r.width)), ("Height", .number(r.height)), ("ISV", .number(r.isv)),
                ("Ort", .number(r.ort)), ("SNR", .number(r.snr))]
            if let model = r.model { list.append(("Model", .text(model))) }
            list.append(("Corrections", .list(r.corrections.map { correction in
                [("naming", .text(correction.naming.rawValue)), ("variant", .text(correction.variant.rawValue))]
                    + correction.fields.sorted { $0.key < $1.key }.map { ($0.key, .text($0.value)) }
            })))
            return list
        case .faceBalance(let f):
            return [("OrigI", .number(f.origI)), ("OrigQ", .number(f.origQ)),
                    ("Strength", .number(f.strength)), ("Warmth", .number(f.warmth))]
        case .vibrance(let v):
            return [("Amount", .number(v.amount))]
        case .toneCurve(let c):
            return c.points.enumerated().map { ("Point\($0.offset)", .numbers([$0.element.x, $0.element.y])) }
        case .highlightShadow(let h):
            return [("ShadowAmount", .number(h.shadows)), ("HighlightAmount", .number(h.highlights)),
                    ("Radius", .number(h.radius))]
        case .affine(let t):
            return [("Transform", .numbers([t.a, t.b, t.c, t.d, t.tx, t.ty]))]
        case .crop(let c):
            return [("Rectangle", .numbers([c.rect.x, c.rect.y, c.rect.width, c.rect.height]))]
        case .cameraRawCrop(let c):
            return [("Left", .number(c.left)), ("Top", .number(c.top)), ("Right", .number(c.right)),
                    ("Bottom", .number(c.bottom)), ("Angle", .number(c.angle))]
        case .serialized(let filter):
            return filter.parameters.map { parameter in
                switch parameter.value {
                case .number(let n): return (parameter.key, .number(n))
                case .vector(let v): return (parameter.key, .numbers(v))
                case .text(let t): return (parameter.key, .text(t))
                case .null: return (parameter.key, .text("nil"))
                }
            }
        }
    }

    /// How faithfully this version renders the step (filters.md's marks). Photo effects are
    /// approximate unless the caller supplies their exact table.
    public func support(exactEffects: Set<PhotoEffect> = []) -> StepSupport {
        switch self {
        case .affine, .crop, .cameraRawCrop, .vibrance, .toneCurve: return .exact
        case .highlightShadow, .faceBalance: return .strong
        case .redEye: return .approximate
        case .serialized(let filter):
            switch filter.meaning {
            case .exposure: return .exact
            case .photoEffect(let effect): return exactEffects.contains(effect) ? .exact : .approximate
            case .unsupported: return .unknownFilter
            }
        }
    }
}

/// How faithfully a step is rendered.
public enum StepSupport: String, Sendable {
    /// The formula is known and implemented.
    case exact
    /// The structure is known and a constant was inferred (filters.md [strong]).
    case strong
    /// No public formula: a documented approximation.
    case approximate
    /// An `aas:Filters` name this version does not know.
    case unknownFilter = "unknown filter"
}
