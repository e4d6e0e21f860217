// swift-tools-version:6.0
import PackageDescription

// lookd: look and localization resolution for the pingfront in-app chat.
// No outside Swift packages: the toolchain plus C libraries from Debian's apt.
let package = Package(
    name: "lookd",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "LookResolver", targets: ["LookResolver"]),
        .library(name: "Strings", targets: ["Strings"]),
        .library(name: "StringsFormats", targets: ["StringsFormats"]),
        .executable(name: "lookd", targets: ["lookd"]),
    ],
    targets: [
        // Pure Swift: look model, per-field precedence, colour science, palette. No ICU, no I/O.
        .target(name: "LookResolver"),

        // The only code that includes ICU headers (DESIGN.md Facts 1-2). Its public header has no ICU type.
        .target(
            name: "CICU",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),

        // Catalogs, negotiation, fallback, plurals and MessageFormat, direction, lint. ICU only through CICU.
        .target(name: "Strings", dependencies: ["CICU"]),

        // Apple String Catalogs, Android resources and XLIFF ⇄ lookd catalogs. No I/O beyond reading a catalog folder.
        .target(name: "StringsFormats", dependencies: ["Strings"]),

        // The only code that includes <microhttpd.h>: fixed-argument wrappers for libmicrohttpd's variadic API.
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),

        // The only code that includes <sqlite3.h>.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // The daemon and CLI.
        .executableTarget(name: "lookd", dependencies: ["LookResolver", "Strings", "StringsFormats", "CMicroHTTPD", "CSQLite"]),

        // Benchmarks: an executable, never timed tests. `make bench`.
        .executableTarget(name: "lookd-bench", dependencies: ["LookResolver", "Strings", "ICUAnchor"], path: "Benchmarks/lookd-bench"),

        // Bench-only: raw ICU C++ doing what Strings does, timed in the same run (the `strings` suite's anchor).
        .target(
            name: "ICUAnchor",
            dependencies: ["CICU"],
            path: "Benchmarks/ICUAnchor",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),

        .testTarget(name: "LookResolverTests", dependencies: ["LookResolver"]),
        .testTarget(name: "StringsTests", dependencies: ["Strings"]),
        .testTarget(name: "StringsFormatsTests", dependencies: ["StringsFormats", "Strings"], resources: [.copy("Fixtures")]),

        // Integration tests: start the real `lookd serve` on an ephemeral loopback port and talk HTTP to it.
        .testTarget(name: "LookdTests", dependencies: ["CSQLite"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
