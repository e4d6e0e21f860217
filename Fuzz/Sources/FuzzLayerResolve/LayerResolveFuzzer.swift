import FuzzInput
import LookResolver
import StableJSON

/// The whole input is a request body for resolve: `{"dashboard": …, "code": …, "inferred": …}`. A throw is a
/// refused input; a crash, leak or hang is a finding. Each layer is also validated on its own.
@_cdecl("LLVMFuzzerTestOneInput")
public func layerResolveFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let layers = try? LookLayers(json: input.all) else { return 0 }
    let resolved = Resolver().resolve(layers)
    _ = resolved.jsonBytes()
    for layer in LookLayer.inputs {
        if let value = layers[layer] { _ = validateLayer(value, as: layer) }
    }
    return 0
}

/// The executable's entry point (see `FuzzerEntry`): libFuzzer's driver over this target's input function.
@_cdecl("FuzzLayerResolve_main")
public func fuzzLayerResolveMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzerEntry.run(argc, argv, layerResolveFuzzerTestOneInput)
}
