import Foundation

/// One of the modern format's unknowns (docs/spec/aae-format.md §5, §9), with the readings
/// `AAEAssumptions` offers for it.
public enum AAEUnknown: String, CaseIterable, Sendable {
    case straightenSign = "U1", cropOrigin = "U2", perspective = "U3", orientation = "U4"

    /// Each alternative's name and the assumptions that differ from `base` in this unknown only;
    /// `base`'s own reading first.
    public func alternatives(from base: AAEAssumptions = .default) -> [(name: String, assumptions: AAEAssumptions)] {
        var result: [(name: String, assumptions: AAEAssumptions)] = []
        switch self {
        case .straightenSign:
            for value in [base.straightenSign] + AAEAssumptions.StraightenSign.allCases.filter({ $0 != base.straightenSign }) {
                var a = base; a.straightenSign = value; result.append((value.rawValue, a))
            }
        case .cropOrigin:
            for value in [base.cropOrigin] + AAEAssumptions.CropOrigin.allCases.filter({ $0 != base.cropOrigin }) {
                var a = base; a.cropOrigin = value; result.append((value.rawValue, a))
            }
        case .perspective:
            for value in [base.perspective] + AAEAssumptions.Perspective.allCases.filter({ $0 != base.perspective }) {
                var a = base; a.perspective = value; result.append((value.rawValue, a))
            }
        case .orientation:
            for value in [base.orientation] + AAEAssumptions.OrientationMeaning.allCases.filter({ $0 != base.orientation }) {
                var a = base; a.orientation = value; result.append((value.rawValue, a))
            }
        }
        return result
    }
}

/// What `adjust fidelity` found for one photo.
public struct FidelityReport: Sendable {
    public enum Status: String, Sendable {
        /// Rendered and compared with Apple's render.
        case compared = "ok"
        /// No Apple render beside the photo: skipped.
        case noRender = "no-render"
        /// No edit beside the photo: skipped.
        case noEdit = "no-edit"
        /// An edit and a render without the original: skipped.
        case noOriginal = "no-original"
        /// Something could not be read, rendered or compared (`error`).
        case failed
    }

    /// One reading of one unknown, rendered and compared.
    public struct Alternative: Sendable {
        /// "U1" … "U4".
        public var unknown: AAEUnknown
        /// The reading's name (`AAEAssumptions`' raw values).
        public var name: String
        /// True for the reading adjust uses by default.
        public var isDefault: Bool
        /// The size rendered under this reading; nil when it could not be rendered.
        public var size: PixelSize?
        /// Against Apple's render; nil when the sizes differ or it was not rendered (`note`).
        public var psnr: Double?
        public var shift: PhaseCorrelation.Shift?
        /// Why there is no PSNR, or that the unknown cannot be tested.
        public var note: String?
    }

    public var original: String?
    public var edit: String?
    public var appleRender: String?
    public var status: Status
    /// Our render with the default readings.
    public var ourSize: PixelSize?
    public var appleSize: PixelSize?
    public var sizeMatch: Bool? { ourSize.flatMap { ours in appleSize.map { $0 == ours } } }
    /// Where Apple's render is displaced from ours (`PhaseCorrelation`); nil when the sizes differ.
    public var shift: PhaseCorrelation.Shift?
    /// Ours against Apple's, in dB (+infinity when identical); nil when the sizes differ.
    public var psnr: Double?
    /// Every reading of every unknown the edit touches.
    public var alternatives: [Alternative] = []
    /// Approximate steps in our render (colour approximations lower the PSNR of every reading alike).
    public var approximations: [String] = []
    /// Remarks from reading the edit and planning, one line each.
    public var warnings: [String] = []
    /// Why a skipped entry was skipped, when the status alone does not say.
    public var note: String?
    public var error: FileError?

    /// For each unknown tested, the reading with the highest PSNR (the default on a tie); U3 "not testable".
    public var best: [(unknown: AAEUnknown, name: String)] {
        AAEUnknown.allCases.compactMap { unknown in
            let readings = alternatives.filter { $0.unknown == unknown }
            guard !readings.isEmpty else { return nil }
            if readings.count == 1 && readings[0].psnr == nil && unknown == .perspective { return (unknown, "not testable") }
            var winner: Alternative?
            for reading in readings {
                guard let psnr = reading.psnr else { continue }
                if winner == nil || psnr > winner!.psnr! { winner = reading }
            }
            return winner.map { (unknown, $0.name) }
        }
    }
}

/// Renders a photo's edit, and each reading of the unknowns the edit touches, and compares each
/// with Apple's render of the same edit (docs/spec/aae-format.md §9).
public struct FidelityCheck: Sendable {
    /// Limits for reading the files; its `assumptions` are the default readings.
    public var editSource: EditSource
    public var planner: RenderPlanner
    public var renderer: Renderer
    public var correlation: PhaseCorrelation

    public init(editSource: EditSource = EditSource(), planner: RenderPlanner = RenderPlanner(),
                renderer: Renderer = Renderer(), correlation: PhaseCorrelation = PhaseCorrelation()) {
        (self.editSource, self.planner, self.renderer, self.correlation) = (editSource, planner, renderer, correlation)
    }

    /// Checks one photo; every failure is in the report, none is thrown.
    public func check(_ found: FidelityCase) -> FidelityReport {
        var report = FidelityReport(original: found.original, edit: found.edit, appleRender: found.appleRender,
                                    status: .failed, note: found.note)
        if let failure = found.failure { report.error = failure; return report }
        guard let original = found.original else { report.status = .noOriginal; return report }
        guard let editPath = found.edit else { report.status = .noEdit; return report }
        guard let renderPath = found.appleRender else { report.status = .noRender; return report }
        do {
            try compare(original: original, editPath: editPath, renderPath: renderPath, into: &report)
            report.status = .compared
        } catch {
            report.error = error
        }
        return report
    }

    private func photo(_ original: String, _ editPath: String, _ assumptions: AAEAssumptions) throws(FileError) -> PhotoEdit {
        var source = editSource
        source.assumptions = assumptions
        return try PhotoEdit(imagePath: original, editPath: editPath, size: .full, editSource: source,
                             planner: planner, renderer: renderer)
    }

    private func compare(original: String, editPath: String, renderPath: String,
                         into report: inout FidelityReport) throws(FileError) {
        let base = editSource.assumptions
        let photo = try photo(original, editPath, base)
        report.warnings = photo.edit.warnings.map { "\(editPath): \($0)" } + photo.plan.warnings.map { "\(original): \($0)" }
        let apple = try Self.loadUpright(renderPath)
        report.appleSize = apple.size

        let ours = try photo.render()
        report.ourSize = ours.image.size
        report.approximations = ours.approximations
        report.warnings += ours.warnings.map { "\(original): \($0)" }
        let measured = try measure(ours.image, against: apple, renderPath: renderPath)
        (report.psnr, report.shift) = (measured.psnr, measured.shift)

        for unknown in AAEUnknown.allCases {
            let readings = unknown.alternatives(from: base)
            if unknown == .perspective {
                guard photo.edit.chain.photosCrop?.hasPerspective == true else { continue }
                report.alternatives.append(.init(unknown: unknown, name: readings[0].name, isDefault: true,
                                                 note: "not testable: adjust has one reading only (perspective not rendered)"))
                continue
            }
            var results: [FidelityReport.Alternative] = []
            var touched = false
            for (index, reading) in readings.enumerated() {
                var result = FidelityReport.Alternative(unknown: unknown, name: reading.name, isDefault: index == 0)
                if index == 0 {
                    (result.size, result.psnr, result.shift, result.note) =
                        (ours.image.size, measured.psnr, measured.shift, measured.note)
                    results.append(result)
                    continue
                }
                let alternative: PhotoEdit
                do { alternative = try self.photo(original, editPath, reading.assumptions) } catch {
                    touched = true
                    result.note = "not rendered: \(error.problem)"
                    results.append(result)
                    continue
                }
                // An unknown the edit does not touch plans the same geometry under every reading.
                if Self.sameGeometry(alternative.plan, photo.plan) { continue }
                touched = true
                do {
                    let image = try alternative.render().image
                    let m = try measure(image, against: apple, renderPath: renderPath)
                    (result.size, result.psnr, result.shift, result.note) = (image.size, m.psnr, m.shift, m.note)
                } catch {
                    result.note = "not rendered: \(error.problem)"
                }
                results.append(result)
            }
            if touched { report.alternatives += results }
        }
    }

    private static func sameGeometry(_ a: RenderPlan, _ b: RenderPlan) -> Bool {
        a.transform == b.transform && a.cropRect == b.cropRect && a.orientation == b.orientation
            && a.outputExtent == b.outputExtent && a.orientedSize == b.orientedSize
    }

    private func measure(_ ours: RGBA8Image, against apple: RGBA8Image,
                         renderPath: String) throws(FileError) -> (psnr: Double?, shift: PhaseCorrelation.Shift?, note: String?) {
        guard ours.size == apple.size else {
            return (nil, nil, "size \(ours.size) differs from Apple's \(apple.size)")
        }
        do {
            let psnr = try ImageComparator.compare(ours, apple).psnr
            return (psnr, try correlation.shift(from: ours, to: apple), nil)
        } catch {
            throw FileError(path: renderPath, kind: .invalidContent, problem: error.description)
        }
    }

    /// Apple's render as shown: decoded by `ImageComparator.load`, a JPEG turned upright by its
    /// EXIF orientation.
    static func loadUpright(_ path: String) throws(FileError) -> RGBA8Image {
        let loaded = try ImageComparator.load(path)
        guard loaded.format == .jpeg else { return loaded.image }
        let head = try InputFile.read(path, limit: InputFile.defaultLimit)
        let orientation = ExifOrientation.value(inJPEG: head).flatMap(Orientation.init(rawValue:)) ?? .identity
        return orientation == .identity ? loaded.image : loaded.image.oriented(orientation)
    }
}
