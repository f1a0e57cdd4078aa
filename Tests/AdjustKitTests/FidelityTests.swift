@testable import AdjustKit
import Foundation
import XCTest

/// `adjust fidelity` as users run it: the three layouts found on the real fixtures
/// (Fixtures/photos-library, Fixtures/apple-renders), comparison in sRGB, the unedited baseline,
/// the JSON fields, the HTML page (rendered by a real headless Chromium) and the exit statuses.
final class FidelityTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-fidelity-layouts")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: CLITests.binary), "build the adjust product first")
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    private var library: String { TestFixtures.path("Fixtures/photos-library/Test-10.15.7.photoslibrary") }
    private var renders: String { TestFixtures.path("Fixtures/apple-renders") }
    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    private func fidelity(_ arguments: [String]) throws -> BinaryRun {
        try BinaryRun.run(CLITests.binary, ["fidelity"] + arguments, in: scratch)
    }

    private func records(_ run: BinaryRun) throws -> (photos: [[String: Any]], summary: [String: Any]) {
        let objects = try run.stdout.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
        }
        let summary = try XCTUnwrap(objects.last?["summary"] as? [String: Any], run.stdout)
        return (Array(objects.dropLast()), summary)
    }

    private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    // MARK: Layout discovery

    func testFindsThePhotosLibraryLayout() throws {
        let found = PhotoDiscovery.find(in: [library])
        XCTAssertTrue(found.allSatisfy { $0.layout == .photosLibrary }, "\(found)")
        let originals = found.compactMap(\.original).map { ($0 as NSString).lastPathComponent }
        XCTAssertEqual(originals.sorted(), [
            "1EB2B765-0765-43BA-A90C-0D0580E6172C.jpeg", "6191423D-8DB8-4D4C-92BE-9BBBA308AAC4.jpeg",
            "7783E8E6-9CAC-40F3-BE22-81FB7051C266.heic",
            "D1D4040D-D141-44E8-93EA-E403D9F63E07.jpeg", "D79B8D77-BFFC-460B-9312-034F2877D35B.jpeg",
            "DC99FBDD-7A52-4100-A5BB-344131646C30.jpeg", "E9BC5C36-7CD1-40A1-A72B-8B8FAC227D51.jpeg",
        ], "every photo of originals/ once, no video, no render or derivative, not the trashed 6FD38366")
        XCTAssertEqual(Set(originals).count, originals.count)
        // Named as the user knows them (the database's original file names), not by UUID.
        XCTAssertEqual(found.first { $0.original?.hasSuffix("7783E8E6-9CAC-40F3-BE22-81FB7051C266.heic") == true }?.relativePath,
                       "IMG_3092.heic")
        let crop = try XCTUnwrap(found.first { $0.original?.hasSuffix("E9BC5C36-7CD1-40A1-A72B-8B8FAC227D51.jpeg") == true })
        XCTAssertEqual(crop.edit, library + "/resources/renders/E/E9BC5C36-7CD1-40A1-A72B-8B8FAC227D51.plist")
        XCTAssertEqual(crop.appleRender, library + "/resources/renders/E/E9BC5C36-7CD1-40A1-A72B-8B8FAC227D51_1_201_a.jpeg")
        let unedited = try XCTUnwrap(found.first { $0.original?.hasSuffix("1EB2B765-0765-43BA-A90C-0D0580E6172C.jpeg") == true })
        XCTAssertNil(unedited.edit)
        XCTAssertNil(unedited.appleRender)
        // The edit whose original was left out: listed once, at the end, with its render.
        let orphan = try XCTUnwrap(found.last)
        XCTAssertNil(orphan.original)
        XCTAssertEqual(orphan.edit, library + "/resources/renders/1/1793FAAB-DE75-4E25-886C-2BD66C780D6A.plist")
        XCTAssertEqual(orphan.appleRender, library + "/resources/renders/1/1793FAAB-DE75-4E25-886C-2BD66C780D6A_1_201_a.jpeg")
        XCTAssertEqual(found.count, 8)

        // A library photo named directly, or a folder inside the library, pairs the same way.
        let direct = PhotoDiscovery.photo(forOriginal: crop.original!)
        XCTAssertEqual(direct.layout, .photosLibrary)
        XCTAssertEqual(direct.edit, crop.edit)
        XCTAssertEqual(direct.appleRender, crop.appleRender)
        let inner = PhotoDiscovery.find(in: [library + "/originals/E"])
        XCTAssertEqual(inner.map(\.edit), [crop.edit])
    }

    func testFindsTheIPhoneBackupLayout() throws {
        let media = renders + "/iphone-backup/Media"
        let found = PhotoDiscovery.find(in: [renders + "/iphone-backup"])
        XCTAssertEqual(found.count, 4, "FullSizeRender.jpg is not an original: \(found)")
        for (photo, number) in zip(found, ["0002", "0004", "0005", "0007"]) {
            XCTAssertEqual(photo.layout, .iPhone)
            XCTAssertEqual(photo.original, media + "/DCIM/100APPLE/IMG_\(number).JPG")
            let adjustments = media + "/PhotoData/Mutations/DCIM/100APPLE/IMG_\(number)/Adjustments"
            XCTAssertEqual(photo.edit, adjustments + "/Adjustments.plist")
            XCTAssertEqual(photo.appleRender, adjustments + "/FullSizeRender.jpg")
        }
        // DCIM/100APPLE named directly finds the Mutations folder too.
        XCTAssertEqual(PhotoDiscovery.find(in: [media + "/DCIM/100APPLE"]).map(\.edit), found.map(\.edit))

        // An edit whose original is not in DCIM is listed without one.
        let copy = path("backup")
        try FileManager.default.copyItem(atPath: renders + "/iphone-backup", toPath: copy)
        try FileManager.default.removeItem(atPath: copy + "/Media/DCIM/100APPLE/IMG_0004.JPG")
        let partial = PhotoDiscovery.find(in: [copy])
        XCTAssertEqual(partial.count, 4)
        XCTAssertEqual(partial.last?.original, nil)
        XCTAssertEqual(partial.last?.edit, copy + "/Media/PhotoData/Mutations/DCIM/100APPLE/IMG_0004/Adjustments/Adjustments.plist")
        XCTAssertEqual(partial.last?.layout, .iPhone)
    }

    func testFindsDCIMCopiesAndExports() throws {
        let found = PhotoDiscovery.find(in: [renders + "/export-macos13", renders + "/photos4-export", renders + "/portrait-heic"])
        XCTAssertTrue(found.allSatisfy { $0.layout == .sidecar }, "\(found)")
        XCTAssertEqual(found.map { ($0.original.map { ($0 as NSString).lastPathComponent }) },
                       ["IMG_1994.JPG", "IMG_3092.heic", "IMG_3582.HEIC"], "IMG_E files are renders, not originals")
        XCTAssertEqual(found.map { $0.edit.map { ($0 as NSString).lastPathComponent } }, ["IMG_1994.AAE", "IMG_3092.AAE", "IMG_3582.AAE"],
                       "the user's edit before the capture-time IMG_O edit")
        XCTAssertEqual(found.map { $0.appleRender.map { ($0 as NSString).lastPathComponent } },
                       ["IMG_E1994.jpeg", "IMG_E3092.jpeg", "IMG_E3582.heic"])

        // Any case, and the capture-time IMG_O name when it is the only edit.
        for name in ["img_0001.jpg", "IMG_O0001.aae", "img_e0001.JPEG"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: path(name)))
        }
        let lower = PhotoDiscovery.find(in: [scratch.path])
        XCTAssertEqual(lower.count, 1)
        XCTAssertEqual(lower[0].original, path("img_0001.jpg"))
        XCTAssertEqual(lower[0].edit.map { ($0 as NSString).lastPathComponent }, "IMG_O0001.aae")
        XCTAssertEqual(lower[0].appleRender, path("img_e0001.JPEG"))
    }

    // MARK: Colour management

    /// A Display P3 profile, as Apple embeds it in its renders.
    private func displayP3() throws -> ColourProfile {
        let profile = ColourProfile(jpegHeader: try TestFixtures.bytes(
            renders + "/export-macos13/IMG_E1994.jpeg"))
        XCTAssertEqual(profile.description, "Display P3")
        return profile
    }

    func testUntaggedImagesAreSRGBAndLeftAlone() throws {
        let untagged = ColourProfile(jpegHeader: try TestFixtures.bytes(TestFixtures.image("Landscape_1.jpg")))
        XCTAssertEqual(untagged, .untagged)
        XCTAssertEqual(untagged.description, "untagged (sRGB)")
        let image = try ImageComparator.load(TestFixtures.image("Landscape_1.jpg")).image
        var converted = image
        try SRGBConversion.convert(&converted, from: untagged)
        XCTAssertEqual(converted, image)
    }

    func testAP3TaggedImageMatchesItsSRGBConversion() throws {
        // The original: a Display P3 JPEG (Apple's 2047×1365 render of the tulips). Apple's
        // render: the same pixels converted to sRGB, untagged. Compared as stored they differ
        // (P3 values read as sRGB); in sRGB they match.
        let source = library + "/resources/renders/6/6191423D-8DB8-4D4C-92BE-9BBBA308AAC4_1_201_a.jpeg"
        let p3 = try displayP3()
        XCTAssertEqual(ColourProfile(jpegHeader: try TestFixtures.bytes(source)).description, "Display P3")
        let stored = try ImageComparator.load(source).image
        var srgb = stored
        try SRGBConversion.convert(&srgb, from: p3)
        XCTAssertLessThan(try ImageComparator.compare(srgb, stored).psnr, 35, "Display P3 to sRGB changes a colour photo's values")

        try FileManager.default.copyItem(atPath: source, toPath: path("IMG_0001.JPG"))
        try Data(AAEBuilder.aae([], masterWidth: 2047, masterHeight: 1365)).write(to: URL(fileURLWithPath: path("IMG_0001.AAE")))
        try Data(try JPEGEncoder.encode(srgb, quality: 98)).write(to: URL(fileURLWithPath: path("IMG_E0001.JPG")))

        let run = try fidelity([scratch.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try XCTUnwrap(try records(run).photos.first)
        XCTAssertEqual(record["status"] as? String, "ok", "\(record)")
        XCTAssertEqual(record["colour"] as? [String: String], ["ours": "Display P3", "apple": "untagged (sRGB)"])
        let psnr = try XCTUnwrap(number(record["psnr"]), "\(record)")
        XCTAssertGreaterThan(psnr, 40, "a P3 image against its own sRGB conversion")
        let asStored = try ImageComparator.compare(stored, try ImageComparator.load(path("IMG_E0001.JPG")).image).psnr
        XCTAssertLessThan(asStored, psnr - 5, "without colour management the same files compare worse")
        XCTAssertGreaterThan(try XCTUnwrap(number(record["ncc"])), 0.999)
    }

    // MARK: The unedited baseline

    func testUneditedPSNRIsMeasuredOnTheGeometryOnlyRender() throws {
        // A crop and a black-and-white conversion; "Apple's render" is the crop alone. The
        // unedited render (the crop, no colour) then matches it, the edited one does not.
        let original = path("IMG_0001.JPG"), aae = path("IMG_0001.AAE")
        try FileManager.default.copyItem(atPath: TestFixtures.image("Landscape_1.jpg"), toPath: original)
        try Data(AAEBuilder.aae([
            AAEBuilder.adjustment("Crop", settings: #"{"xOrigin":300,"yOrigin":200,"width":1200,"height":700,"straightenAngle":0}"#),
            AAEBuilder.adjustment("SmartBlackAndWhite", settings: #"{"inputBlackAndWhite":0.3}"#),
        ], masterWidth: 1800, masterHeight: 1200)).write(to: URL(fileURLWithPath: aae))
        let photo = try PhotoEdit(imagePath: original, editPath: aae)
        let geometry = try photo.geometryOnly()
        XCTAssertEqual(geometry.edit.chain.steps.map(\.isGeometry), [true], "only the crop is left")
        XCTAssertEqual(geometry.plan.outputSize, photo.plan.outputSize)
        try photo.write(try geometry.render().encoded(as: .jpeg, quality: 95), to: path("IMG_E0001.JPG"))

        let run = try fidelity([scratch.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try XCTUnwrap(try records(run).photos.first)
        XCTAssertEqual(record["adjustments"] as? [String], ["Crop", "SmartBlackAndWhite"])
        XCTAssertEqual(record["uneditedSize"] as? [Int], [1200, 700])
        let unedited = try XCTUnwrap(number(record["uneditedPSNR"]), "\(record)")
        let psnr = try XCTUnwrap(number(record["psnr"]), "\(record)")
        XCTAssertGreaterThan(unedited, 38, "the geometry-only render is Apple's render here")
        XCTAssertLessThan(psnr, unedited - 10)
        XCTAssertEqual(try XCTUnwrap(number(record["gain"])), psnr - unedited, accuracy: 0.001)
    }

    // MARK: JSON, text, exit statuses

    func testJSONFieldsOnThePhotosLibrary() throws {
        let run = try fidelity([library, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "adjust: 8 photos: 4 compared, 0 without Apple's render, 2 without an edit, "
                       + "1 without the original, 1 in another format, 0 failed\n")
        let (photos, summary) = try records(run)
        // Keyed by the UUID's first 8 digits (the original's, else the edit's); the trashed 6FD38366 left out.
        var byUUID: [String: [String: Any]] = [:]
        for photo in photos {
            let file = (photo["original"] as? String) ?? (photo["edit"] as? String) ?? ""
            byUUID[String((file as NSString).lastPathComponent.prefix(8))] = photo
        }
        XCTAssertEqual(byUUID.mapValues { $0["status"] as? String }, [
            "1EB2B765": "no-edit", "D79B8D77": "no-edit", "6191423D": "ok", "7783E8E6": "ok", "D1D4040D": "ok",
            "E9BC5C36": "ok", "DC99FBDD": "other-format", "1793FAAB": "no-original",
        ])
        XCTAssertEqual(photos.last?["status"] as? String, "no-original", "the edit without its original last")
        XCTAssertTrue(photos.allSatisfy { $0["layout"] as? String == "photos-library" })
        XCTAssertEqual(byUUID["E9BC5C36"]?["name"] as? String, "wedding.jpg", "the user's name beside the path (issue 29)")
        let crop = try XCTUnwrap(byUUID["E9BC5C36"])
        XCTAssertEqual(crop["adjustments"] as? [String], ["Crop"])
        XCTAssertEqual(crop["notReplayed"] as? [String], [])
        XCTAssertEqual((crop["size"] as? [String: Any])?["match"] as? Bool, true)
        XCTAssertEqual(crop["colour"] as? [String: String], ["ours": "sRGB IEC61966-2.1", "apple": "Display P3"])
        XCTAssertGreaterThan(try XCTUnwrap(number(crop["psnr"])), 40, "a crop alone, compared in sRGB")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(number(crop["ncc"])), 0.999)
        XCTAssertEqual(crop["uneditedSize"] as? [Int], [1526, 1325])
        let heic = try XCTUnwrap(byUUID["7783E8E6"])
        XCTAssertEqual(heic["adjustments"] as? [String], ["SmartTone"])
        XCTAssertEqual(try XCTUnwrap(number(heic["gain"])),
                       try XCTUnwrap(number(heic["psnr"])) - XCTUnwrap(number(heic["uneditedPSNR"])), accuracy: 0.001)
        XCTAssertEqual((byUUID["DC99FBDD"]?["note"] as? String)?.contains("com.apple.Photos.externalEdit"), true, "\(photos)")

        XCTAssertEqual(summary["compared"] as? Int, 4)
        XCTAssertEqual(summary["otherFormat"] as? Int, 1)
        let compared = photos.filter { $0["status"] as? String == "ok" }
        let meanPSNR = compared.compactMap { number($0["psnr"]) }.reduce(0, +) / 4
        XCTAssertEqual(try XCTUnwrap(number(summary["meanPSNR"])), meanPSNR, accuracy: 0.001)
        XCTAssertNotNil(number(summary["meanUneditedPSNR"]))
        XCTAssertNotNil(number(summary["meanGain"]))
        XCTAssertEqual(try XCTUnwrap(number(summary["minNCC"])), compared.compactMap { number($0["ncc"]) }.min()!, accuracy: 1e-6)
        XCTAssertTrue(summary["html"] is NSNull)

        // The text form ends with the summary line.
        let text = try fidelity([library + "/originals/E"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].contains("  ok  size 1526×1325 = Apple's  shift "), text.stdout)
        XCTAssertTrue(lines[0].contains("  unedited "), text.stdout)
        XCTAssertTrue(lines[1].hasPrefix("    photos-library  adjustments: Crop  colour: ours sRGB IEC61966-2.1, Apple's Display P3"), text.stdout)
        XCTAssertTrue(try XCTUnwrap(lines.last).hasPrefix("summary  1 compared  0 worse  mean PSNR "), text.stdout)
        XCTAssertTrue(try XCTUnwrap(lines.last).contains("min NCC 0.99"), text.stdout)
    }

    func testExitStatuses() throws {
        XCTAssertEqual(try fidelity([]).status, 64)
        XCTAssertEqual(try fidelity([library, "-j", "0"]).status, 64)
        let missing = try fidelity([path("nowhere")])
        XCTAssertEqual(missing.status, 65)
        XCTAssertTrue(missing.stderr.hasPrefix("adjust: error: \(path("nowhere")): no such file or folder\n"), missing.stderr)
        // The page's folder is checked before any work: one line naming the file, no file left.
        let page = path("no-such-folder/report.html")
        let unwritable = try fidelity([library, "--html", page])
        XCTAssertEqual(unwritable.status, 73, unwritable.stderr)
        XCTAssertEqual(unwritable.stderr, "adjust: error: \(page): its folder does not exist\n")
        XCTAssertEqual(unwritable.stdout, "")
        XCTAssertEqual(try fidelity([library, "--html", scratch.path]).status, 73, "a folder is not a page")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [])
    }

    // MARK: The HTML page

    /// `chromium` on the PATH: the tests need Debian's `chromium` package.
    private func chromium() throws -> String {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        // A thrown error fails the test (it is not a skip): the page must be checked in a browser.
        throw ChromiumMissing()
    }

    private struct ChromiumMissing: Error, CustomStringConvertible {
        var description: String { "chromium is not installed: apt-get install -y chromium (the HTML report test needs a real browser)" }
    }

    func testHTMLPageIsSelfContainedAndRendersInChromium() throws {
        let browser = try chromium()
        let page = path("report.html")
        let run = try fidelity([library, renders + "/export-macos13", "--html", page, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try records(run).summary["html"] as? String, page)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["report.html"], "no temporary file left")
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.hasSuffix("</html>\n"))
        XCTAssertTrue(html.contains("amplified ×4"), "the page says the difference is amplified")
        XCTAssertTrue(html.contains("<div class=\"summary\""))
        XCTAssertLessThan(html.range(of: "mean PSNR")!.lowerBound, html.range(of: "IMG_1994.JPG")!.lowerBound, "the summary on top")
        // 5 photos compared: ours, Apple's and the difference of each, inline.
        XCTAssertEqual(html.components(separatedBy: "src=\"data:image/jpeg;base64,").count - 1, 15)
        XCTAssertFalse(html.contains("src=\"http"))
        XCTAssertFalse(html.contains("src=\"file:"))
        // Thumbnails are at most 512 px: every image's JPEG stays small.
        for chunk in html.components(separatedBy: "base64,").dropFirst() {
            let base64 = String(chunk.prefix { $0 != "\"" })
            let jpeg = try XCTUnwrap(Data(base64Encoded: base64))
            let size = try JPEGDecoder().decode([UInt8](jpeg)).size
            XCTAssertLessThanOrEqual(max(size.width, size.height), 512, "\(size)")
        }

        let screenshot = path("shot.png")
        let shot = try BinaryRun.run(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                               "--screenshot=\(screenshot)", "--window-size=1200,1600",
                                               URL(fileURLWithPath: page).absoluteString], in: scratch)
        XCTAssertEqual(shot.status, 0, shot.stderr)
        let png = try PNGCodec.decode(try TestFixtures.bytes(screenshot))
        XCTAssertEqual(png.size, PixelSize(width: 1200, height: 1600))
        var colours = Set<UInt32>()
        for i in stride(from: 0, to: png.size.pixelCount, by: 7) {
            colours.insert(UInt32(png.pixels[i * 4]) << 16 | UInt32(png.pixels[i * 4 + 1]) << 8 | UInt32(png.pixels[i * 4 + 2]))
        }
        XCTAssertGreaterThan(colours.count, 1000, "the page shows photos, not a blank or single-colour screen")
    }
}
