// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "adjust",
    products: [
        .library(name: "AdjustKit", targets: ["AdjustKit"]),
        .library(name: "XMPParse", targets: ["XMPParse"]),
        .executable(name: "adjust", targets: ["adjust"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries (Debian: libxml2-dev libturbojpeg0-dev libexif-dev libpng-dev).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif",
                       providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),

        .target(name: "XMPParse", dependencies: ["CLibXML2"]),
        .target(name: "AdjustKit", dependencies: ["XMPParse", "CTurboJPEG", "CExif", "CPNG"]),
        .executableTarget(name: "adjust", dependencies: [
            "AdjustKit",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "XMPParseTests", dependencies: ["XMPParse"],
                    path: "Tests/XMPParseTests"),
        .testTarget(name: "AdjustKitTests", dependencies: ["AdjustKit", "XMPParse", "adjust"],
                    path: "Tests/AdjustKitTests"),
    ],
    swiftLanguageModes: [.v5]
)
