import XMPParse

extension EditChain {
    /// Builds the chain from a parsed packet (xmp-format.md §3–§6).
    ///
    /// Values are kept as written (clamping is the renderer's business). A filter whose required
    /// properties are only partly present does not exist, as in Core Image; that, and any aas
    /// property this project does not know, is reported in `warnings` rather than dropped silently.
    public init(xmp packet: XMPPacket, warnings: inout [String]) throws(ChainError) {
        let aas = AdjustmentProperties(packet: packet, namespace: AdjustmentNamespace.aas, prefix: "aas")
        self.init()

        func present(_ filter: String, _ names: [String]) -> Bool {
            let missing = names.filter { !aas.has($0) }
            if missing.isEmpty { return true }
            if missing.count < names.count {
                warnings.append("incomplete \(filter) ignored: missing "
                    + missing.map { "aas:\($0)" }.joined(separator: ", "))
            }
            return false
        }

        if present("CIAffineTransform", PropertyNames.affine) {
            let v = try PropertyNames.affine.map { name throws(ChainError) in try aas.requiredNumber(name) }
            affine = AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
        }
        if present("CICrop", PropertyNames.crop) {
            let v = try PropertyNames.crop.map { name throws(ChainError) in try aas.requiredNumber(name) }
            crop = Crop(x: v[0], y: v[1], width: v[2], height: v[3])
        }
        if present("CIVibrance", PropertyNames.vibrance) {
            vibrance = Vibrance(amount: try aas.requiredNumber("Vibrance"))
        }
        if present("CIHighlightShadowAdjust", PropertyNames.highlightShadow) {
            highlightShadow = HighlightShadow(shadows: try aas.requiredNumber("Shadows"),
                                              highlights: try aas.requiredNumber("Highlights"))
        }
        if present("CIFaceBalance", PropertyNames.faceBalance) {
            let v = try PropertyNames.faceBalance.map { name throws(ChainError) in try aas.requiredNumber(name) }
            faceBalance = FaceBalance(origI: v[0], origQ: v[1], strength: v[2], warmth: v[3])
        }
        if present("CIToneCurve", PropertyNames.toneCurve) {
            let v = try PropertyNames.toneCurve.map { name throws(ChainError) in try aas.requiredNumber(name) }
            toneCurve = ToneCurve(points: (0..<5).map { Point(x: v[2 * $0], y: v[2 * $0 + 1]) })
        }
        if present("CIRedEyeCorrections", PropertyNames.redEye) {
            redEye = try Self.readRedEye(aas)
        }
        if let filters = aas.value(PropertyNames.filters) {
            guard case .array(_, let items) = filters else {
                throw .expectedArray(property: "aas:\(PropertyNames.filters)")
            }
            serializedFilters = try items.map { item throws(ChainError) in
                guard case .text(let text) = item else {
                    throw .expectedSimpleValue(property: "aas:\(PropertyNames.filters) item")
                }
                return try SerializedFilterSyntax.parse(text)
            }
        }
        if affine == nil, crop == nil {
            cameraRawCrop = try Self.readCameraRawCrop(packet)
        }

        let unknown = packet.properties.keys
            .filter { $0.namespace == AdjustmentNamespace.aas && !PropertyNames.known.contains($0.name) }
            .map { "aas:\($0.name)" }.sorted()
        if !unknown.isEmpty {
            warnings.append("unknown adjustment properties ignored: " + unknown.joined(separator: ", "))
        }
    }

    private static func readRedEye(_ aas: AdjustmentProperties) throws(ChainError) -> RedEyeCorrections {
        let v = try PropertyNames.redEye.map { name throws(ChainError) in try aas.requiredNumber(name) }
        var corrections: [RedEyeCorrection] = []
        if let value = aas.value(PropertyNames.redEyeCorrections) {
            guard case .array(_, let items) = value else {
                throw .expectedArray(property: "aas:\(PropertyNames.redEyeCorrections)")
            }
            corrections = try items.enumerated().map { index, item throws(ChainError) in
                try readRedEyeCorrection(item, index: index)
            }
        }
        return RedEyeCorrections(width: v[0], height: v[1], isv: v[2], ort: v[3], snr: v[4],
                                 model: try aas.text(PropertyNames.redEyeModel),
                                 corrections: corrections)
    }

    private static func readRedEyeCorrection(_ item: XMPValue, index: Int) throws(ChainError) -> RedEyeCorrection {
        guard case .structure(let members) = item else {
            throw .malformedRedEyeCorrection(index: index, reason: "not a struct")
        }
        let namespaces = Set(members.keys.map(\.namespace))
        let naming: RedEyeCorrection.Naming
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
            if let axes = RedEyeCorrection.pixelAxes(of: name.name, naming: naming) {
                let components = text.split(separator: " ")
                guard components.count == axes.count,
                      components.allSatisfy({ (try? XMPNumber.parse(String($0))) != nil }) else {
                    throw .malformedRedEyeCorrection(index: index, reason:
                        "field \(name.name) must hold \(axes.count) finite numbers, got \"\(text.prefix(40))\"")
                }
            }
            fields[name.name] = text
        }
        return RedEyeCorrection(naming: naming, fields: fields)
    }

    /// The Camera Raw crop fallback: only when `crs:HasCrop` is true and `crs:AlreadyApplied` is
    /// present and false (xmp-format.md §4).
    private static func readCameraRawCrop(_ packet: XMPPacket) throws(ChainError) -> CameraRawCrop? {
        let crs = AdjustmentProperties(packet: packet, namespace: AdjustmentNamespace.cameraRaw, prefix: "crs")
        typealias Names = PropertyNames.CameraRaw
        guard let hasCrop = try crs.text(Names.hasCrop), XMPBool.parse(hasCrop),
              let applied = try crs.text(Names.alreadyApplied), !XMPBool.parse(applied) else { return nil }
        return CameraRawCrop(left: try crs.number(Names.left) ?? 0, top: try crs.number(Names.top) ?? 0,
                             right: try crs.number(Names.right) ?? 1, bottom: try crs.number(Names.bottom) ?? 1,
                             angle: try crs.number(Names.angle) ?? 0)
    }
}
