// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "adjust",
    products: [
        .library(name: "AdjustKit", targets: ["AdjustKit"]),
        .library(name: "XMPParse", targets: ["XMPParse"]),
        .executable(name: "adjust", targets: ["adjust"]),
        .executable(name: "adjust-importer-example", targets: ["ImporterExample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // SHA-256 for provenance digests (Sources/AdjustKit/Provenance/SHA256.swift).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // System libraries (Debian: libxml2-dev libturbojpeg0-dev libexif-dev libpng-dev liblcms2-dev libheif-dev zlib1g-dev libsqlite3-dev).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif",
                       providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        // Raw DEFLATE of AAE adjustment payloads (Debian: zlib1g-dev).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // Little CMS, for CMYK and YCCK JPEGs through their ICC profile (Debian: liblcms2-dev).
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2",
                       providers: [.apt(["liblcms2-dev"])]),
        // HEIC/HEIF originals (HEVC through libde265).
        // Linked by the tests only (they write HEICs); AdjustKit loads libheif at run time (CHeifLoader).
        .systemLibrary(name: "CHeif", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev"])]),
        // A Photos library's database/Photos.sqlite, read only (PhotosLibraryDatabase; Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // glibc's <malloc.h> (mallopt): what a batch and a render do with freed memory (Sources/adjust/MallocPolicy.swift).
        .systemLibrary(name: "CMalloc"),
        // A prefetch and an unchecked truncation for the rotated sampler (Sources/AdjustKit/Render/InteriorTaps.swift).
        .systemLibrary(name: "CSamplerIntrinsics"),

        // Region decoding and row-streamed encoding through libjpeg's own API (Debian:
        // libjpeg62-turbo-dev); C because libjpeg reports errors by longjmp.
        .target(name: "CJPEGRegion", linkerSettings: [.linkedLibrary("jpeg")]),
        // The processor check of a binary scripts/build-release built for SSE4.2 (the file says why).
        .target(name: "CProcessorCheck", publicHeadersPath: "."),   // no API: a constructor
        // Row-streamed PNG encoding through libpng's own API (Debian: libpng-dev); C for the same
        // reason: libpng reports errors by longjmp.
        .target(name: "CPNGRows", linkerSettings: [.linkedLibrary("png16")]),
        // libheif through dlopen when the first HEIC is read, not at every start (heif_loader.h says why).
        .target(name: "CHeifLoader", linkerSettings: [.linkedLibrary("dl")]),
        // SmartTone's square-root-bound stages, eight pixels at a time with AVX2 where the processor
        // has it (lane_stages.c says why).
        .target(name: "CLaneStages"),

        .target(name: "XMPParse", dependencies: ["CLibXML2"]),
        .target(name: "AdjustKit", dependencies: ["XMPParse", "CTurboJPEG", "CJPEGRegion", "CPNGRows", "CExif", "CPNG", "CZlib", "CLCMS2", "CHeifLoader", "CSQLite", "CSamplerIntrinsics", "CLaneStages",
                                                 .product(name: "Crypto", package: "swift-crypto")]),
        .executableTarget(name: "adjust", dependencies: [
            "AdjustKit", "CMalloc", "CProcessorCheck",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // A runnable example of the library API for importers (README, "Library").
        .executableTarget(name: "ImporterExample", dependencies: ["AdjustKit"], path: "Examples/ImporterExample"),

        .testTarget(name: "XMPParseTests", dependencies: ["XMPParse"],
                    path: "Tests/XMPParseTests"),
        .testTarget(name: "AdjustKitTests", dependencies: ["AdjustKit", "XMPParse", "adjust", "ImporterExample", "CZlib", "CHeif", "CSQLite", "CSamplerIntrinsics", "CLaneStages"],
                    path: "Tests/AdjustKitTests"),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer harnesses (scripts/fuzz), only when ADJUST_FUZZ=1: plain builds never see them.
if Context.environment["ADJUST_FUZZ"] == "1" {
    package.targets += ["FuzzXMP", "FuzzImageHeader", "FuzzAAE", "FuzzHEIFHeader", "FuzzRender"].map {
        .executableTarget(name: $0, dependencies: ["AdjustKit", "XMPParse", "CZlib"], path: "Sources/\($0)")
    }
}
