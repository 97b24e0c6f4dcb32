// swift-tools-version:6.1
import PackageDescription

/// The site generator's dependencies (YAML, TOML, templates, the command
/// line) come with the `Site` trait, on by default. A package that needs
/// only ListDiff (and SequenceRecorder) turns it off, and resolves and builds
/// none of them: `.package(url: …, from: "0.1.0", traits: [])`.
let site: TargetDependencyCondition? = .when(traits: ["Site"])

let package = Package(
    name: "Rowmotion",
    products: [
        .library(name: "ListDiff", targets: ["ListDiff"]),
        // An app's unit tests record the snapshots their data source goes through as a sequence file.
        .library(name: "SequenceRecorder", targets: ["SequenceRecorder"]),
        .executable(name: "rowmotion", targets: ["rowmotion"]),
        .plugin(name: "RowmotionPlugin", targets: ["RowmotionPlugin"]),
        .plugin(name: "RowmotionCheckPlugin", targets: ["RowmotionCheckPlugin"]),
        .plugin(name: "RowmotionDiffPlugin", targets: ["RowmotionDiffPlugin"]),
    ],
    traits: [
        .trait(name: "Site", description: "The site generator, the rowmotion tool and its plugins' dependencies. Off: ListDiff and SequenceRecorder alone."),
        .default(enabledTraits: ["Site"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // The diff engine: no dependencies, not even Foundation.
        .target(name: "ListDiff"),
        // Snapshots to a sequence file, for an app's tests: ListDiff and Foundation only.
        .target(name: "SequenceRecorder", dependencies: ["ListDiff"]),
        // What every part reports through: diagnostics (swiftc's
        // path:line:column form, GitHub annotations, terminal-safe text),
        // source locations, located values, "did you mean" suggestions.
        .target(name: "Diagnostics"),
        // The project's files as a build may touch them: its inputs listed
        // as git would track them (or a revision's tree), read and written
        // without following a link inside the project; file contents by
        // SHA-256; paths as swift-system's `FilePath`s.
        .target(name: "ProjectFiles", dependencies: ["Diagnostics", .product(name: "Crypto", package: "swift-crypto", condition: site),
                                                     .product(name: "SystemPackage", package: "swift-system", condition: site)]),
        // The one build graph: rules, early cutoff, the store file.
        .target(name: "BuildGraph", dependencies: ["ProjectFiles"]),
        // Snapshot sequence files (YAML, JSON) into ListDiff values, with
        // file:line:column diagnostics.
        .target(name: "SnapshotFormat", dependencies: ["ListDiff", "Diagnostics", "ProjectFiles", .product(name: "Yams", package: "Yams", condition: site)]),
        // What the CLI and the site both say about a sequence: the `diff`
        // report (text, JSON, Swift calls), the SVG filmstrip, the one
        // UIKit-rule check over its batches, `check`'s findings.
        .target(name: "Reports", dependencies: ["ListDiff", "Diagnostics", "SnapshotFormat"]),
        // libcmark from Debian's libcmark-dev.
        .systemLibrary(name: "CCMark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]),
        // Markdown pages and examples to a static site: load, render, write.
        .target(
            name: "SiteGenerator",
            dependencies: ["ListDiff", "Diagnostics", "ProjectFiles", "BuildGraph", "SnapshotFormat", "Reports", "CCMark", .product(name: "Mustache", package: "swift-mustache", condition: site),
                           .product(name: "TOMLKit", package: "TOMLKit", condition: site)],
            plugins: ["EmbedTheme"]
        ),
        // templates/ into SiteGenerator's source at build time (the theme's one copy in git).
        .executableTarget(name: "embed-theme"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["embed-theme"]),
        // `rowmotion serve`: the built site over HTTP on loopback, rebuilt as
        // its sources change, with live reload over a WebSocket.
        .target(
            name: "SiteServer",
            dependencies: ["SiteGenerator", "SnapshotFormat", "ProjectFiles", "Diagnostics"]
        ),
        .executableTarget(
            name: "rowmotion",
            dependencies: ["ListDiff", "Diagnostics", "ProjectFiles", "SnapshotFormat", "Reports", "SiteGenerator", "SiteServer",
                           .product(name: "ArgumentParser", package: "swift-argument-parser", condition: site)]
        ),
        // `swift package --allow-writing-to-package-directory rowmotion build` in any package.
        .plugin(
            name: "RowmotionPlugin",
            capability: .command(
                intent: .custom(verb: "rowmotion", description: "Build, check or diff Rowmotion snapshot sequences and sites."),
                permissions: [.writeToPackageDirectory(reason: "rowmotion build writes the site into the package (_site/ by default).")]
            )
        ),
        // The read-only verbs, which need no permission: `swift package rowmotion-check`, `… rowmotion-diff FILE`.
        .plugin(
            name: "RowmotionCheckPlugin",
            capability: .command(intent: .custom(verb: "rowmotion-check", description: "Check Rowmotion snapshot sequences and pages without writing anything."))
        ),
        .plugin(
            name: "RowmotionDiffPlugin",
            capability: .command(intent: .custom(verb: "rowmotion-diff", description: "Print the batches of a Rowmotion snapshot sequence (Swift calls, JSON or SVG)."))
        ),
        .executableTarget(
            name: "rowmotion-bench",
            dependencies: ["ListDiff", "SeededRandom", "ProjectFiles", "SiteGenerator", "SnapshotFormat", "Reports", "CCMark",
                           .product(name: "ArgumentParser", package: "swift-argument-parser", condition: site)],
            path: "Benchmarks/rowmotion-bench"
        ),
        // The seeded generator random tests and benchmark inputs share.
        .target(name: "SeededRandom"),
        .testTarget(name: "ListDiffTests", dependencies: ["ListDiff", "SeededRandom"]),
        .testTarget(name: "BuildGraphTests", dependencies: ["BuildGraph", "SeededRandom"]),
        .testTarget(name: "SnapshotFormatTests", dependencies: ["SnapshotFormat", "ProjectFiles", "Reports", "Diagnostics", "ListDiff", "SeededRandom", "SequenceRecorder", .product(name: "Yams", package: "Yams", condition: site)],
                    exclude: ["Fixtures"]),
        .testTarget(name: "SiteGeneratorTests", dependencies: ["SiteGenerator", "ProjectFiles", "Diagnostics", "SnapshotFormat", "Reports", "SeededRandom", "ListDiff", "SequenceRecorder"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "SiteServerTests", dependencies: ["SiteServer", "SiteGenerator", "ProjectFiles", "Diagnostics"]),
        // The theme's build-time tool: the player's modules bundled into one script.
        .testTarget(name: "EmbedThemeTests", dependencies: ["embed-theme", "SiteGenerator"]),
        // Runs the built `rowmotion` binary end to end.
        .testTarget(name: "RowmotionCLITests", dependencies: ["rowmotion"]),
    ]
)
