import AdjustKit
import Foundation

/// The text and JSON forms of `adjust inspect`.
enum InspectReport {
    /// `heicDecode`: for a HEIC, what decodes it (`HEICTiling.decodeSummary`).
    static func text(edit: LoadedEdit, plan: RenderPlan?, exactEffects: Set<PhotoEffect>, heicDecode: String? = nil) -> String {
        var lines = ["edit: \(edit.origin)"]
        lines.append("chain (application order):")
        lines += stepLines(edit.chain.steps, indent: "  ", exactEffects: exactEffects)
        if edit.chain.isEmpty { lines.append("  (empty)") }
        guard let plan else {
            lines.append("plan: none (give the image, or --image-size WxH, to plan a render)")
            return lines.joined(separator: "\n")
        }
        let s = plan.rescale
        lines += [
            "plan:",
            "  stored size:     \(plan.storedSize), EXIF orientation \(plan.orientation.rawValue)",
            "  output extent:   \(rect(plan.outputExtent.rect)) (full resolution, CI frame, y up)",
            "  decode scale:    \(plan.decodeScale) -> \(plan.decodedSize) (δ = \(num(s.delta)))",
            "  rescaled chain:",
        ]
        lines += stepLines(plan.rescaledChain.steps, indent: "    ", exactEffects: nil)
        lines += [
            "  sampling grid:   \(plan.samplingGrid.size) over \(rect(plan.samplingGrid.extent))",
            "  source region:   \(plan.sourceRegion.width)×\(plan.sourceRegion.height) at (\(plan.sourceRegion.x), \(plan.sourceRegion.y)) of the decoded raster",
            "  output:          \(plan.outputSize)\(plan.needsResample ? " (area-resampled)" : ""), written \(plan.orientedSize)",
        ]
        if plan.decodeRegion != plan.sourceRegion || plan.neighbourhoodRadius > 0 {
            let d = plan.decodeRegion
            let why = [plan.neighbourhoodRadius > 0 ? "the neighbourhood radius, \(plan.neighbourhoodRadius) px" : nil,
                       plan.rescaledChain[RedEyeCorrections.self] != nil ? "the red-eye repairs' areas" : nil]
                .compactMap { $0 }.joined(separator: " and ")
            lines.insert("  decode region:   \(d.width)×\(d.height) at (\(d.x), \(d.y)) of the decoded raster "
                             + "(the source region grown by \(why))",
                         at: lines.count - 1)
        }
        if let heicDecode { lines.append("  HEIC decode:     \(heicDecode)") }
        return lines.joined(separator: "\n")
    }

    static func json(edit: LoadedEdit, plan: RenderPlan?, exactEffects: Set<PhotoEffect>, heicDecode: String? = nil) -> String {
        var root: [String: Any] = [
            "source": origin(edit.origin),
            "chain": edit.chain.steps.map { stepObject($0, exactEffects) },
            "warnings": edit.warnings + (plan?.warnings ?? []),
        ]
        if let plan {
            root["plan"] = [
                "storedSize": size(plan.storedSize),
                "orientation": plan.orientation.rawValue,
                "outputExtent": [plan.outputExtent.x, plan.outputExtent.y, plan.outputExtent.width, plan.outputExtent.height],
                "decodeScale": "\(plan.decodeScale)",
                "decodedSize": size(plan.decodedSize),
                "delta": plan.rescale.delta,
                "rescaledChain": plan.rescaledChain.steps.map { stepObject($0, exactEffects) },
                "samplingGrid": ["size": size(plan.samplingGrid.size), "extent": rectArray(plan.samplingGrid.extent)],
                "sourceRegion": [plan.sourceRegion.x, plan.sourceRegion.y, plan.sourceRegion.width, plan.sourceRegion.height],
                "outputSize": size(plan.outputSize),
                "orientedSize": size(plan.orientedSize),
                "areaResample": plan.needsResample,
            ] as [String: Any]
            if var object = root["plan"] as? [String: Any] {
                if let heicDecode { object["heicDecode"] = heicDecode }
                if plan.decodeRegion != plan.sourceRegion || plan.neighbourhoodRadius > 0 {
                    let d = plan.decodeRegion
                    object["decodeRegion"] = [d.x, d.y, d.width, d.height]
                    object["neighbourhoodRadius"] = plan.neighbourhoodRadius
                }
                root["plan"] = object
            }
        }
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// `exactEffects` nil: no support marks (the rescaled chain repeats the chain's).
    private static func stepLines(_ steps: [EditStep], indent: String, exactEffects: Set<PhotoEffect>?) -> [String] {
        steps.enumerated().map { index, step in
            let values = step.parameters.map { "\($0.0)=\(display($0.1))" }.joined(separator: " ")
            let support = exactEffects.map { step.support(exactEffects: $0) }
            let note = support.map { $0 == .exact ? "" : "  [\($0.rawValue)]" } ?? ""
            return "\(indent)\(index + 1). \(step.filterName) \(values)\(note)"
        }
    }

    private static func stepObject(_ step: EditStep, _ exactEffects: Set<PhotoEffect>) -> [String: Any] {
        [
            "filter": step.filterName,
            "kind": step.isGeometry ? "geometry" : "colour",
            "support": step.support(exactEffects: exactEffects).rawValue,
            "parameters": Dictionary(step.parameters.map { ($0.0, jsonValue($0.1)) }, uniquingKeysWith: { a, _ in a }),
        ]
    }

    private static func jsonValue(_ value: ParameterValue) -> Any {
        switch value {
        case .number(let n): return n
        case .numbers(let list): return list
        case .text(let t): return t
        case .list(let items): return items.map { Dictionary($0.map { ($0.0, jsonValue($0.1)) }, uniquingKeysWith: { a, _ in a }) }
        }
    }

    private static func display(_ value: ParameterValue) -> String {
        switch value {
        case .number(let n): return num(n)
        case .numbers(let list): return "[" + list.map(num).joined(separator: " ") + "]"
        case .text(let t): return "\"\(t)\""
        case .list(let items): return "\(items.count) item(s)"
        }
    }

    private static func origin(_ origin: EditOrigin) -> [String: Any] {
        switch origin {
        case .xmpFile(let p): return ["kind": "xmp", "path": p]
        case .metadataDump(let p): return ["kind": "metadataDump", "path": p]
        case .embedded(let p): return ["kind": "embedded", "path": p]
        case .sidecar(let p): return ["kind": "sidecar", "path": p]
        case .aae(let p): return ["kind": "aae", "path": p]
        case .none: return ["kind": "none"]
        }
    }

    private static func num(_ value: Double) -> String { String(format: "%g", value) }
    private static func size(_ s: PixelSize) -> [Int] { [s.width, s.height] }
    private static func rectArray(_ r: Rect) -> [Double] { [r.x, r.y, r.width, r.height] }
    private static func rect(_ r: Rect) -> String { "(x \(num(r.x)), y \(num(r.y)), w \(num(r.width)), h \(num(r.height)))" }
}
