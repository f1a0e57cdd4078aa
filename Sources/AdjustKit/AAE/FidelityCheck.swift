import Foundation

/// One of the modern format's unknowns (docs/spec/aae-format.md §5, §9), with the readings
/// `AAEAssumptions` offers for it.
package enum AAEUnknown: String, CaseIterable, Sendable {
    case straightenSign = "U1", cropOrigin = "U2", perspective = "U3", orientation = "U4"

    /// Each alternative's name and the assumptions that differ from `base` in this unknown only;
    /// `base`'s own reading first.
    package func alternatives(from base: AAEAssumptions = .default) -> [(name: String, assumptions: AAEAssumptions)] {
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

/// What `adjust fidelity` found for one photo. Every figure compares images converted to 8-bit
/// sRGB from their embedded ICC profiles (`SRGBConversion`; untagged = sRGB): Apple's renders are
/// Display P3, adjust's carry the original's profile.
package struct FidelityReport: Sendable {
    package enum Status: String, Sendable {
        /// Rendered and compared with Apple's render.
        case compared = "ok"
        /// No Apple render beside the photo: skipped.
        case noRender = "no-render"
        /// No edit beside the photo: skipped.
        case noEdit = "no-edit"
        /// An edit and a render without the original: skipped.
        case noOriginal = "no-original"
        /// The edit is not a `com.apple.photo` edit (another app's, e.g. `com.apple.Photos.externalEdit`):
        /// only Apple's render holds it; skipped.
        case otherFormat = "other-format"
        /// Something could not be read, rendered or compared (`error`).
        case failed
    }

    /// One reading of one unknown, rendered and compared.
    package struct Alternative: Sendable {
        /// "U1" … "U4".
        package var unknown: AAEUnknown
        /// The reading's name (`AAEAssumptions`' raw values).
        package var name: String
        /// True for the reading adjust uses by default.
        package var isDefault: Bool
        /// The size rendered under this reading; nil when it could not be rendered.
        package var size: PixelSize?
        /// Against Apple's render; nil when the sizes differ or it was not rendered (`note`).
        package var psnr: Double?
        package var shift: PhaseCorrelation.Shift?
        /// Why there is no PSNR, or that the unknown cannot be tested.
        package var note: String?
    }

    /// Small JPEGs of the two renders and of their difference, for a report page (`--html`).
    package struct Thumbnails: Sendable {
        /// adjust's render, sRGB, at most `FidelityCheck.thumbnailSide` on its longer side.
        package var ours: [UInt8]
        /// Apple's render, likewise.
        package var apple: [UInt8]
        /// |ours − Apple's| per channel, times `FidelityCheck.differenceGain`, clamped, then
        /// reduced like the others; nil when the sizes differ.
        package var difference: [UInt8]?
    }

    package var original: String?
    /// The photo as the user knows it, where that is not its path: a library asset's original
    /// file name (`IMG_3092.heic`, not `originals/7/7783E8E6-….heic`).
    package var name: String?
    package var edit: String?
    package var appleRender: String?
    /// The layout the three were found in.
    package var layout: PhotoLayout
    package var status: Status
    /// The edit's enabled adjustments, by identifier, in the file's order, and
    /// `metadata.orientation N` when the edit turns or flips the photo (N not 0 or 1, and not the
    /// file's own orientation).
    package var adjustments: [String] = []
    /// What the edit asks for that our render leaves out: unsupported adjustments, perspective,
    /// adjustments that do nothing to a still (one line each).
    package var notReplayed: [String] = []
    /// Our render with the default readings.
    package var ourSize: PixelSize?
    package var appleSize: PixelSize?
    package var sizeMatch: Bool? { ourSize.flatMap { ours in appleSize.map { $0 == ours } } }
    /// Where Apple's render is displaced from ours (`PhaseCorrelation`); nil when the sizes differ.
    package var shift: PhaseCorrelation.Shift?
    /// Ours against Apple's, in dB (+infinity when identical); nil when the sizes differ.
    package var psnr: Double?
    /// The unedited photo — the original with only the edit's geometry, no colour step
    /// (`PhotoEdit.geometryOnly`) — against Apple's render; nil when the sizes differ.
    package var uneditedPSNR: Double?
    /// The size of the geometry-only render.
    package var uneditedSize: PixelSize?
    /// `psnr − uneditedPSNR`: what adjust's colour steps gain over leaving the colours alone; nil
    /// unless both are finite.
    package var gain: Double? {
        guard let psnr, let uneditedPSNR, psnr.isFinite, uneditedPSNR.isFinite else { return nil }
        return psnr - uneditedPSNR
    }
    /// A compared photo whose gain is negative: adjust's colour steps took it further from Apple's
    /// render than leaving the colours alone would have. Printed as the status `worse`.
    package var isWorseThanUnedited: Bool { status == .compared && (gain ?? 0) < 0 }
    /// The status as `adjust fidelity` prints it: `worse` for a photo worse than unedited, else the
    /// status's own name.
    package var statusName: String { isWorseThanUnedited ? "worse" : status.rawValue }
    /// Grey normalized cross-correlation of ours and Apple's (`GreyCorrelation`); nil when the
    /// sizes differ.
    package var ncc: Double?
    /// The colour space each render was converted from (the ICC profile's description, or
    /// "untagged (sRGB)").
    package var ourColour: String?
    package var appleColour: String?
    /// Every reading of every unknown the edit touches.
    package var alternatives: [Alternative] = []
    /// Approximate steps in our render (colour approximations lower the PSNR of every reading alike).
    package var approximations: [String] = []
    /// Remarks from reading the edit and planning, one line each.
    package var warnings: [String] = []
    /// Why a skipped entry was skipped, when the status alone does not say.
    package var note: String?
    package var error: FileError?
    /// When asked for (`FidelityCheck.thumbnailSide`).
    package var thumbnails: Thumbnails?

    package init(original: String?, edit: String?, appleRender: String?, layout: PhotoLayout = .sidecar,
                status: Status, note: String? = nil) {
        (self.original, self.edit, self.appleRender, self.layout, self.status, self.note)
            = (original, edit, appleRender, layout, status, note)
    }

    /// For each unknown tested, the reading with the highest PSNR (the default on a tie); U3 "not testable".
    package var best: [(unknown: AAEUnknown, name: String)] {
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
/// with Apple's render of the same edit (docs/spec/aae-format.md §9), in sRGB; and renders the
/// photo with the edit's geometry only, to measure what the colour steps gain.
package struct FidelityCheck: Sendable {
    /// Limits for reading the files; its `assumptions` are the default readings.
    package var editSource: EditSource
    package var planner: RenderPlanner
    /// Its colour options are used as given, except that unsupported adjustments are always left
    /// out (and reported as not replayed): a check measures what can be rendered.
    package var renderer: Renderer
    package var correlation: PhaseCorrelation
    /// Make `FidelityReport.thumbnails`, this long on the longer side at most; nil: none.
    package var thumbnailSide: Int?
    /// How much the difference thumbnail amplifies |ours − Apple's|.
    package var differenceGain: Int

    package init(editSource: EditSource = EditSource(), planner: RenderPlanner = RenderPlanner(),
                renderer: Renderer = Renderer(), correlation: PhaseCorrelation = PhaseCorrelation(),
                thumbnailSide: Int? = nil, differenceGain: Int = 4) {
        var renderer = renderer
        renderer.colour.skipUnknownFilters = true
        (self.editSource, self.planner, self.renderer, self.correlation) = (editSource, planner, renderer, correlation)
        (self.thumbnailSide, self.differenceGain) = (thumbnailSide, differenceGain)
    }

    /// Checks one photo; every failure is in the report, none is thrown.
    package func check(_ found: FoundPhoto) -> FidelityReport {
        var report = FidelityReport(original: found.original, edit: found.edit, appleRender: found.appleRender,
                                    layout: found.layout, status: .failed, note: found.note)
        report.name = found.name == (found.original ?? found.edit ?? "") || found.name.isEmpty ? nil : found.name
        if let failure = found.failure { report.error = failure; return report }
        guard let original = found.original else { report.status = .noOriginal; return report }
        guard let editPath = found.edit else { report.status = .noEdit; return report }
        guard let renderPath = found.appleRender else { report.status = .noRender; return report }
        do {
            try compare(original: original, editPath: editPath, renderPath: renderPath, into: &report)
            report.status = .compared
        } catch let error where error.cause is AAEError {
            if case .unsupportedFormat(let identifier, let editor)? = error.cause as? AAEError {
                report.status = .otherFormat
                report.note = "an edit in another format (\(identifier), by \(editor)): only Apple's render holds it"
            } else {
                report.error = error
            }
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

    /// A render of `photo` in sRGB, converted from `profile`.
    private func renderSRGB(_ photo: PhotoEdit, profile: ColourProfile) throws(FileError) -> Rendering {
        var rendering = try photo.render()
        do { try SRGBConversion.convert(&rendering.image, from: profile) } catch {
            rendering.warnings.append("\(photo.imagePath): \(error.description); compared as sRGB")
        }
        return rendering
    }

    private func compare(original: String, editPath: String, renderPath: String,
                         into report: inout FidelityReport) throws(FileError) {
        let base = editSource.assumptions
        let photo = try photo(original, editPath, base)
        report.warnings = photo.edit.warnings.map { "\(editPath): \($0)" } + photo.plan.warnings.map { "\(original): \($0)" }
        (report.adjustments, report.notReplayed) = describe(photo, editPath: editPath)
        let apple = try Self.loadSRGB(renderPath)
        report.appleSize = apple.image.size
        report.appleColour = apple.profile.description
        if let warning = apple.warning { report.warnings.append(warning) }

        let profile = ColourProfile(jpegHeader: photo.original.metadataJPEG)
        report.ourColour = profile.description
        let ours = try renderSRGB(photo, profile: profile)
        report.ourSize = ours.image.size
        report.approximations = ours.approximations
        report.warnings += ours.warnings.map { $0.hasPrefix(original + ": ") ? $0 : "\(original): \($0)" }
        let measured = try measure(ours.image, against: apple.image, renderPath: renderPath)
        (report.psnr, report.shift) = (measured.psnr, measured.shift)
        report.ncc = GreyCorrelation.ncc(ours.image, apple.image)

        let unedited = try renderSRGB(try photo.geometryOnly(planner: planner), profile: profile).image
        report.uneditedSize = unedited.size
        if unedited.size == apple.image.size {
            do { report.uneditedPSNR = try ImageComparator.compare(unedited, apple.image).psnr } catch {
                throw FileError(path: renderPath, kind: .invalidContent, problem: error.description)
            }
        }

        if let side = thumbnailSide {
            report.thumbnails = try thumbnails(ours.image, apple.image, side: side, renderPath: renderPath)
        }

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
                    let image = try renderSRGB(alternative, profile: profile).image
                    let m = try measure(image, against: apple.image, renderPath: renderPath)
                    (result.size, result.psnr, result.shift, result.note) = (image.size, m.psnr, m.shift, m.note)
                } catch {
                    result.note = "not rendered: \(error.problem)"
                }
                results.append(result)
            }
            if touched { report.alternatives += results }
        }
    }

    /// The edit's adjustments as the file names them, and what our render leaves out of them.
    private func describe(_ photo: PhotoEdit, editPath: String) -> (adjustments: [String], notReplayed: [String]) {
        var adjustments: [String] = []
        if let bytes = try? InputFile.read(editPath, limit: editSource.limits.maxInputBytes),
           let document = try? AAEDocument(contentsOf: bytes, limits: editSource.aaeLimits) {
            adjustments = document.adjustments.filter(\.enabled).map(\.identifier)
            let orientation = document.metadata.orientation
            if orientation > 1, orientation != (photo.fileOrientation ?? 1) { adjustments.append("metadata.orientation \(orientation)") }
        }
        var notReplayed = photo.edit.chain.steps.filter { $0.support == .unsupported }.map(\.filterName)
        if photo.edit.chain.photosCrop?.hasPerspective == true { notReplayed.append("perspective (pitch, yaw)") }
        notReplayed += photo.edit.notes
        return (adjustments, notReplayed)
    }

    private func thumbnails(_ ours: RGBA8Image, _ apple: RGBA8Image, side: Int,
                            renderPath: String) throws(FileError) -> FidelityReport.Thumbnails {
        do {
            let difference = ours.size == apple.size
                ? try ImageComparator.differenceImage(ours, apple, gain: differenceGain).thumbnail(maxSide: side) : nil
            return FidelityReport.Thumbnails(
                ours: try JPEGEncoder.encode(ours.thumbnail(maxSide: side), quality: 85),
                apple: try JPEGEncoder.encode(apple.thumbnail(maxSide: side), quality: 85),
                difference: try difference.map { image throws(EncodeError) in try JPEGEncoder.encode(image, quality: 90) })
        } catch let error as EncodeError {
            throw FileError(path: renderPath, kind: .invalidContent, problem: "thumbnail: \(error.description)")
        } catch {
            throw FileError(path: renderPath, kind: .invalidContent, problem: "\(error)")
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

    /// Apple's render as shown: decoded by `ImageComparator.load`, turned upright (a JPEG by its
    /// EXIF orientation, a HEIC by its irot/imir), converted to sRGB from its embedded profile
    /// (untagged: taken as sRGB), with a warning when that profile cannot be used.
    static func loadSRGB(_ path: String) throws(FileError) -> (image: RGBA8Image, profile: ColourProfile, warning: String?) {
        let loaded = try ImageComparator.load(path)
        var image = loaded.image
        let profile: ColourProfile
        switch loaded.format {
        case .jpeg:
            let head = try InputFile.read(path, limit: InputFile.defaultLimit)
            let orientation = ExifOrientation.value(inJPEG: head).flatMap(Orientation.init(rawValue:)) ?? .identity
            if orientation != .identity { image = image.oriented(orientation) }
            profile = ColourProfile(jpegHeader: head)
        case .heic:
            let header: HEICHeader
            do { header = try HEICDecoder().header(of: try InputFile.read(path, limit: InputLimits.defaultMaxInputBytes)) } catch {
                throw FileError(path: path, kind: .invalidContent, error)
            }
            let orientation = Orientation(rawValue: header.orientation) ?? .identity
            if orientation != .identity { image = image.oriented(orientation) }
            profile = ColourProfile(icc: header.metadata.iccProfile)
        case .png:
            profile = .untagged
        }
        do { try SRGBConversion.convert(&image, from: profile) } catch {
            return (image, .untagged, "\(path): \(error.description); compared as sRGB")
        }
        return (image, profile, nil)
    }
}
