import AdjustKit
import Foundation

/// Outputs whose original is gone: files in the output folder that carry adjust's provenance,
/// are no output of this batch, and whose recorded original (`Provenance.originalPath`, relative
/// to the output's folder) no longer exists. `--update` reports them; `--prune` removes them.
///
/// Only files with adjust's provenance are ever considered, so nothing a user put in the output
/// folder is touched; an output of a photo outside this batch's inputs stays while its original
/// exists. With `--shard K/N` each shard handles the outputs whose path under the output folder
/// hashes to it, so N shards handle each orphan once.
struct BatchOrphans {
    let out: String
    /// Every output of the whole batch (all shards), as absolute paths.
    let expectedOutputs: Set<String>
    let shard: BatchShard
    /// Every kind of output a batch writes: renders and copies of photos (a HEIC kept HEIC), videos,
    /// Live Photo motion and other pictures copied. Only those with adjust's record are touched.
    let extensions: Set<String> = LayoutNames.photoExtensions.union(LayoutNames.videoExtensions)
        .union(LayoutNames.otherPictureExtensions).union(["png"])

    /// One record per orphan found (orphaned, or pruned when `prune`; failed when it could not be
    /// removed), in path order.
    func sweep(prune: Bool) -> [BatchRecord] {
        var outDir = out
        while outDir.count > 1, outDir.hasSuffix("/") { outDir.removeLast() }
        guard let walker = FileManager.default.enumerator(atPath: outDir) else { return [] }
        var records: [BatchRecord] = []
        var relatives: [String] = []
        while let relative = walker.nextObject() as? String { relatives.append(relative) }
        for relative in relatives.sorted() {
            let name = (relative as NSString).lastPathComponent
            guard !name.hasPrefix("."), extensions.contains((name as NSString).pathExtension.lowercased()),
                  shard.owns(relative) else { continue }
            let path = (outDir == "/" ? "/" : outDir + "/") + relative
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  !expectedOutputs.contains(BatchFiles.absolute(path)),
                  case .recorded(let provenance) = Provenance.recorded(inOutputAt: path) else { continue }
            let folder = (path as NSString).deletingLastPathComponent
            let original = BatchFiles.absolute(folder + "/" + provenance.originalPath)
            guard !FileManager.default.fileExists(atPath: original) else { continue }
            var record = BatchRecord(input: original, output: path, status: prune ? .pruned : .orphaned, totalMs: 0)
            record.reason = "its original is gone"
            if prune, unlink(path) != 0 {
                record.status = .failed
                record.error = "\(path): cannot remove: \(String(cString: strerror(errno)))"
                record.reason = record.error
            } else if prune {
                ProvenanceSidecar.remove(forOutput: path)
                PhotosMetadataSidecar.removeIfWritten(forOutput: path)
            }
            records.append(record)
        }
        return records
    }
}
