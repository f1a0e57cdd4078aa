import AdjustKit
import Foundation

/// One photo to render: where it is, where its output goes, its edit and Apple's render as the
/// layout it was found in pairs them, and a failure found before rendering.
struct BatchItem: Sendable {
    var input: String
    /// The path under its input root ("sub/IMG_0001.JPG"; in a Photos library, the asset's
    /// original file name), the original extension kept.
    var relative: String
    var output: String?
    var key: BatchFiles.Key?
    var failure: FileError?
    /// What discovery paired with the photo (docs/spec/aae-format.md §1).
    var found: FoundPhoto?

    init(input: String, relative: String, output: String? = nil, key: BatchFiles.Key? = nil, failure: FileError? = nil,
         found: FoundPhoto? = nil) {
        (self.input, self.relative, self.output, self.key, self.failure, self.found) = (input, relative, output, key, failure, found)
    }

    /// The edit to read when the layout, not the photo's own folder, says where it is (a Photos
    /// library's renders folder, an iPhone's Mutations folder); nil lets `EditSource` find it
    /// (embedded XMP first, then the sidecars beside the photo).
    var layoutEdit: String? {
        guard let found, found.layout != .sidecar else { return nil }
        return found.edit
    }

    /// Apple's own render of this photo's edit, when one was found beside it.
    var appleRender: String? { found?.appleRender }
}

/// Finding the photos and mapping them to outputs.
enum BatchFiles {
    typealias Key = FileIdentity

    static func key(_ path: String) -> Key? { FileIdentity(path: path) }

    /// The extensions (lower case) a folder walk takes as photos: the one place to add a format.
    static func isInputName(_ name: String) -> Bool { PhotoLayout.isPhotoName(name) }

    /// True for `IMG_E1234.*` when a photo `IMG_1234.*` lies beside it among `names`: Apple's own
    /// render of that photo's edit (docs/spec/aae-format.md §1), not a photo of its own.
    static func isAppleRender(_ name: String, among names: Set<String>) -> Bool {
        let stem = (name as NSString).deletingPathExtension
        guard stem.count > 5, stem.uppercased().hasPrefix("IMG_E") else { return false }
        let original = "img_" + stem.dropFirst(5).lowercased()
        return names.contains { isInputName($0) && ($0 as NSString).deletingPathExtension.lowercased() == original }
    }

    /// Before anything is created: every input must exist (a mistyped path is exit 66, and no
    /// output folder is made for it).
    static func checkInputsExist(_ inputs: [String]) throws(FileError) {
        for input in inputs where !FileManager.default.fileExists(atPath: input) {
            throw FileError(path: input, kind: .unreadable, problem: "no such file or folder; nothing was written")
        }
    }

    /// Why `out` cannot be the output folder of `inputs` — it is an input folder or inside one,
    /// so its outputs would be inputs of the next run — or nil.
    static func outputFolderProblem(_ inputs: [String], out: String) -> String? {
        let outPath = absolute(out)
        for input in inputs {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue else { continue }
            let inputPath = absolute(input)
            guard outPath == inputPath || outPath.hasPrefix(inputPath == "/" ? "/" : inputPath + "/") else { continue }
            let place = outPath == inputPath ? "is the input folder \(input)" : "is inside the input folder \(input)"
            return "--out \(out) \(place); choose a folder outside it, e.g. --out \((inputPath as NSString).lastPathComponent)-edited"
        }
        return nil
    }

    /// `mkdir -p`, tolerating another worker creating the same folder at the same time.
    static func makeDirectory(_ path: String) throws(FileError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw FileError(path: path, kind: .unwritable, problem: "exists and is not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
            throw FileError(path: path, kind: .unwritable, problem: "cannot create the folder: \(oneLine(error))")
        }
    }

    /// Every photo under `inputs`, each once, in the order given (folders sorted by name), found
    /// where it lives (`BatchCollection`), with its output path under `out`; every other file met
    /// is counted by kind. The `out` folder is never walked.
    static func collect(_ inputs: [String], out: String, format: ImageFormat, includeTrashed: Bool = false) -> BatchCollection {
        var collection = BatchCollection(includeTrashed: includeTrashed, out: out)
        let named = Set(inputs.map { ($0 as NSString).lastPathComponent })
        for input in inputs {
            var s = stat()
            guard stat(input, &s) == 0 else {
                let why = String(cString: strerror(errno))
                collection.items.append(BatchItem(input: input, relative: "",
                                                  failure: FileError(path: input, kind: .unreadable, problem: "cannot open: \(why)")))
                continue
            }
            if s.st_mode & S_IFMT == S_IFDIR {
                var root = input
                while root.count > 1, root.hasSuffix("/") { root.removeLast() }
                collection.addFolder(root, relative: "")
            } else {
                collection.addNamedFile(input, among: named)
            }
        }

        // Outputs: DIR/relative with the format's extension; two photos never share one.
        var outDir = out
        while outDir.count > 1, outDir.hasSuffix("/") { outDir.removeLast() }
        var owners: [String: String] = [:]
        for index in collection.items.indices where collection.items[index].failure == nil {
            let stem = (collection.items[index].relative as NSString).deletingPathExtension
            let output = (outDir == "/" ? "/" : outDir + "/") + stem + "." + format.fileExtension
            collection.items[index].output = output
            if let owner = owners[output] {
                collection.items[index].failure = FileError(path: output, kind: .unwritable,
                                                            problem: "already the output of \(owner); not written twice")
            } else {
                owners[output] = collection.items[index].input
            }
        }
        return collection
    }

    /// Removes every temporary file (`AtomicFileWriter.temporaryPrefix`) under `out` except those
    /// for an output in `keeping` (another shard's, which that shard may be writing right now).
    /// Each output has exactly one writer, so a temporary file of one's own outputs, or of no
    /// output of the batch, was left by a killed run. Errors are ignored: another shard may
    /// remove the same file first.
    static func removeStaleTemporaryFiles(in out: String, keeping: Set<String>) {
        var outDir = out
        while outDir.count > 1, outDir.hasSuffix("/") { outDir.removeLast() }
        guard let walker = FileManager.default.enumerator(atPath: outDir) else { return }
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard let target = AtomicFileWriter.target(ofTemporary: name) else { continue }
            let folder = (relative as NSString).deletingLastPathComponent
            let base = outDir == "/" ? "/" : outDir + "/"
            let output = base + (folder.isEmpty ? target : folder + "/" + target)
            if !keeping.contains(output) { unlink(base + relative) }
        }
    }

    /// The absolute form of `path`, "." and ".." resolved (symbolic links are not).
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath,
                                                   isDirectory: true)).standardizedFileURL.path
    }

    /// `path` relative to `folder` ("../../photos/IMG_0001.JPG"), both taken as absolute paths.
    static func relativePath(of path: String, from folder: String) -> String {
        let target = absolute(path).split(separator: "/")
        let base = absolute(folder).split(separator: "/")
        var shared = 0
        while shared < min(target.count, base.count), target[shared] == base[shared] { shared += 1 }
        let parts = Array(repeating: "..", count: base.count - shared) + target[shared...].map(String.init)
        return parts.joined(separator: "/")
    }

    static func oneLine(_ error: Any) -> String {
        let text = (error as? any Error).flatMap(SystemErrorText.describe) ?? "\(error)"
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

