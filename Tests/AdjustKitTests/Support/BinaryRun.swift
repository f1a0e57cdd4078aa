import Foundation

/// What a run of a program printed and how it ended.
struct BinaryRun {
    var status: Int32
    /// Standard output as bytes (exiftool -b prints binary values).
    var output: Data
    var stderr: String
    var stdout: String { String(decoding: output, as: UTF8.self) }

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
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BinaryRun(status: process.terminationStatus, output: outData, stderr: String(decoding: errData, as: UTF8.self))
    }
}
