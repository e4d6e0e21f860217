// swift-tools-version:6.0
import PackageDescription

// lookd: look and localization resolution for the pingfront in-app chat.
// No outside Swift packages: the toolchain plus C libraries from Debian's apt.
let package = Package(
    name: "lookd",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "StableJSON", targets: ["StableJSON"]),
        .library(name: "LookResolver", targets: ["LookResolver"]),
        .library(name: "Strings", targets: ["Strings"]),
        .library(name: "StringsFormats", targets: ["StringsFormats"]),
        .library(name: "StringsLint", targets: ["StringsLint"]),
        .library(name: "LookdServer", targets: ["LookdServer"]),
        .executable(name: "lookd", targets: ["lookd"]),
    ],
    targets: [
        // Pure Swift: look model, per-field precedence, colour science, palette. No ICU, no I/O.
        .target(name: "LookResolver", dependencies: ["StableJSON"]),

        // Pure Swift, no Foundation: the strict RFC 8259 reader, JSONValue with exact numbers, the one writer.
        .target(name: "StableJSON"),

        // The only code that includes ICU headers (docs/design.md#icu-and-foundation-in-one-process). Its public header has no ICU type.
        .target(
            name: "CICU",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),

        // The runtime: catalogs, negotiation, fallback, plurals and MessageFormat, direction. ICU only through CICU.
        .target(name: "Strings", dependencies: ["CICU", "StableJSON"]),

        // Apple String Catalogs, Android resources and XLIFF ⇄ lookd catalogs. No I/O beyond reading files it is given.
        .target(name: "StringsFormats", dependencies: ["Strings", "StableJSON"]),

        // The translation linter and its reporters (text, JSON, GitHub, SARIF), over Strings; its ICU pattern pass is in CICU.
        // Other formats are read through StringsFormats.
        .target(name: "StringsLint", dependencies: ["Strings", "StringsFormats", "CICU", "StableJSON"]),

        // lookd's own HTTP/1.1 engine in C (docs/http.md): epoll loops, the strict request parser, limits, deadlines,
        // the worker pool. No outside library.
        .target(name: "HTTPEngine"),

        // The only code that includes <sqlite3.h>.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // The only code that includes <libpq-fe.h> (PostgreSQL's client, libpq-dev): opaque connections and results.
        .target(name: "CLibPQ", cSettings: [.unsafeFlags(["-I/usr/include/postgresql"])], linkerSettings: [.linkedLibrary("pq")]),

        // The daemon as a library: HTTP (server, limits, errors at the edge) → routes → services → stores.
        .target(name: "LookdServer", dependencies: ["StableJSON", "LookResolver", "Strings", "StringsLint", "HTTPEngine", "CSQLite", "CLibPQ"]),

        // The CLI: argument parsing and commands, nothing else.
        .executableTarget(name: "lookd", dependencies: ["LookdServer", "StableJSON", "LookResolver", "Strings", "StringsLint", "StringsFormats"]),

        // Benchmarks: an executable, never timed tests. `make bench`.
        .executableTarget(name: "lookd-bench", dependencies: ["LookResolver", "Strings", "StringsLint", "StringsFormats", "ICUAnchor"], path: "Benchmarks/lookd-bench"),

        // Bench-only: raw ICU C++ doing what Strings does, timed in the same run (the `strings` suite's anchor).
        .target(
            name: "ICUAnchor",
            dependencies: ["CICU"],
            path: "Benchmarks/ICUAnchor",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),

        .testTarget(name: "StableJSONTests", dependencies: ["StableJSON"]),
        .testTarget(name: "LookResolverTests", dependencies: ["LookResolver"]),
        .testTarget(name: "StringsTests", dependencies: ["Strings"]),
        .testTarget(name: "StringsLintTests", dependencies: ["StringsLint", "Strings", "StableJSON"]),
        .testTarget(name: "StringsFormatsTests", dependencies: ["StringsFormats", "StringsLint", "Strings", "StableJSON"], resources: [.copy("Fixtures")]),

        // Routes and services in process; a few live-daemon tests for what needs sockets (framing, limits, shutdown, kill -9).
        .testTarget(name: "LookdTests", dependencies: ["LookdServer", "StableJSON", "LookResolver", "Strings", "CSQLite"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
