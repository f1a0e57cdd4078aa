// An importer's use of AdjustKit, small enough to copy: render every edited photo given on the
// command line to a 1024-px preview beside it, and say what was done.
//
//     swift run adjust-importer-example IMG_0001.JPG IMG_0002.JPG
//
import AdjustKit
import Foundation

var failures = 0
for path in CommandLine.arguments.dropFirst() {
    do {
        // Finds the edit (the JPEG's own aas XMP, else IMG_0001.xmp beside it) and plans the render.
        let photo = try PhotoEdit(imagePath: path, size: .maxSize(1024))
        let steps = photo.edit.chain.steps.map(\.filterName).joined(separator: ", ")
        print("\(path): \(photo.edit.origin); chain: \(steps.isEmpty ? "none" : steps)")

        let rendering = try photo.render()
        for note in rendering.approximations { print("  approximate: \(note)") }

        let output = URL(fileURLWithPath: path).deletingPathExtension().path + "-preview.jpg"
        try photo.write(rendering.encoded(as: .jpeg, quality: 85), to: output)   // keeps EXIF, ICC and XMP
        print("  wrote \(output) (\(rendering.image.size))")
    } catch {
        // FileError's description is one line naming the file and the problem.
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        failures += 1
    }
}
exit(failures == 0 ? 0 : 1)
