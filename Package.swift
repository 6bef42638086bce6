// swift-tools-version: 6.0
import PackageDescription

// Linux only: the build and the tests run on Debian. The code uses glibc (renameat2, mallopt,
// /proc/self/exe), so the package claims no macOS platform.
let package = Package(
    name: "galleryssg",
    products: [
        .executable(name: "galleryssg", targets: ["galleryssg"]),
        .library(name: "GalleryPipeline", targets: ["GalleryPipeline"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20")
    ],
    targets: [
        // One system-library target per C library; each is imported by exactly one Swift file.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // Not `CZlib`: ZIPFoundation's own zlib module has that name, and two modules may not share one.
        .systemLibrary(name: "CLibZ", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CExempi", pkgConfig: "exempi-2.0", providers: [.apt(["libexempi-dev"])]),
        .systemLibrary(name: "CIPTC", pkgConfig: "libiptcdata", providers: [.apt(["libiptcdata0-dev"])]),
        // Camera raw files (DNG, CR2, CR3, NEF, ARW, ORF, RAF, RW2, PEF); the thread-safe build.
        .systemLibrary(name: "CLibRaw", pkgConfig: "libraw_r", providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CRename"),
        // The commit `galleryssg --version` names: "" unless Scripts/package.sh links in its own.
        .target(name: "CBuildInfo"),
        // libjpeg's classic API, a few rows at a time (GalleryImaging/Codecs/JPEGRows.swift): a large photo is
        // resampled as it decodes, never held whole. C, because libjpeg's errors longjmp.
        .target(name: "CJPEGRows", linkerSettings: [.linkedLibrary("jpeg")]),

        // Regenerates Sources/GalleryRender/Theme/DefaultTheme+Files.swift from Templates/
        // (Scripts/embed-theme.sh); a test fails when the two drift apart.
        .executableTarget(name: "EmbedTheme"),

        // The stages, one target each, so the compiler holds the arrows of docs/ARCHITECTURE.md:
        // a target imports only the targets drawn below it, and only GalleryPipeline knows the stages' order.
        .target(
            name: "GalleryModel",
            dependencies: ["CLibZ", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "GalleryConfig", dependencies: ["GalleryModel"]),
        // Encrypted albums' format (docs/protected-albums.md): key derivation, key files, chunked AES-GCM, opaque
        // names. Below every stage, so that any may use it; it knows nothing of photos or sites.
        .target(
            name: "GalleryVault",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto")
            ]
        ),
        // What every stage that keeps or names files shares: cache keys and input digests, file stamps,
        // spill files and atomic writes. Below Fetch, Imaging, Render and Store, so none of those
        // needs the state database to name what it makes.
        .target(
            name: "GalleryKeys",
            dependencies: ["GalleryModel", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // What files say about themselves (EXIF, XMP and IPTC-IIM, read by the Metadata Working Group's
        // rules), what sidecar files say, and the rule that merges them with the source's fields
        // (`PhotoMetadata`). Below Imaging, Providers and Pipeline, so each reads metadata the same way.
        .target(
            name: "GalleryMetadata",
            dependencies: [
                "GalleryModel", "CExif", "CExempi", "CIPTC",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Yams", package: "Yams")
            ]
        ),
        .target(
            name: "GalleryStore",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryKeys", .product(name: "GRDB", package: "GRDB.swift"),
                // Locks are NIOLockedValueBox (pthread mutexes), which ThreadSanitizer sees; the standard
                // library's Mutex takes a contended lock in code TSan cannot see (docs/contributing.md, "ThreadSanitizer").
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]
        ),
        .target(
            name: "GalleryFetch",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryKeys",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]
        ),
        .target(
            name: "GalleryImaging",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryMetadata",
                "CTurboJPEG", "CJPEGRows", "CPNG", "CLCMS2", "CWebP", "CHeif", "CTIFF", "CGIF", "CLibRaw"
            ]
        ),
        .target(
            name: "GalleryProviders", dependencies: ["GalleryModel", "GalleryConfig", "GalleryFetch", "GalleryMetadata"]
        ),
        .target(
            name: "GalleryRender",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryKeys", "CCmark",
                .product(name: "Mustache", package: "swift-mustache"), .product(name: "Crypto", package: "swift-crypto")
            ]
        ),
        .target(
            name: "GalleryOutput",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryStore", "GalleryFetch",
                .target(name: "CRename", condition: .when(platforms: [.linux])),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // Album zips (AlbumZipWriter.swift, the one file that imports it): stored entries, Zip64.
                .product(name: "ZIPFoundation", package: "ZIPFoundation")
            ]
        ),
        .target(
            name: "GalleryPipeline",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryMetadata", "GalleryStore", "GalleryFetch",
                "GalleryImaging", "GalleryProviders", "GalleryRender", "GalleryOutput", "GalleryVault",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]
        ),
        // The preview server (`galleryssg serve`), kept out of the pipeline so building needs no HTTP server.
        .target(
            name: "GalleryServe",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryPipeline",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio")
            ]
        ),
        .executableTarget(
            name: "galleryssg",
            dependencies: [
                "GalleryPipeline", "GalleryServe", "CBuildInfo",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            // The command line sees only the stages' `public` API, so `public` is exactly what it uses
            // (and what GalleryServe uses); everything else between the targets is `package`.
            packageAccess: false
        ),
        // Coverage-guided fuzzing (docs/contributing.md, "Fuzzing"; Scripts/fuzz.sh): one harness per parser of untrusted
        // bytes, and the libFuzzer driver, which a normal build builds as a replay tool.
        .target(
            name: "GalleryFuzzing",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryMetadata", "GalleryImaging", "GalleryProviders",
                "GalleryOutput"
            ],
            path: "Fuzz/Harnesses"
        ),
        .executableTarget(name: "galleryfuzz", dependencies: ["GalleryFuzzing"], path: "Fuzz/Driver"),
        .testTarget(
            name: "GalleryTests",
            dependencies: [
                "GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryMetadata", "GalleryStore", "GalleryFetch",
                "GalleryImaging", "GalleryProviders", "GalleryRender", "GalleryOutput", "GalleryPipeline",
                "GalleryServe",
                "GalleryFuzzing", "GalleryVault",
                // Not imported (ArchitectureTests lets both through): CMalloc as the CLI has it, and the CLI
                // itself, listed so `swift test` builds the CLI that the kill -9 test runs as a subprocess.
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
                "galleryssg",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // Only for the transport errors a deploy's retries classify (S3RetryPolicyTests).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                // Only to turn a state database into an older version's in a migration test.
                .product(name: "GRDB", package: "GRDB.swift"),
                // Digests to check deploys, zips and cache keys against (SigV4Tests, AlbumZipWriterTests).
                .product(name: "Crypto", package: "swift-crypto"),
                // To hold the page models' answers to templates against the library's own (PageModelTests).
                .product(name: "Mustache", package: "swift-mustache")
            ]
        )
    ]
)
