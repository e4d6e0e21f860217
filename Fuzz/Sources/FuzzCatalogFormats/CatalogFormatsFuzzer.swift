import FuzzInput
import StringsFormats
import StringsLint

/// Input layout: a format selector byte (String Catalog, XLIFF, Android resources), then the file. For Android,
/// NUL separates `values/strings.xml`, `values-de/strings.xml` and `values-ru/strings.xml`. Each input is read
/// by the format; what it reads is written back and read again (a round trip may refuse, never crash); and the
/// files go through the linter's reader for that format. Throws are refusals; a crash, leak or hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func catalogFormatsFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let kind = input.pick(["xcstrings", "xliff", "android"])
    let files: FormatFiles
    if kind == "android" {
        files = FormatFiles(["values/strings.xml": input.chunk(), "values-de/strings.xml": input.chunk(),
                             "values-ru/strings.xml": input.chunk()])
    } else {
        files = FormatFiles(["": Array(input.all.dropFirst())])
    }
    if let format = CatalogFormats.named(kind), let content = try? format.read(files),
       let written = try? format.write(content) {
        _ = try? format.read(written)
    }
    if let lintInput = FormatLintInput(name: "fuzz.\(kind)", kind: kind, files: files) {
        _ = Linter().lint(lintInput)
    }
    return 0
}

/// The executable's entry point (see `FuzzerEntry`): libFuzzer's driver over this target's input function.
@_cdecl("FuzzCatalogFormats_main")
public func fuzzCatalogFormatsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzerEntry.run(argc, argv, catalogFormatsFuzzerTestOneInput)
}
