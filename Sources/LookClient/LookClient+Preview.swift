import Foundation

extension LookClient {
    /// The app's draft for `language`, fetched with `token` in a `Lookd-Preview` header (no `If-None-Match`: a draft
    /// has no entity tag). A 200 that is the app's draft (`"draft": true`) is merged over the app's layers and
    /// returned with ``ClientLook/isDraft``, `source` `network`, age 0; nothing is stored, held or announced. A 403
    /// `preview_token_invalid` forgets the token and returns the published look (cached, fetched or built-in) with
    /// ``LookClientError/previewTokenInvalid``. Any other failure returns the published look held (or the built-in
    /// one) with the failure's error, without a request for it. Honours a server's `Retry-After`, not the backoff of
    /// the published fetches, and adds nothing to it.
    func draftLook(_ language: String?, token: String) async -> ClientLook {
        let now = configuration.clock()
        if let until = waitingUntil(now, honoringBackoff: false) { return fallback(language, error: .backingOff(until: until)) }
        var headers = requestHeaders(language)
        headers["Lookd-Preview"] = token
        let answer: HTTPAnswer
        let fetcher = self.fetcher
        do {
            answer = try await fetcher.get(url(language), headers: headers, timeout: configuration.requestTimeout)
        } catch {
            return fallback(language, error: error)
        }
        switch answer.status {
        case 200:
            let fetched: FetchedLook
            do {
                fetched = try FetchedLook(json: [UInt8](answer.body))
            } catch {
                return fallback(language, error: .invalidAnswer(error.message))
            }
            guard fetched.appKey == appKey else { return fallback(language, error: .invalidAnswer("the answer is for another app")) }
            guard fetched.isDraft else { return fallback(language, error: .invalidAnswer("the server answered the published look, not the draft")) }
            let look = LookMerge.resolve(dashboard: fetched.dashboard, layers: layers)
            return ClientLook(look: look, texts: LookMerge.texts(of: look, answer: fetched), version: fetched.version, locale: fetched.locale,
                              source: .network, age: 0, isDraft: true)
        case 403 where Self.errorCode(answer.body) == "preview_token_invalid":
            if previewToken == token { previewToken = nil }
            var published = await look(language: language)
            published.error = .previewTokenInvalid
            return published
        default:
            return fallback(language, error: statusError(answer, now: now))
        }
    }
}
