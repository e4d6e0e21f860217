import FuzzInput
import StableJSON

/// Small limits so deep and large inputs reach the limit checks quickly.
private let limits = JSONReader.Limits(maxDepth: 64, maxStringBytes: 4_096, maxValues: 10_000)

/// The whole input is a document for the strict reader. A refusal is a thrown error; an accepted document must
/// survive the writer: compact and pretty output both read back to the same value (numbers exactly as sent),
/// and writing that again gives the same bytes. A mismatch aborts, as a crash would.
@_cdecl("LLVMFuzzerTestOneInput")
public func stableJSONFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).all
    guard let value = try? JSONReader.read(bytes, limits: limits) else { return 0 }
    let compact = JSONWriter.bytes(value)
    let pretty = JSONWriter.bytes(value, pretty: true)
    guard let again = try? JSONReader.read(compact, limits: limits), again == value,
          let fromPretty = try? JSONReader.read(pretty, limits: limits), fromPretty == value,
          JSONWriter.bytes(again) == compact else {
        fatalError("StableJSON round trip changed an accepted document")
    }
    return 0
}

/// The executable's entry point (see `FuzzerEntry`): libFuzzer's driver over this target's input function.
@_cdecl("FuzzStableJSON_main")
public func fuzzStableJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzerEntry.run(argc, argv, stableJSONFuzzerTestOneInput)
}
