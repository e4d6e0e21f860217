import Dispatch
import Foundation
import Locking
import Testing
@testable import Strings

/// Every locale ID in ICU's data (legacy aliases included) and a corpus of odd tags go through negotiation,
/// fallback chains and CLDR ancestors, and every call returns. ICU 72's `ures_openDirect` spun forever on alias
/// bundles such as no_NO; this is a hang detector (a generous deadline for the whole corpus), not a timing test.
@Suite(.timeLimit(.minutes(10))) struct BoundedTimeTests {
    /// ICU's legacy aliases, spelled out in case an ICU build does not list them.
    static let aliases = [
        "no-NO", "sh", "mo", "tl", "iw", "in", "ji", "no", "no_NO", "no_NO_NY", "nb_NO", "nn_NO", "sr_CS", "sr_YU", "sr_BA",
        "sr_ME", "sr_RS", "sr_XK", "sr_Cyrl_CS", "sr_Latn_CS", "sr_Cyrl_YU", "sr_Latn_YU", "sh_BA", "sh_CS", "sh_YU",
        "zh_CN", "zh_TW", "zh_HK", "zh_MO", "zh_SG", "az_AZ", "bs_BA", "pa_IN", "pa_PK", "shi_MA", "uz_AF", "uz_UZ",
        "vai_LR", "ars", "prs", "in_ID", "iw_IL", "tl_PH", "yue_CN", "yue_HK", "en_NH", "en_RH", "ff_CM", "ks_IN",
        "mni_IN", "sat_IN", "sd_IN", "sd_PK", "su_ID", "no-NO", "no-NO-NY", "zh-TW", "sr-Latn-CS",
    ]

    /// Tags no client should send, and some they do.
    static var oddTags: [String] {
        var tags = [
            "", "-", "--", "x-", "x-klingon", "x", "und", "root", "i-klingon", "art-lojban", "i-default", "zh-min-nan",
            "en-GB-oed", "sgn-BE-FR", "en-u-nu-arab", "de-DE-u-co-phonebk", "ja-t-it", "en-a-bbb-x-a-ccc",
            "de-u-", "en-t-", "en--US", "EN_us", "eN-Us", "ZH-hANT-mo", "no_bok", "no_nyn", "nb-NO-x-private",
            "qaa", "qtz-Latn-XA", "en-XA", "ar-XB", "en-XB", "ar-XA", "en-xa", "ar_xb", "en-XA-u-nu-latn",
            "de\u{0}fr", "\u{0}", "en\u{0}", "日本語", "ру", "é", "de-DÉ", "en-US\u{200B}", " de ", "de;q=0.5",
            "*", "en-US, de", "1234", "a", "abcdefghi", "en-Latn-US-valencia-1606nict-u-ca-buddhist-x-private",
            "sr-Latn-RS", "sr-Cyrl", "uz-Arab-AF", "pa-Arab", "zh-Hans-HK", "yue-Hant", "prs", "fa-AF", "ckb-IR",
        ]
        tags.append(String(repeating: "a", count: 300))
        tags.append(String(repeating: "en-", count: 100))
        tags.append("en-" + String(repeating: "x", count: 297))
        tags.append("x-" + Array(repeating: "abcdefgh", count: 40).joined(separator: "-"))
        tags.append(String(repeating: "_", count: 300))
        return tags
    }

    static var corpus: [String] {
        let icuIDs = LanguageTag.icuLocaleIdentifiers
        return aliases + oddTags + icuIDs + icuIDs.map { $0.replacingOccurrences(of: "_", with: "-") }
    }

    @Test func icuListsItsLocalesAndAliases() {
        let ids = Set(LanguageTag.icuLocaleIdentifiers)
        #expect(ids.count > 700, "\(ids.count)")
        for alias in ["no_NO", "iw", "sh", "zh_TW", "nb", "es_419", "zh_Hant_MO"] { #expect(ids.contains(alias), "\(alias)") }
    }

    /// Runs `body` on its own thread and returns when it does. When it has not returned after `seconds`, stops the
    /// test process with `what()` in the message: a thread spinning inside ICU holds ICU's global cache lock, so
    /// every other test touching ICU would wait forever too and the run would never report.
    static func returns(within seconds: Double, _ what: @escaping @Sendable () -> String,
                        _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let worker = Thread {
            body()
            done.signal()
        }
        worker.stackSize = 8 << 20
        worker.start()
        if done.wait(timeout: .now() + seconds) == .timedOut {
            fatalError("still inside ICU after \(Int(seconds)) s: \(what())")
        }
    }

    /// In a fresh process (`--filter BoundedTimeTests`) the aliases come first, before anything has loaded "no":
    /// ICU 72's `ures_openDirect("no_NO")` spun exactly then.
    @Test func everyTagReturnsThroughNegotiationChainsAndAncestors() {
        let corpus = Self.corpus
        let current = LockedValue("")
        let inconsistent = LockedValue<[String]>([])
        Self.returns(within: 60, { "tag '\(current.withLock { $0 })'" }) {
            let negotiator = LocaleNegotiator(memoSize: 0)
            for tag in corpus {
                current.withLock { $0 = tag }
                _ = FallbackChain.cldrAncestors(of: tag)
                _ = LanguageTag.explicitParent(tag)
                let negotiated = negotiator.negotiate(tag: tag)
                _ = negotiator.negotiate(tags: [tag, "de"])
                _ = negotiator.negotiate(acceptLanguage: tag)
                _ = negotiator.negotiate(acceptLanguage: "\(tag);q=0.9, fr;q=0.5")
                _ = negotiator.negotiate(language: tag, acceptLanguage: "pt-AO")
                _ = negotiator.matches(tag: tag)
                let chain = FallbackChain.chain(forTag: tag, negotiator: negotiator)
                _ = LanguageTag.canonicalize(tag)
                _ = LanguageTag.maximize(tag)
                if chain.first != negotiated || chain.last != .english {
                    inconsistent.withLock { $0.append("\(tag): \(negotiated) vs \(chain)") }
                }
            }
        }
        #expect(inconsistent.withLock { $0 } == [])
    }

    /// The cases: alias locales answer, and as CLDR says. (Run alone in a fresh process, the first call
    /// is what used to spin: ICU 72's cache did not hold "no" yet.)
    @Test func aliasLocalesAnswer() {
        let ancestors = LockedValue<[String]>([])
        Self.returns(within: 60, { "cldrAncestors(of: \"no-NO\")" }) {
            ancestors.withLock { $0 = FallbackChain.cldrAncestors(of: "no-NO") }
        }
        #expect(ancestors.withLock { $0 } == ["no-NO", "no"])
        #expect(LocaleNegotiator.shared.negotiate(tag: "no-NO") == tag("nb"))
        #expect(FallbackChain.chain(forTag: "no-NO").map(\.identifier) == ["nb", "en"])
        #expect(FallbackChain.cldrAncestors(of: "nb") == ["nb", "no"])
        #expect(FallbackChain.cldrAncestors(of: "nb-NO") == ["nb-NO", "nb", "no"])
        #expect(FallbackChain.cldrAncestors(of: "iw") == ["he"])
        #expect(FallbackChain.cldrAncestors(of: "sh") == ["sr-Latn"])
        #expect(FallbackChain.cldrAncestors(of: "zh-TW") == ["zh-Hant-TW", "zh-Hant"])
        #expect(LanguageTag.explicitParent("no-NO") == nil)
        #expect(LanguageTag.explicitParent("nb") == "no")
        #expect(LanguageTag.explicitParent("es-MX") == "es-419")
        #expect(LanguageTag.explicitParent("zh-Hant") == "root")
        // An explicit parent is the bundle's own, never inherited: nb-NO's parent is nb (by truncation).
        #expect(LanguageTag.explicitParent("nb-NO") == nil)
    }

    /// A chain is the negotiated locale's: "prs" (Dari) negotiates to English, so its chain does not go on to fa.
    @Test func chainAgreesWithNegotiation() {
        #expect(LocaleNegotiator.shared.negotiate(tag: "prs") == .english)
        #expect(FallbackChain.chain(forTag: "prs") == [.english])
        for tag in ["prs", "fa-AF", "es-MX", "zh-MO", "pt-AO", "nn", "en-GB", "sr-Latn", "en-XA", "ar-XB"] {
            #expect(FallbackChain.chain(forTag: tag) == FallbackChain.chain(for: LocaleNegotiator.shared.negotiate(tag: tag)), "\(tag)")
        }
    }
}
