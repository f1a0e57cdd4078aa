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
    /// Apple's render, chosen when the outputs were named because the name depends on it (a HEIC
    /// render copied as HEIC: `BatchFiles.OwnFormat`); nil to decide when the edit is read.
    var plannedAppleRender: AppleRenderChoice?
    /// A file copied rather than rendered (a video, a Live Photo's motion, a screenshot).
    var file: FoundFile?

    init(input: String, relative: String, output: String? = nil, key: BatchFiles.Key? = nil, failure: FileError? = nil,
         found: FoundPhoto? = nil, file: FoundFile? = nil) {
        (self.input, self.relative, self.output, self.key, self.failure, self.found) = (input, relative, output, key, failure, found)
        self.file = file
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

    /// The photo as the user knows it (a library's original file name), for messages.
    var name: String { found.map { $0.name.isEmpty ? input : $0.name } ?? file?.name ?? input }
}

/// Finding the photos and mapping them to outputs.
enum BatchFiles {
    typealias Key = FileIdentity

    static func key(_ path: String) -> Key? { FileIdentity(path: path) }

    /// Before anything is created: every input must exist (a mistyped path is exit 66, and no
    /// output folder is made for it).
    static func checkInputsExist(_ inputs: [String]) throws(FileError) {
        for input in inputs where !FileManager.default.fileExists(atPath: input) {
            throw FileError(path: input, kind: .unreadable, problem: "no such file or folder; nothing was written")
        }
    }

    /// Why `out` cannot be the output folder of `inputs` — it is an input folder or inside one, or
    /// the folder of an input file, so its outputs would be inputs of the next run — or nil.
    static func outputFolderProblem(_ inputs: [String], out: String) -> String? {
        let outPath = absolute(out)
        for input in inputs {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else { continue }
            if !isFolder.boolValue {
                // A file named (a shell glob, `batch *.JPG --out .`): outputs beside their inputs
                // would be taken for originals by the next run.
                let folder = (absolute(input) as NSString).deletingLastPathComponent
                guard outPath == folder else { continue }
                return "--out \(out) is the folder of the input \(input); choose a folder outside it, "
                    + "e.g. --out \((folder as NSString).lastPathComponent)-edited"
            }
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
    /// by the one walk (`PhotoWalker`), with its output path under `out`; every other file met
    /// is counted by kind. The `out` folder is never walked.
    /// When no format, size or metadata change was asked, an output keeps the format of what it
    /// is copied from: a HEIC without an edit stays HEIC, and so does Apple's HEIC render of an
    /// edit that `policy` takes it for (read here, since the output's name depends on it).
    struct OwnFormat {
        var policy: AppleRenderPolicy
        var editSource: EditSource
        var exactEffects: Set<PhotoEffect>
        /// `--xmp-dir`: an edit may be there, so no photo is known to be unedited before it is read.
        var xmpDir: String?

        /// The extension `found`'s output keeps, and Apple's render chosen for it; nil for the
        /// requested format's.
        func kept(for found: FoundPhoto) -> (ext: String, render: AppleRenderChoice?)? {
            guard let original = found.original else { return nil }
            if let render = found.appleRender, let edit = found.edit, Self.isHEIF(render) {
                let choice: AppleRenderChoice?
                do {
                    choice = policy.choice(for: try editSource.load(editFile: edit).chain, exactEffects: exactEffects)
                } catch where error.kind == .unsupported && policy != .never {
                    choice = AppleRenderChoice(reason: .cannotReplay, detail: BatchFiles.oneLine(error.problem))
                } catch {
                    choice = nil
                }
                return choice.map { ("heic", $0) }
            }
            guard found.edit == nil, xmpDir == nil, Self.isHEIF(original),
                  !XMPSidecarLayout.candidates(forImage: original).contains(where: FileManager.default.fileExists(atPath:))
            else { return nil }
            return ("heic", nil)
        }

        static func isHEIF(_ path: String) -> Bool { ["heic", "heif"].contains((path as NSString).pathExtension.lowercased()) }
    }

    static func collect(_ inputs: [String], out: String, format: ImageFormat, ownFormat: OwnFormat? = nil,
                        videos: VideoPolicy = .copy, includeTrashed: Bool = false) -> BatchCollection {
        var collection = BatchCollection(PhotoWalker(includeTrashed: includeTrashed, excluding: [out]).walk(inputs), videos: videos)

        // Outputs: DIR/relative with the format's extension; two photos never share one.
        var outDir = out
        while outDir.count > 1, outDir.hasSuffix("/") { outDir.removeLast() }
        var owners: [String: String] = [:]
        for index in collection.items.indices where collection.items[index].failure == nil {
            let stem = (collection.items[index].relative as NSString).deletingPathExtension
            var ext = format.fileExtension
            if collection.items[index].file != nil {
                ext = (collection.items[index].relative as NSString).pathExtension.lowercased()   // copied: its own
            } else if let ownFormat, let found = collection.items[index].found, let kept = ownFormat.kept(for: found) {
                (ext, collection.items[index].plannedAppleRender) = (kept.ext, kept.render)
            }
            let output = (outDir == "/" ? "/" : outDir + "/") + stem + "." + ext
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

