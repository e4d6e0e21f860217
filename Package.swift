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
        .library(name: "LookClient", targets: ["LookClient"]),
        .library(name: "Strings", targets: ["Strings"]),
        .library(name: "StringsFormats", targets: ["StringsFormats"]),
        .library(name: "StringsLint", targets: ["StringsLint"]),
        .library(name: "LookdServer", targets: ["LookdServer"]),
        .executable(name: "lookd", targets: ["lookd"]),
    ],
    targets: [
        // Pure Swift: look model, per-field precedence, colour science, palette. No ICU, no I/O.
        .target(name: "LookResolver", dependencies: ["StableJSON", "Locking"]),

        // Pure Swift: the one lock type (a pthread mutex, error-checking in debug builds) wherever threads meet.
        // Builds on Apple platforms and Linux alike (Darwin, Glibc or Musl, each behind `#if canImport`).
        .target(name: "Locking"),

        .target(name: "FNV"),

        // The SDK core's side of the wire (docs/client.md): fetch, ETag revalidation, disk cache, offline, the local merge,
        // change notifications. Foundation (URLSession) and the pure libraries only: it builds for Apple platforms.
        .target(name: "LookClient", dependencies: ["LookResolver", "StableJSON", "FNV", "Locking"]),

        // Pure Swift, no Foundation: the strict RFC 8259 reader, JSONValue with exact numbers, the one writer.
        .target(name: "StableJSON"),

        // Where ICU's headers and libraries are (pkg-config's icu-i18n, which brings icu-uc; Debian's libicu-dev).
        // Only CICU and the bench's ICUAnchor depend on it, and no Swift code imports it (docs/design.md#the-shims-one-c-target-per-c-library).
        .systemLibrary(name: "SystemICU", pkgConfig: "icu-i18n", providers: [.apt(["libicu-dev"])]),

        // The only code that includes ICU headers (docs/design.md#icu-and-foundation-in-one-process). Its public header has no ICU type.
        .target(name: "CICU", dependencies: ["SystemICU"]),

        // The runtime: catalogs, negotiation, fallback, plurals and MessageFormat, direction. ICU only through CICU.
        .target(name: "Strings", dependencies: ["CICU", "StableJSON", "Locking", "FNV"]),

        // Where libxml2's headers and library are (pkg-config's libxml-2.0; Debian's libxml2-dev). Only CXML depends on it.
        .systemLibrary(name: "SystemXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        // The only code that includes libxml2's headers: one call that reads an XML document into a buffer of events.
        .target(name: "CXML", dependencies: ["SystemXML2"]),

        // Apple String Catalogs, Android resources and XLIFF ⇄ lookd catalogs. No I/O beyond reading files it is given.
        // XML is read with libxml2 through CXML.
        .target(name: "StringsFormats", dependencies: ["Strings", "StableJSON", "CXML"]),

        // The translation linter and its reporters (text, JSON, GitHub, SARIF), over Strings; its ICU pattern pass is in CICU.
        // Other formats are read through StringsFormats.
        .target(name: "StringsLint", dependencies: ["Strings", "StringsFormats", "CICU", "StableJSON", "Locking"]),

        // lookd's own HTTP/1.1 engine in C (docs/http.md): epoll loops, the strict request parser, limits, deadlines,
        // the worker pool. No outside library.
        .target(name: "HTTPEngine"),

        // The only code that includes <sqlite3.h>.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Where libpq's headers and library are (pkg-config's libpq; Debian's libpq-dev). Only CLibPQ depends on it.
        .systemLibrary(name: "SystemLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // The only code that includes <libpq-fe.h> (PostgreSQL's client): opaque connections and results.
        .target(name: "CLibPQ", dependencies: ["SystemLibPQ"]),

        // Where OpenSSL's libcrypto headers and library are (pkg-config's libcrypto; Debian's libssl-dev). Only CCrypto depends on it.
        .systemLibrary(name: "SystemCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The only code that includes OpenSSL's headers: HMAC-SHA256, SHA-256, constant-time compare and random
        // bytes over plain byte buffers.
        .target(name: "CCrypto", dependencies: ["SystemCrypto"]),

        // The only code that includes libbrotli's headers (Debian's libbrotli-dev; pkg-config `libbrotlienc`): the `br`
        // content coding, reached through LookdServer's `Brotli`.
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"])]),

        // The only code that includes <zlib.h> (Debian's zlib1g-dev; pkg-config `zlib`): the `gzip` decoder
        // (the tests'), reached through LookdServer's `Gzip`.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // The only code that includes <libdeflate.h> (Debian's libdeflate-dev; pkg-config `libdeflate`): the encoder of the
        // `gzip` content coding (its level 12 makes a fetch body ~2% smaller than zlib's 9), reached through `Gzip`.
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),

        // The daemon as a library: HTTP (server, limits, errors at the edge) → routes → services → stores.
        .target(name: "LookdServer", dependencies: ["StableJSON", "LookResolver", "Strings", "StringsLint", "Locking", "FNV", "HTTPEngine", "CSQLite", "CLibPQ", "CCrypto", "CBrotli", "CZlib", "CDeflate"]),

        // The CLI: argument parsing and commands, nothing else.
        .executableTarget(name: "lookd", dependencies: ["LookdServer", "LookClient", "StableJSON", "LookResolver", "Strings", "StringsLint", "StringsFormats"]),

        // Benchmarks: an executable, never timed tests. `make bench`.
        .executableTarget(name: "lookd-bench", dependencies: ["StableJSON", "Locking", "LookResolver", "LookClient", "Strings", "StringsLint", "StringsFormats", "ICUAnchor", "CeilingServer"], path: "Benchmarks/lookd-bench"),

        // Bench-only: the machine's ceiling for the http suite, a minimal epoll server answering one fixed response.
        .target(name: "CeilingServer", path: "Benchmarks/CeilingServer"),

        // Bench-only: raw ICU C++ doing what Strings does, timed in the same run (the `strings` suite's anchor).
        .target(name: "ICUAnchor", dependencies: ["CICU", "SystemICU"], path: "Benchmarks/ICUAnchor"),

        // Test-only: other programs started with posix_spawn and reaped with waitpid, every wait bounded (ChildProgram,
        // runProgram), for every test target that runs one; never Foundation's Process.waitUntilExit().
        .target(name: "TestPrograms", dependencies: ["Locking"], path: "Tests/TestPrograms"),

        .testTarget(name: "StableJSONTests", dependencies: ["StableJSON"]),
        .testTarget(name: "FNVTests", dependencies: ["FNV"]),
        .testTarget(name: "LookResolverTests", dependencies: ["LookResolver", "StableJSON"]),
        .testTarget(name: "StringsTests", dependencies: ["Strings", "Locking"]),
        .testTarget(name: "StringsLintTests", dependencies: ["StringsLint", "Strings", "StableJSON", "TestPrograms"]),
        .testTarget(name: "StringsFormatsTests", dependencies: ["StringsFormats", "StringsLint", "Strings", "StableJSON", "TestPrograms"], resources: [.copy("Fixtures")]),

        // Routes and services in process; a few live-daemon tests for what needs sockets (framing, limits, shutdown, kill -9).
        .testTarget(name: "LookdTests", dependencies: ["LookdServer", "LookClient", "StableJSON", "LookResolver", "Strings", "Locking", "CSQLite", "TestPrograms"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
