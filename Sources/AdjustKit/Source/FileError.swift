/// A failure tied to one file: the message names the file, then the problem, on one line.
public struct FileError: Error, CustomStringConvertible {
    /// What went wrong, in the terms a caller maps to exit codes.
    public enum Kind: Sendable {
        /// The file could not be opened or read.
        case unreadable
        /// The file's content is invalid (bad XMP, bad JPEG, an edit that keeps nothing).
        case invalidContent
        /// The edit uses something this version cannot render.
        case unsupported
        /// The output could not be written.
        case unwritable
    }

    /// The file at fault, as the caller named it.
    public var path: String
    /// The class of failure, which `adjust` maps to its exit status.
    public var kind: Kind
    /// One line, without the file name.
    public var problem: String
    /// The library error behind `problem`, when there is one: a front end may add its own advice
    /// (the CLI names the flag that changes the outcome).
    public var cause: (any Error)?

    /// A failure of `path`, described by `problem`.
    package init(path: String, kind: Kind, problem: String) {
        (self.path, self.kind, self.problem) = (path, kind, problem)
    }

    /// A failure of `path`, described by `error`'s own description.
    package init(path: String, kind: Kind, _ error: any Error) {
        self.init(path: path, kind: kind, problem: SystemErrorText.describe(error) ?? "\(error)")
        cause = error
    }

    /// `path: problem`, on one line.
    public var description: String { "\(path): \(problem)" }
}
