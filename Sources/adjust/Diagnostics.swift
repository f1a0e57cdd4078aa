import AdjustKit
import ArgumentParser
import Foundation

/// One-line messages on standard error and the exit status for each kind of failure.
enum Diagnostics {
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("adjust: warning: \(message)\n".utf8))
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("adjust: note: \(message)\n".utf8))
    }

    static func fail(_ error: FileError) -> ExitCode {
        FileHandle.standardError.write(Data("adjust: error: \(message(error))\n".utf8))
        return exitCode(error.kind)
    }

    /// The library's one line, with the flag that changes the outcome where there is one: the
    /// library's errors name no command-line flags.
    static func message(_ error: FileError) -> String { error.description + hint(error) }

    /// " (the flag that changes the outcome)", or "" when no flag does.
    static func hint(_ error: FileError) -> String {
        switch error.cause {
        case RenderError.unknownFilter?: return " (without --strict it is left out)"
        case RenderError.unsupportedAdjustments?: return " (without --strict they are left out)"
        default: return ""
        }
    }

    /// sysexits.h codes, so scripts can tell bad input from a full disk.
    static func exitCode(_ kind: FileError.Kind) -> ExitCode {
        switch kind {
        case .invalidContent: return ExitCode(65)   // EX_DATAERR
        case .unreadable: return ExitCode(66)       // EX_NOINPUT
        case .unsupported: return ExitCode(69)      // EX_UNAVAILABLE
        case .unwritable: return ExitCode(73)       // EX_CANTCREAT
        }
    }

    /// The one line naming what a lenient render left out, or nil when it left out nothing.
    static func notReplayedLine(_ chain: EditChain, image: String) -> String? {
        let names = chain.notReplayed
        guard !names.isEmpty else { return nil }
        return "\(image): not replayed: \(names.joined(separator: ", ")) (the rest of the edit is rendered; --strict refuses)"
    }

    /// Warnings from reading the edit (naming the edit's file) and from planning (naming the image).
    static func report(_ edit: LoadedEdit, plan: RenderPlan?, image: String?) {
        for warning in edit.warnings { warn("\(edit.origin.path ?? image ?? "edit"): \(warning)") }
        for remark in edit.notes { note("\(edit.origin.path ?? image ?? "edit"): \(remark)") }
        for warning in plan?.warnings ?? [] { warn(image.map { "\($0): \(warning)" } ?? warning) }
    }
}

/// `--scale n/8` and `--max-size PX`, shared by `render` and `inspect`.
struct SizeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Decode and render at this DCT scale: n/8 with n = 1…16, or 1/2, 1/4, 1/8 (a HEIC: decoded whole, then resampled).", valueName: "n/8"))
    var scale: String?

    @Option(name: .long, help: ArgumentHelp(
        "Longest output side at most PX pixels (never upscales); picks a DCT scale, then area-resamples.",
        valueName: "PX"))
    var maxSize: Int?

    func validate() throws {
        if scale != nil, maxSize != nil { throw ValidationError("--scale and --max-size cannot be used together") }
        if let scale, DecodeScale(parsing: scale) == nil {
            throw ValidationError("--scale must be n/8 with n from 1 to 16 (e.g. 1/2, 3/8), got '\(scale)'")
        }
        if let scale, let parsed = DecodeScale(parsing: scale), !JPEGDecoder.supportedScales.contains(parsed) {
            throw ValidationError("--scale \(scale) is not a scale libjpeg-turbo supports")
        }
        if let maxSize, maxSize < 1 { throw ValidationError("--max-size must be at least 1, got \(maxSize)") }
    }

    var request: SizeRequest {
        if let scale, let parsed = DecodeScale(parsing: scale) { return .scale(parsed) }
        if let maxSize { return .maxSize(maxSize) }
        return .full
    }
}
