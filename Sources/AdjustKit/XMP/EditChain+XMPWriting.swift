extension EditChain {
    /// The chain as an AdjustmentXMP packet in the iOS writer's style (xmp-format.md §2, §7):
    /// element form, namespaces declared on the one `rdf:Description`, 3-space indent.
    ///
    /// Like iOS, the writer omits identity filters: vibrance with |amount| ≤ 0.001, and
    /// highlight/shadow with |shadows| < 0.005 and highlights > 0.995. Every other chain reads
    /// back equal (`EditChain(xmp:)`), exactly with `.exact` numbers and to `%g`'s six significant
    /// digits with `.coreImage`.
    public func adjustmentXMP(numberStyle: NumberStyle = .coreImage) -> String {
        var body = XMPElementWriter(numberStyle: numberStyle)
        if let redEye {
            body.numbers(zip(PropertyNames.redEye,
                             [redEye.width, redEye.height, redEye.isv, redEye.ort, redEye.snr]))
            if let model = redEye.model { body.text(PropertyNames.redEyeModel, model) }
            if !redEye.corrections.isEmpty {
                body.structArray(PropertyNames.redEyeCorrections, redEye.corrections.map { correction in
                    (prefix: correction.naming == .short ? "re" : "rel", fields: correction.fields.sorted { $0.key < $1.key })
                })
            }
        }
        if let faceBalance {
            body.numbers(zip(PropertyNames.faceBalance, [faceBalance.origI, faceBalance.origQ,
                                                         faceBalance.strength, faceBalance.warmth]))
        }
        if let vibrance, abs(vibrance.amount) > 0.001 {
            body.numbers(zip(PropertyNames.vibrance, [vibrance.amount]))
        }
        if let toneCurve {
            body.numbers(zip(PropertyNames.toneCurve, toneCurve.points.flatMap { [$0.x, $0.y] }))
        }
        if let highlightShadow, !(abs(highlightShadow.shadows) < 0.005 && highlightShadow.highlights > 0.995) {
            body.numbers(zip(PropertyNames.highlightShadow, [highlightShadow.shadows, highlightShadow.highlights]))
        }
        if let affine {
            body.numbers(zip(PropertyNames.affine, [affine.a, affine.b, affine.c, affine.d, affine.tx, affine.ty]))
        }
        if let crop {
            body.numbers(zip(PropertyNames.crop, [crop.rect.x, crop.rect.y, crop.rect.width, crop.rect.height]))
        }
        if let cameraRawCrop {
            typealias Names = PropertyNames.CameraRaw
            body.text(Names.hasCrop, "True", prefix: "crs")
            body.text(Names.alreadyApplied, "False", prefix: "crs")
            body.numbers(zip([Names.left, Names.top, Names.right, Names.bottom, Names.angle],
                             [cameraRawCrop.left, cameraRawCrop.top, cameraRawCrop.right,
                              cameraRawCrop.bottom, cameraRawCrop.angle]), prefix: "crs")
        }
        if !serializedFilters.isEmpty {
            body.textArray(PropertyNames.filters,
                           serializedFilters.map { SerializedFilterSyntax.format($0, style: numberStyle) })
        }

        var namespaces = ["aas": AdjustmentNamespace.aas]
        if cameraRawCrop != nil { namespaces["crs"] = AdjustmentNamespace.cameraRaw }
        if let corrections = redEye?.corrections {
            if corrections.contains(where: { $0.naming == .short }) { namespaces["re"] = AdjustmentNamespace.redEyeShort }
            if corrections.contains(where: { $0.naming == .long }) { namespaces["rel"] = AdjustmentNamespace.redEyeLong }
        }
        let declarations = namespaces.sorted { $0.key < $1.key }
            .map { "\n            xmlns:\($0.key)=\"\($0.value)\"" }.joined()
        return """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="adjust">
           <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""\(declarations)>
        \(body.lines.joined(separator: "\n"))
              </rdf:Description>
           </rdf:RDF>
        </x:xmpmeta>

        """
    }
}

/// Accumulates the property elements of one `rdf:Description`.
private struct XMPElementWriter {
    let numberStyle: NumberStyle
    var lines: [String] = []
    private let indent = String(repeating: " ", count: 9)

    mutating func numbers<S: Sequence>(_ pairs: S, prefix: String = "aas") where S.Element == (String, Double) {
        for (name, value) in pairs { text(name, numberStyle.format(value), prefix: prefix) }
    }

    mutating func text(_ name: String, _ value: String, prefix: String = "aas") {
        lines.append("\(indent)<\(prefix):\(name)>\(escaped(value))</\(prefix):\(name)>")
    }

    mutating func textArray(_ name: String, _ items: [String]) {
        lines.append("\(indent)<aas:\(name)>")
        lines.append("\(indent)   <rdf:Seq>")
        for item in items { lines.append("\(indent)      <rdf:li>\(escaped(item))</rdf:li>") }
        lines.append("\(indent)   </rdf:Seq>")
        lines.append("\(indent)</aas:\(name)>")
    }

    mutating func structArray(_ name: String, _ items: [(prefix: String, fields: [(key: String, value: String)])]) {
        lines.append("\(indent)<aas:\(name)>")
        lines.append("\(indent)   <rdf:Seq>")
        for item in items {
            lines.append("\(indent)      <rdf:li rdf:parseType=\"Resource\">")
            for field in item.fields {
                lines.append("\(indent)         <\(item.prefix):\(field.key)>\(escaped(field.value))</\(item.prefix):\(field.key)>")
            }
            lines.append("\(indent)      </rdf:li>")
        }
        lines.append("\(indent)   </rdf:Seq>")
        lines.append("\(indent)</aas:\(name)>")
    }

    private func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
