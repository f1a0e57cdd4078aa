import Foundation

/// What a run of a built binary printed and how it ended.
struct BinaryRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `executable` with `arguments` in `directory`, capturing both streams.
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> BinaryRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BinaryRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                         stderr: String(decoding: stderr, as: UTF8.self))
    }
}
