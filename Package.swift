// swift-tools-version:6.0
// The module graph follows the data flow, and no module imports a later one:
// Manifest → Checklist → HealthStore → Summary → Report → SiteBuild → SiteServer → healthaudit (CLI).
import PackageDescription

let package = Package(
    name: "HealthAudit",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "healthaudit", targets: ["healthaudit"]),
        .executable(name: "healthaudit-fuzz", targets: ["healthaudit-fuzz"]),
        .executable(name: "healthaudit-bench", targets: ["healthaudit-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // libcmark through pkg-config: Debian's and Ubuntu's libcmark-dev, Homebrew's cmark.
        .systemLibrary(
            name: "CCmark",
            path: "Sources/CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        // 1. Reading what an app declares: config, Info.plist, entitlements, strings, source files.
        // Tuist manifests are Swift: swift-syntax reads them (never runs them).
        .target(name: "Manifest", dependencies: [
            .product(name: "Yams", package: "Yams"),
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftSyntax", package: "swift-syntax"),
        ]),
        // 2. Rules over manifests and Swift sources, answers to the review questions.
        .target(name: "Checklist", dependencies: [
            "Manifest",
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftSyntax", package: "swift-syntax"),
        ]),
        // 3. The simulated HealthKit store (permission semantics, queries, generated data).
        .target(name: "HealthStore", dependencies: ["Manifest"]),
        // 4. Daily summaries as each app sees them through the store.
        .target(name: "Summary", dependencies: ["Manifest", "Checklist", "HealthStore"]),
        // 5. Markdown, libcmark, Mustache templates, page models, machine outputs. The default
        // Templates/ are compiled in by the plugin, so a copied binary needs no folder beside it.
        .target(name: "Report", dependencies: [
            "Manifest", "Checklist", "HealthStore", "Summary", "CCmark",
            .product(name: "Mustache", package: "swift-mustache"),
        ], plugins: ["EmbedTemplatesPlugin"]),
        .executableTarget(name: "EmbedTemplates"),
        .plugin(name: "EmbedTemplatesPlugin", capability: .buildTool(), dependencies: ["EmbedTemplates"], path: "Sources/EmbedTemplatesPlugin"),
        // 6. The build pipeline: steps, diagnostics, atomic output.
        .target(name: "SiteBuild", dependencies: ["Manifest", "Checklist", "Summary", "Report"]),
        // 7. `healthaudit serve`: HTTP on loopback (its own small HTTP/1.1 layer on POSIX sockets,
        // with limits on connections, time and sizes), change watching, live reload.
        .target(name: "SiteServer", dependencies: ["Manifest", "SiteBuild"]),
        .executableTarget(name: "healthaudit", dependencies: [
            "Manifest", "Checklist", "HealthStore", "Summary", "Report", "SiteBuild",
            "SiteServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Mutation fuzzer over the readers of untrusted input (bench/fuzz.sh runs it).
        .executableTarget(name: "healthaudit-fuzz", dependencies: [
            "Manifest", "Checklist", "Report", "SiteBuild", "SiteServer",
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftSyntax", package: "swift-syntax"),
        ]),
        // In-process measurements for bench/run.py (Markdown path vs libcmark, store statistics).
        .executableTarget(name: "healthaudit-bench", dependencies: [
            "Manifest", "HealthStore", "Report",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Shared test scaffolding (a temporary copy of Site/, the built CLI, repository paths):
        // test targets cannot import each other, so it is a library only tests depend on.
        .target(name: "TestSupport", dependencies: ["Manifest", "Report", "SiteBuild"], path: "Tests/TestSupport"),
        .testTarget(name: "ManifestTests", dependencies: ["Manifest", "TestSupport", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "ChecklistTests", dependencies: ["Checklist", "Manifest", "TestSupport"]),
        .testTarget(name: "HealthStoreTests", dependencies: ["HealthStore", "Manifest"]),
        .testTarget(name: "SummaryTests", dependencies: ["Summary", "HealthStore", "Manifest"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "Checklist", "Manifest", "SiteBuild", "TestSupport"], resources: [.copy("Schemas")]),
        .testTarget(name: "SiteBuildTests", dependencies: ["SiteBuild", "Report", "Manifest", "TestSupport", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "HardeningTests", dependencies: [
            "Manifest", "Checklist", "Report", "SiteBuild", "TestSupport",
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftSyntax", package: "swift-syntax"),
        ], resources: [.copy("Corpus")]),
        .testTarget(name: "SiteServerTests", dependencies: ["SiteServer", "SiteBuild", "Manifest", "TestSupport"]),
    ]
)
