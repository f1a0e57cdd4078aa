/// Why a planned render cannot run.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// Rendering this filter is not implemented yet; it is never skipped silently.
    case notYetSupported(String)
    case decodedSizeMismatch(expected: PixelSize, got: PixelSize)

    public var description: String {
        switch self {
        case .notYetSupported(let filter): return "not yet supported: \(filter)"
        case let .decodedSizeMismatch(expected, got):
            return "libjpeg-turbo decoded \(got) pixels where the plan expects \(expected)"
        }
    }
}

/// Executes a `RenderPlan`: decode at the planned scale, sample the geometry, shrink if
/// `--max-size` asked for it, orient.
public struct Renderer: Sendable {
    public var decoder: JPEGDecoder

    public init(decoder: JPEGDecoder = JPEGDecoder()) { self.decoder = decoder }

    /// Throws before decoding anything when the chain has a step this version cannot render.
    public static func checkSupported(_ plan: RenderPlan) throws(RenderError) {
        if let step = plan.colourSteps.first { throw .notYetSupported(step.filterName) }
    }

    public func render(_ plan: RenderPlan, jpeg: [UInt8]) throws -> RGBA8Image {
        try Self.checkSupported(plan)
        let decoded = try decoder.decode(jpeg, scale: plan.decodeScale)
        guard decoded.size == plan.decodedSize else {
            throw RenderError.decodedSizeMismatch(expected: plan.decodedSize, got: decoded.size)
        }
        return render(plan, decoded: decoded)
    }

    /// The pixel work alone, on an already decoded image of `plan.decodedSize`.
    public func render(_ plan: RenderPlan, decoded: RGB8Image) -> RGBA8Image {
        let sampled = GeometrySampler.sample(decoded, plan: plan)
        let resized = plan.needsResample ? AreaResampler.resample(sampled, to: plan.outputSize) : sampled
        return resized.oriented(plan.orientation)
    }
}
