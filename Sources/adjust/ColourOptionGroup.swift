import AdjustKit
import ArgumentParser
import Foundation

/// `--working-space`, `--effect-lut`, `--strict` and its old opposite `--skip-unsupported`, shared
/// by `render`, `inspect`, `batch` and `fidelity` (where `--strict` fails a photo worse than unedited).
struct ColourOptionGroup: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Where colour filters compute: linear (default; what Photos did) or srgb (the encoded values).",
        valueName: "linear|srgb"))
    var workingSpace: String = WorkingSpace.linear.rawValue

    @Option(name: .long, help: ArgumentHelp(
        "Exact table for a photo effect, as an Adobe .cube file: EFFECT=FILE, EFFECT being e.g. CIPhotoEffectNoir or noir. Repeatable.",
        valueName: "EFFECT=FILE"))
    var effectLut: [String] = []

    @Flag(name: .long, help: """
        Refuse (exit 69) an edit with a step this version cannot replay (an aas:Filters name it does \
        not know, an unsupported or unreadable modern Photos adjustment). Without it such steps are \
        left out and named in one warning line ("not replayed: …"). In fidelity, which always leaves \
        them out: exit 65 when any photo is worse than the unedited photo.
        """)
    var strict = false

    /// Kept so that scripts written for 0.1 still run: leaving such steps out is now the default.
    @Flag(name: [.customLong("skip-unsupported"), .customLong("skip-unknown-filters")], help: """
        Accepted for compatibility: leaving out what cannot be replayed is now the default \
        (--strict refuses instead). --skip-unknown-filters is an alias.
        """)
    var skipUnsupported = false

    /// True unless `--strict`: the library's name for leaving such steps out.
    var skipUnknownFilters: Bool { !strict }

    func validate() throws {
        if strict, skipUnsupported { throw ValidationError("--strict and --skip-unsupported contradict each other") }
        guard WorkingSpace(rawValue: workingSpace) != nil else {
            throw ValidationError("--working-space must be linear or srgb, got '\(workingSpace)'")
        }
        for entry in effectLut { _ = try Self.split(entry) }
    }

    /// Reads the tables; a bad file is a one-line error naming it.
    func options() throws(FileError) -> ColourOptions {
        var cubes: [PhotoEffect: ColourCube] = [:], modernCubes: [ModernPhotoEffect: ColourCube] = [:]
        for entry in effectLut {
            guard let (effect, path) = try? Self.split(entry) else { continue }   // validate() checked
            let text = String(decoding: try InputFile.read(path, limit: 64 << 20), as: UTF8.self)
            do {
                switch effect {
                case .classic(let effect): cubes[effect] = try ColourCube.parse(text)
                case .modern(let effect): modernCubes[effect] = try ColourCube.parse(text)
                }
            } catch {
                throw FileError(path: path, kind: .invalidContent, problem: "not a usable .cube table: \(error)")
            }
        }
        return ColourOptions(workingSpace: WorkingSpace(rawValue: workingSpace) ?? .linear, effectCubes: cubes,
                             modernEffectCubes: modernCubes, skipUnknownFilters: skipUnknownFilters)
    }

    static func split(_ entry: String) throws -> (EffectIntensityDissolve.Look, String) {
        guard let equals = entry.firstIndex(of: "=") else {
            throw ValidationError("--effect-lut takes EFFECT=FILE, got '\(entry)'")
        }
        let name = String(entry[..<equals]), path = String(entry[entry.index(after: equals)...])
        guard let effect = EffectIntensityDissolve.Look(name: name), !path.isEmpty else {
            throw ValidationError("--effect-lut: '\(name)' is not a photo effect (use one of "
                + PhotoEffect.allCases.map(\.rawValue).joined(separator: ", ") + ", or a modern Photos filter: "
                + ModernPhotoEffect.allCases.map(\.rawValue).joined(separator: ", ") + ") or the file is missing")
        }
        return (effect, path)
    }
}
