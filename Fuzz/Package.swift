// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets over lookd's libraries: a package of its own so the normal build never sees them.
// Built by scripts/fuzz.sh (`make fuzz`) with `-sanitize=fuzzer,address -parse-as-library` in .build/fuzz;
// SwiftPM names an executable's entry point `<Target>_main` and links `main` to it, so each target defines that
// function (FuzzerEntry.run → libFuzzer's LLVMFuzzerRunDriver) next to its `LLVMFuzzerTestOneInput`.
let package = Package(
    name: "lookd-fuzz",
    dependencies: [.package(name: "lookd", path: "..")],
    targets: [
        // The declaration of libFuzzer's LLVMFuzzerRunDriver (defined by the -sanitize=fuzzer runtime).
        .target(name: "CFuzzDriver"),
        // Splits one fuzzer input into the pieces a target needs; starts libFuzzer's driver.
        .target(name: "FuzzInput", dependencies: ["CFuzzDriver"]),
        // Layer decoding then resolution: LookLayers(json:) → Resolver.resolve → jsonData.
        .executableTarget(name: "FuzzLayerResolve", dependencies: [
            "FuzzInput", .product(name: "LookResolver", package: "lookd"), .product(name: "StableJSON", package: "lookd"),
        ]),
        // One catalog's bytes through the linter, as a translation and as the source, with every reporter.
        .executableTarget(name: "FuzzCatalogLint", dependencies: [
            "FuzzInput", .product(name: "StringsLint", package: "lookd"), .product(name: "Strings", package: "lookd"),
        ]),
        // A fuzzed ICU MessageFormat pattern and arguments through MessageFormatter.
        .executableTarget(name: "FuzzMessageFormat", dependencies: [
            "FuzzInput", .product(name: "Strings", package: "lookd"),
        ]),
        // Accept-Language parsing, tag negotiation, fallback chains and CLDR ancestors.
        .executableTarget(name: "FuzzNegotiation", dependencies: [
            "FuzzInput", .product(name: "Strings", package: "lookd"),
        ]),
        // The strict RFC 8259 reader, with the writer's round trip as the oracle.
        .executableTarget(name: "FuzzStableJSON", dependencies: [
            "FuzzInput", .product(name: "StableJSON", package: "lookd"),
        ]),
        // String Catalogs, XLIFF and Android resources: read, written back, read again, and linted.
        .executableTarget(name: "FuzzCatalogFormats", dependencies: [
            "FuzzInput", .product(name: "StringsFormats", package: "lookd"), .product(name: "StringsLint", package: "lookd"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
