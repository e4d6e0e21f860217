import Foundation
import LookResolver
import Strings

extension PreviewContent {
    /// A fixed moment for the sample dates (12 Nov 2026, 09:41 UTC), so a preview of the same look is always the same bytes.
    static let sampleDate = Date(timeIntervalSince1970: 1_794_476_460)
    /// The teammate shown in the person header style.
    static let sampleTeammate = "Alex"

    /// The page's words for `locale`: built-in texts from the catalogs (along the locale's fallback chain), and the
    /// team's own texts (reply expectation, topic labels and starters) in the best language they have.
    /// - Throws: `FormatError` when a catalog message cannot be formatted (a broken catalog); never partial text.
    public init(look: ResolvedLook, localizer: Localizer, locale: LocaleTag) throws {
        func text(_ key: String, _ arguments: [String: Argument] = [:]) throws -> String {
            try localizer.format(key: key, locale: locale, arguments: arguments).text
        }
        let chain = localizer.fallbackChain(for: locale).map(\.identifier)
        func localized(_ value: LocalizedText) throws -> String {
            if case .catalog(let key, _) = value { return try text(key) }
            return value.text(preferring: chain)
        }
        let appName = look.appName.value
        let support = try text("header.support.title")
        let product = "\(appName ?? "pingfront") Plus"

        languageTag = locale.identifier
        rightToLeft = Localizer.direction(of: locale) == .rightToLeft
        teammateName = Self.sampleTeammate
        switch look.headerStyle.value {
        case .person:
            headerTitle = Self.sampleTeammate
            headerStatus = try text("header.status", ["status": "online"])
        case .team:
            headerTitle = try appName.map { try text("header.team.title", ["appName": .string($0)]) } ?? support
            headerStatus = nil
        case .app:
            headerTitle = appName ?? support
            headerStatus = nil
        }
        replyExpectation = try localized(look.replyExpectation.value)
        welcomeTitle = try text("welcome.title")
        welcomeBody = try text("welcome.body", ["appName": .string(appName ?? support)])
        topicsPrompt = try text("welcome.topics.prompt")
        topics = try look.topics.value.map { (label: try localized($0.label), symbol: $0.symbol) }
        dayHeader = try text("thread.dayHeader", ["date": .date(Self.sampleDate)])
        let starter = try look.topics.value.first?.prefill.map(localized) ?? text("topic.billing.prefill")
        personMessage = starter.trimmingCharacters(in: .whitespacesAndNewlines)
        teamGreeting = welcomeTitle
        linkText = "example.com/help"
        photoRemoved = try text("thread.photoRemoved")
        delivered = try text("delivery.delivered")
        read = try text("delivery.read")
        heldMessage = try text("topic.bug.prefill").trimmingCharacters(in: .whitespacesAndNewlines)
        heldNote = try text("delivery.held.paused")
        banner = try text("banner.unreachable")
        offerTitle = product
        currentPlan = try text("plan.current")
        offerAction = try text("plan.seeAll")
        planStatus = try text("plan.renews", ["product": .string(product), "date": .date(Self.sampleDate)])
        composerPlaceholder = try text("composer.placeholder")
        sendLabel = try text("composer.send")
        attachLabel = try text("composer.attach")
        lockupLabel = try text("branding.lockup")
    }
}
