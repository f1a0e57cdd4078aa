/// A modern Photos `Orientation` adjustment (docs/spec/aae-format.md §5 step 4): the EXIF 1–8
/// orientation applied after the crop. U4 (`AAEAssumptions.orientation`): by default it replaces
/// the file's own orientation (Photos starts from the file's and its rotate and flip buttons
/// change the value); the alternative applies it after the file's.
package struct PhotosOrientation: Equatable, Sendable {
    /// The adjustment's `value`.
    package var orientation: Orientation
    /// How the value relates to the file's own orientation (U4).
    package var meaning: AAEAssumptions.OrientationMeaning

    package init(_ orientation: Orientation, meaning: AAEAssumptions.OrientationMeaning = .replacesFile) {
        (self.orientation, self.meaning) = (orientation, meaning)
    }

    /// The orientation to write the output in, given the file's own.
    package func applied(toFile file: Orientation) -> Orientation {
        switch meaning {
        case .replacesFile: return orientation
        case .composesWithFile: return file.followed(by: orientation)
        }
    }
}

extension PhotosOrientation: AAEAdjustmentFilter, GeometryFilter {
    package static let filterName = "Orientation"
    static let aaeIdentifier = "Orientation"
    /// A rotation and flip of whole pixels.
    static func aaeSupport(of adjustment: AAEAdjustment, hasUserCube: Bool) -> AAESupportLevel { .exact }

    package var parameterValues: [(String, ParameterValue)] {
        [("Value", .number(Double(orientation.rawValue))), ("Meaning", .text(meaning.rawValue))]
    }
    package func support(exactEffects: Set<PhotoEffect>) -> StepSupport { .exact }
    /// Unit-free.
    package func rescaled(by factors: RescaleFactors) -> PhotosOrientation { self }

    static func read(aae adjustment: AAEAdjustment, assumptions: AAEAssumptions) throws(AAEError) -> PhotosOrientation? {
        let value = try adjustment.number("value")
        guard let orientation = Orientation(rawValue: Int(exactly: value) ?? 0) else {
            throw .wrongSettingType(adjustment: adjustment.identifier, key: "value", expected: "an integer 1–8",
                                    found: String(value.description.prefix(20)))
        }
        return PhotosOrientation(orientation, meaning: assumptions.orientation)
    }
}

extension Orientation {
    /// `self`, then `next`: the one orientation that equals applying both in turn.
    func followed(by next: Orientation) -> Orientation {
        // Compared pixel by pixel on a small image whose axes differ, so all eight are told apart.
        let size = PixelSize(width: 2, height: 3)
        return Orientation.allCases.first { candidate in
            let out = candidate.orientedSize(of: size)
            return (0..<out.height).allSatisfy { y in
                (0..<out.width).allSatisfy { x in
                    let middle = next.sourcePixel(x: x, y: y, unorientedSize: orientedSize(of: size))
                    return candidate.sourcePixel(x: x, y: y, unorientedSize: size)
                        == sourcePixel(x: middle.u, y: middle.v, unorientedSize: size)
                }
            }
        } ?? next
    }
}
