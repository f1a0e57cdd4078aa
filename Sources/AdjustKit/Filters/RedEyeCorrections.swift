import XMPParse

/// `CIRedEyeCorrections` (xmp-format.md §3, §5): the frame of the repairs (`width` × `height`,
/// pixels of the stored image) and one struct per eye, kept losslessly.
package struct RedEyeCorrections: Equatable, Sendable {
    /// `aas:RedEyeW`: width in pixels of the frame of every pixel-valued field (the stored image;
    /// the decoded image after rescaling).
    package var width: Double
    /// `aas:RedEyeH`: height in pixels of that frame, as for `width`.
    package var height: Double
    /// `aas:RedEyeISV`, kept and written back as is; its meaning is unknown and rendering ignores it.
    package var isv: Double
    /// `aas:RedEyeOrt`, kept and written back as is; its meaning is unknown and rendering ignores it.
    package var ort: Double
    /// `aas:RedEyeSNR`, kept and written back as is; its meaning is unknown and rendering ignores it.
    package var snr: Double
    /// `aas:RedEyeModel`, an optional string kept as written.
    package var model: String?
    /// `aas:RedEyeCorrections`: one record per eye, in array order.
    package var corrections: [RedEyeCorrection]

    /// Stores every value as given; `model` and `corrections` are optional.
    package init(width: Double, height: Double, isv: Double, ort: Double, snr: Double,
                model: String? = nil, corrections: [RedEyeCorrection] = []) {
        (self.width, self.height, self.isv, self.ort, self.snr) = (width, height, isv, ort, snr)
        (self.model, self.corrections) = (model, corrections)
    }
}

/// One eye's repair record. Every value is the string iOS wrote (space-separated numbers for
/// multi-valued fields), so that nothing is lost or reformatted on a round trip.
package struct RedEyeCorrection: Equatable, Sendable {
    /// Which struct namespace and field names the writer used.
    package enum Naming: String, Equatable, Sendable {
        /// `…/sType/redeye`, short field names (`p`, `s`, `rr`, …).
        case short
        /// `…/sType/red-eye`, long field names (`pointX`, `snappedX`, …).
        case long
    }

    /// Older records describe the pupil by a bitmask; newer iOS writes a convex hull (`hb`), which
    /// this project keeps but cannot render.
    package enum Variant: String, Equatable, Sendable { case classic, convexHull }

    /// The struct namespace and field-name style the record used; written back the same way.
    package var naming: Naming
    /// Field name (without namespace) → value string exactly as written; pixel fields are
    /// top-left raster coordinates of the `RedEyeCorrections` `width` × `height` frame.
    package var fields: [String: String]

    /// Stores the fields as given (the XMP reader validates the pixel fields).
    package init(naming: Naming, fields: [String: String]) {
        (self.naming, self.fields) = (naming, fields)
    }

    /// `.convexHull` when the record has an `hb` field, else `.classic`.
    package var variant: Variant { fields["hb"] != nil ? .convexHull : .classic }

    /// Which space-separated components of which fields are pixel positions or lengths in the
    /// `width` × `height` frame, and on which axis: the rescaler multiplies exactly these.
    /// Their y origin is [open] in the spec; this project reads them as top-left raster
    /// coordinates, the image's own raster, which makes the reduced-decode rule a plain
    /// multiplication (top-left coordinates scale exactly, geometry.md §2).
    static func pixelAxes(of field: String, naming: Naming) -> [Axis?]? {
        switch (naming, field) {
        case (.short, "s"): return [.x, .y]
        case (.short, "b"), (.short, "cr"): return [.x, .y, nil]
        case (.short, "sr"), (.short, "rr"): return [.y, .y, .x, .x]   // minY maxY minX maxX
        case (.long, "snappedX"), (.long, "bitmaskX"), (.long, "cornealReflectionX"): return [.x]
        case (.long, "snappedY"), (.long, "bitmaskY"), (.long, "cornealReflectionY"): return [.y]
        default: return nil
        }
    }

    enum Axis { case x, y }
}

extension RedEyeCorrections: SingleAdjustmentXMPFilter, ColourFilter {
    package static let filterName = "CIRedEyeCorrections"
    /// The required numbers; `RedEyeModel` and `RedEyeCorrections` are optional.
    private static let requiredNames = ["RedEyeW", "RedEyeH", "RedEyeISV", "RedEyeOrt", "RedEyeSNR"]
    private static let modelName = "RedEyeModel", correctionsName = "RedEyeCorrections"
    static let xmpPropertyNames = requiredNames + [modelName, correctionsName]

    package var parameterValues: [(String, ParameterValue)] {
        var list: [(String, ParameterValue)] = [
            ("Width", .number(width)), ("Height", .number(height)), ("ISV", .number(isv)),
            ("Ort", .number(ort)), ("SNR", .number(snr))]
        if let model { list.append(("Model", .text(model))) }
        list.append(("Corrections", .list(corrections.map { correction in
            [("naming", .text(correction.naming.rawValue)), ("variant", .text(correction.variant.rawValue))]
                + correction.fields.sorted { $0.key < $1.key }.map { ($0.key, .text($0.value)) }
        })))
        return list
    }

    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .approximate }

    /// The frame becomes the decoded size; the pixel fields are multiplied by sx or sy.
    package func rescaled(by factors: RescaleFactors) -> RedEyeCorrections {
        var copy = self
        copy.width = Double(factors.decodedSize.width)
        copy.height = Double(factors.decodedSize.height)
        copy.corrections = corrections.map { $0.rescaled(sx: factors.sx, sy: factors.sy) }
        return copy
    }

    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> RedEyeCorrections? {
        guard xmp.hasAll(requiredNames, of: filterName) else { return nil }
        let v = try xmp.numbers(requiredNames)
        var corrections: [RedEyeCorrection] = []
        if let value = xmp.aas.value(correctionsName) {
            guard case .array(_, let items) = value else { throw .expectedArray(property: "aas:\(correctionsName)") }
            corrections = try items.enumerated().map { index, item throws(ChainError) in
                try RedEyeCorrection(xmp: item, index: index)
            }
        }
        return RedEyeCorrections(width: v[0], height: v[1], isv: v[2], ort: v[3], snr: v[4],
                                 model: try xmp.aas.text(modelName), corrections: corrections)
    }

    func write(to xmp: inout AdjustmentXMPWriter) {
        xmp.numbers(Self.requiredNames, [width, height, isv, ort, snr])
        if let model { xmp.text(Self.modelName, model) }
        guard !corrections.isEmpty else { return }
        for naming in Set(corrections.map(\.naming)) { xmp.declare(naming.prefix, naming.namespace) }
        xmp.structArray(Self.correctionsName, corrections.map { correction in
            (prefix: correction.naming.prefix, fields: correction.fields.sorted { $0.key < $1.key })
        })
    }

    func colourStage(options: ColourOptions) -> ColourStage {
        ColourStage(kernel: RedEyeRepair(corrections: self),
                    approximation: "CIRedEyeCorrections (approximate pupil repair)")
    }
}

extension RedEyeCorrection.Naming {
    /// The prefix the writer declares for the struct namespace.
    var prefix: String { self == .short ? "re" : "rel" }
    /// The struct namespace's URI.
    var namespace: String { self == .short ? AdjustmentNamespace.redEyeShort : AdjustmentNamespace.redEyeLong }
}

extension RedEyeCorrection {
    /// One `aas:RedEyeCorrections` item: a struct whose fields are all in one of the two red-eye
    /// namespaces, every field a simple value, the pixel fields holding finite numbers.
    init(xmp item: XMPValue, index: Int) throws(ChainError) {
        guard case .structure(let members) = item else {
            throw .malformedRedEyeCorrection(index: index, reason: "not a struct")
        }
        let namespaces = Set(members.keys.map(\.namespace))
        let naming: Naming
        switch namespaces {
        case [AdjustmentNamespace.redEyeShort]: naming = .short
        case [AdjustmentNamespace.redEyeLong]: naming = .long
        default:
            throw .malformedRedEyeCorrection(index: index, reason:
                "fields must all be in \(AdjustmentNamespace.redEyeShort) or all in \(AdjustmentNamespace.redEyeLong)")
        }
        var fields: [String: String] = [:]
        for (name, value) in members {
            guard case .text(let text) = value else {
                throw .malformedRedEyeCorrection(index: index, reason: "field \(name.name) is not a simple value")
            }
            if let axes = Self.pixelAxes(of: name.name, naming: naming) {
                let components = text.split(separator: " ")
                guard components.count == axes.count,
                      components.allSatisfy({ (try? XMPNumber.parse(String($0))) != nil }) else {
                    throw .malformedRedEyeCorrection(index: index, reason:
                        "field \(name.name) must hold \(axes.count) finite numbers, got \"\(text.prefix(40))\"")
                }
            }
            fields[name.name] = text
        }
        self.init(naming: naming, fields: fields)
    }

    /// The record in a reduced decode's frame: the pixel fields' components × sx or sy.
    func rescaled(sx: Double, sy: Double) -> RedEyeCorrection {
        var copy = self
        for (field, text) in fields {
            guard let axes = Self.pixelAxes(of: field, naming: naming) else { continue }
            let components = text.split(separator: " ")
            guard components.count == axes.count else { continue }   // validated when parsed
            copy.fields[field] = zip(components, axes).map { component, axis in
                guard let axis, let value = Double(component) else { return String(component) }
                return NumberStyle.exact.format(value * (axis == .x ? sx : sy))
            }.joined(separator: " ")
        }
        return copy
    }
}

extension EditChain {
    /// `CIRedEyeCorrections`, applied first, to the stored image.
    package var redEye: RedEyeCorrections? {
        get { self[RedEyeCorrections.self] }
        set { self[RedEyeCorrections.self] = newValue }
    }
}
