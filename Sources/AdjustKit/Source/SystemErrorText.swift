import Foundation

/// Foundation's file errors in the words of the rest of the tool: "permission denied", not
/// `Error Domain=NSCocoaErrorDomain Code=513 "…" UserInfo={…}`. Every message adjust prints is
/// one short line, and Foundation's descriptions are neither short nor one line.
package enum SystemErrorText {
    /// A short, one-line reason for a Foundation (Cocoa or POSIX) error; nil for any other error,
    /// whose own description is already the project's.
    package static func describe(_ error: any Error) -> String? {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return posix(Int32(ns.code)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(underlying.code))
        }
        guard ns.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileWriteFileExists: return "a file of that name exists"
        case .fileReadCorruptFile: return "the file is damaged"
        case .fileReadTooLarge: return "the file is too large"
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "not a valid file name"
        default: return "file system error \(ns.code)"
        }
    }

    private static func posix(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
