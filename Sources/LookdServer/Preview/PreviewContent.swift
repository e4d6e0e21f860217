/// Everything the preview page shows in words, already localized and formatted for one locale.
/// Built from the catalogs (``PreviewContent/init(look:localizer:locale:)``); rendered by ``PreviewPage``.
public struct PreviewContent: Sendable {
    /// The BCP 47 tag of the locale (`lang` attribute) and its direction.
    var languageTag: String
    var rightToLeft: Bool

    /// The contact header: its title, an optional status line (person style), and the reply expectation.
    var headerTitle: String
    var headerStatus: String?
    var replyExpectation: String
    /// The teammate shown in the person header style, and the team bubbles' author.
    var teammateName: String

    var welcomeTitle: String
    var welcomeBody: String
    var topicsPrompt: String
    /// Topic buttons: label and SF Symbol name.
    var topics: [(label: String, symbol: String)]

    var dayHeader: String
    /// The person's first message (a topic starter), the team's answer with a link, and the link's text.
    var personMessage: String
    var teamGreeting: String
    var linkText: String
    var photoRemoved: String
    var delivered: String
    var read: String
    var heldMessage: String
    var heldNote: String
    var banner: String

    var offerTitle: String
    var offerAction: String
    var currentPlan: String
    var planStatus: String

    var composerPlaceholder: String
    var sendLabel: String
    var attachLabel: String
    var lockupLabel: String
}
