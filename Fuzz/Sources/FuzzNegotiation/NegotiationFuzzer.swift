import FuzzInput
import Strings

/// Input layout: an `Accept-Language` header, NUL, a language tag, NUL, a second tag. The header goes through
/// parsing and negotiation; each tag through negotiation, the explicit-language path, fallback chains, CLDR
/// ancestors and the tag functions (canonicalize, maximize, parent). Nothing here may throw; a crash or a
/// hang (`-timeout`) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func negotiationFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let header = input.string()
    let tags = [input.string(), input.string()]
    let negotiator = LocaleNegotiator.shared
    _ = AcceptLanguage.parse(header)
    _ = negotiator.negotiate(acceptLanguage: header)
    _ = negotiator.negotiate(tags: tags)
    for tag in tags {
        let locale = negotiator.negotiate(language: tag, acceptLanguage: header)
        _ = FallbackChain.chain(for: locale)
        _ = FallbackChain.chain(forTag: tag)
        _ = FallbackChain.cldrAncestors(of: tag)
        _ = negotiator.matches(tag: tag)
        _ = LanguageTag.isWellFormed(tag)
        _ = LanguageTag.canonicalize(tag)
        _ = LanguageTag.maximize(tag)
        _ = LanguageTag.explicitParent(tag)
        _ = LanguageTag.subtags(tag)
    }
    return 0
}

/// The executable's entry point (see `FuzzerEntry`): libFuzzer's driver over this target's input function.
@_cdecl("FuzzNegotiation_main")
public func fuzzNegotiationMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzerEntry.run(argc, argv, negotiationFuzzerTestOneInput)
}
