@testable import AdjustKit
import Foundation
import XCTest

/// Issue 29 scope 1: one walk for `batch`, `fidelity`, `render`, `inspect` and importers — a
/// library is its database (not its renders folder), names come from every asset row, an
/// original inside a library or backup finds its edit wherever the command starts.
final class PhotoWalkerTests: XCTestCase {
    private var scratch: URL!
    private static let library = TestFixtures.path("Fixtures/photos-library/Test-10.15.7.photoslibrary")

    override func setUpWithError() throws { scratch = try ScratchFolder.make("walker") }
    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    /// A copy of the fixture library's database and originals only: a library in which nothing
    /// was ever edited has no `resources/` at all, as Photos keeps it.
    private func libraryWithoutRenders() throws -> String {
        let copy = scratch.appendingPathComponent("Plain.photoslibrary").path
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for folder in ["database", "originals"] {
            try FileManager.default.copyItem(atPath: Self.library + "/" + folder, toPath: copy + "/" + folder)
        }
        return copy
    }

    /// The folder part of a path as the walk and the writers take it, one-character names and
    /// trailing slashes included (where Foundation's `deletingLastPathComponent` traps on Linux).
    func testFolderOfAPath() {
        let expected = ["": "", ".": "", "..": "", "a": "", "a/": "", "ab": "", "x.jpg": "", "/": "/", "/a": "/",
                        "/a/": "/", "a/b": "a", "a/b/": "a", "./x.jpg": ".", "/d/e/IMG_1.JPG": "/d/e"]
        for (path, folder) in expected { XCTAssertEqual(LayoutPath.folder(of: path), folder, "folder of '\(path)'") }
    }

    func testALibraryWithoutRendersIsStillALibrary() throws {
        let copy = try libraryWithoutRenders()
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy + "/resources"))
        let walk = PhotoWalker().walk([copy])
        XCTAssertTrue(walk.photos.allSatisfy { $0.layout == .photosLibrary }, "\(walk.photos.map(\.layout))")
        // Named by the database's original file names (an independent reading: the fixture's
        // SOURCES.md lists "Tulips.jpg" for 6191423D and "IMG_3092.heic" for 7783E8E6).
        let names = Dictionary(uniqueKeysWithValues: walk.photos.compactMap { photo in
            photo.original.map { (String(($0 as NSString).lastPathComponent.prefix(8)), photo.relativePath) }
        })
        XCTAssertEqual(names["6191423D"], "Tulips.jpeg")
        XCTAssertEqual(names["7783E8E6"], "IMG_3092.heic")
        XCTAssertNil(names["6FD38366"], "in the trash")
        XCTAssertFalse(walk.photos.contains { $0.relativePath.contains("originals/") }, "never walked as a plain folder")
        XCTAssertEqual(walk.files.map(\.relativePath), ["Jellyfish1.mp4"], "the video comes out under its name")
        XCTAssertFalse(walk.missing.isEmpty, "the trimmed fixture lists assets whose originals are not here")
        XCTAssertTrue(walk.missing.contains { $0.uuid.hasPrefix("1793FAAB") && $0.name == "Frítest.jpg" && $0.edited })
    }

    /// A later run never renames an earlier output: an original downloaded since (an asset that
    /// was missing) takes a name of its own and leaves every other name as it was.
    func testNamesComeFromEveryAssetRowSoADownloadRenamesNothing() throws {
        let copy = try libraryWithoutRenders()
        func names() -> [String: String] {
            Dictionary(uniqueKeysWithValues: PhotoWalker().walk([copy]).photos.compactMap { photo in
                photo.original.map { (($0 as NSString).lastPathComponent, photo.relativePath) }
            })
        }
        let before = names()
        XCTAssertEqual(before["D1D4040D-D141-44E8-93EA-E403D9F63E07.jpeg"], "Frítest (D1D4040D).jpeg",
                       "three older assets share the name; the plain one belongs to one not downloaded")
        try FileManager.default.createDirectory(atPath: copy + "/originals/1", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"),
                                         toPath: copy + "/originals/1/1793FAAB-DE75-4E25-886C-2BD66C780D6A.jpeg")
        let after = names()
        for (file, name) in before { XCTAssertEqual(after[file], name, file) }
        let downloaded = try XCTUnwrap(after["1793FAAB-DE75-4E25-886C-2BD66C780D6A.jpeg"])
        XCTAssertTrue(downloaded.hasPrefix("Frítest"), downloaded)
        XCTAssertFalse(before.values.contains(downloaded))
    }

    /// `inspect` and `render` on an original inside a library or a backup find the edit the
    /// layout keeps away from it, as `batch` does.
    func testInspectAndRenderFindTheLayoutsEdit() throws {
        let original = Self.library + "/originals/E/E9BC5C36-7CD1-40A1-A72B-8B8FAC227D51.jpeg"
        let inspect = try BinaryRun.run(BatchTests.binary, ["inspect", original])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.hasPrefix("edit: AAE edit \(Self.library)/resources/renders/E/E9BC5C36-7CD1-40A1-A72B-8B8FAC227D51.plist"),
                      inspect.stdout)
        XCTAssertTrue(inspect.stdout.contains("Crop Rectangle=[0 1 1526 1325]"), inspect.stdout)

        let backup = TestFixtures.path("Fixtures/apple-renders/iphone-backup/Media")
        let photo = backup + "/DCIM/100APPLE/IMG_0002.JPG"
        let out = scratch.appendingPathComponent("IMG_0002.jpg").path
        let render = try BinaryRun.run(BatchTests.binary, ["render", photo, "-o", out])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertFalse(render.stderr.contains("no adjustments found"), render.stderr)
        let shown = try BinaryRun.run(BatchTests.binary, ["inspect", photo, "--json"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["source"] as? [String: Any])?["path"] as? String,
                       backup + "/PhotoData/Mutations/DCIM/100APPLE/IMG_0002/Adjustments/Adjustments.plist", shown.stdout)
        // The user flipped it (orientation 2): the output is the mirror of the original.
        let mirrored = try BinaryRun.run(BatchTests.binary, ["compare", out, photo, "--min-psnr", "40"])
        XCTAssertNotEqual(mirrored.status, 0, "a flipped render differs from the original")
    }

    /// A DCIM copy of a Live Photo: the motion goes with its still under the same stem, the
    /// edited motion (`IMG_E….MOV`) is Apple's render of it, and neither is a photo of its own.
    func testALivePhotoInADCIMCopyKeepsItsMotionBesideItsStill() throws {
        let folder = scratch.appendingPathComponent("DCIM").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.path("Fixtures/heic/cheers-1440x960.heic"), toPath: folder + "/IMG_4580.HEIC")
        for (name, text) in [("IMG_4580.MOV", "motion"), ("IMG_E4580.MOV", "edited motion"), ("IMG_0001.MOV", "a video")] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let walk = PhotoWalker().walk([folder])
        XCTAssertEqual(walk.photos.map(\.relativePath), ["IMG_4580.HEIC"])
        XCTAssertEqual(walk.photos.first?.motion, folder + "/IMG_4580.MOV")
        XCTAssertEqual(walk.photos.first?.editedMotion, folder + "/IMG_E4580.MOV")
        XCTAssertEqual(walk.files.map(\.relativePath), ["IMG_0001.MOV", "IMG_4580.MOV"])
        XCTAssertEqual(walk.files.map(\.kind), [.video, .motion])
        XCTAssertEqual(walk.files.last?.appleRender, folder + "/IMG_E4580.MOV")
        XCTAssertEqual(walk.counts.appleRenders, 1, "IMG_E4580.MOV is counted, never a file of its own")
    }

    /// The output folder is never walked, whatever path names it.
    func testTheExcludedFolderIsNeverWalked() throws {
        let input = scratch.appendingPathComponent("in").path, out = input + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: input + "/a.jpg")
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: out + "/b.jpg")
        XCTAssertEqual(PhotoWalker(excluding: [input + "/./out/"]).walk([input]).photos.map(\.relativePath), ["a.jpg"])
        XCTAssertEqual(PhotoWalker().walk([input]).photos.map(\.relativePath), ["a.jpg", "out/b.jpg"])
    }
}
