import LookResolver
import Strings

/// The preview matrix: one self-contained page (no script, the preview's CSP) showing the chat across the
/// conditions a person may use it in — languages (with the pseudo-locales en-XA and ar-XB and a right-to-left
/// one), the four palettes, three Dynamic Type sizes and three simulated colour-vision deficiencies — for the
/// published look, and for the draft beside it when there is one. Each phone is a ``PreviewPage`` phone with
/// its own `lang` and `dir`, and `data-look` (`published`, `draft` or `layers`).
public struct PreviewMatrix {
    /// The languages of the first section, in order: English, its pseudo-locale, a right-to-left language and its
    /// pseudo-locale, a CJK and a long-word language.
    public static let languages = ["en", "en-XA", "ar", "ar-XB", "ja", "de"]

    /// One look to draw: its name on the page and what it resolves to.
    public struct Subject: Sendable {
        public var role: String
        public var look: ResolvedLook
        public init(role: String, look: ResolvedLook) {
            self.role = role
            self.look = look
        }
    }

    var subjects: [Subject]
    var localizer: Localizer
    var chatLink: String?

    /// - Parameters:
    ///   - subjects: the looks side by side in every cell (published, then draft).
    ///   - chatLink: shown at the top for the team to open on a phone (`…?pingfront=chat&preview=TOKEN`).
    public init(subjects: [Subject], localizer: Localizer, chatLink: String? = nil) {
        self.subjects = subjects
        self.localizer = localizer
        self.chatLink = chatLink
    }

    /// The page. Throws `FormatError` when a catalog cannot format the preview's texts.
    public func html() throws -> String {
        var sections: [(title: String, cells: [(locale: String, panel: PreviewPanel)])] = []
        sections.append(("Languages", Self.languages.map { ($0, PreviewPanel(.light)) }))
        sections.append(("Appearances", PreviewRequest.panels("all")!.map { ("en", $0) }))
        sections.append(("Text sizes (iOS Dynamic Type)", ["en", "en-XA", "ar"].flatMap { locale in
            TextSize.allCases.map { (locale, PreviewPanel(.light, textSize: $0)) }
        }))
        sections.append(("Colour-vision deficiencies (Machado 2009, severity 1.0)", Appearance.allCases.flatMap { appearance in
            ColorVisionDeficiency.allCases.map { ("en", PreviewPanel(appearance, deficiency: $0)) }
        }))
        var contents: [String: PreviewContent] = [:]
        let style = try stylesheet() + """

            .matrix-section{margin:0 0 32px}
            .matrix-section>h2{margin:0 0 12px;color:#fff;font-size:20px}
            .cell{display:flex;gap:12px;align-items:flex-start}
            """
        var page = PreviewPage.documentStart(lang: "en", direction: "ltr", title: "Preview matrix", style: style)
        if let chatLink {
            page += PreviewPage.chatLinkParagraph(chatLink)
        }
        for section in sections {
            page += "<section class=\"matrix-section\" data-role=\"matrix-section\">\n<h2>\(HTMLText(section.title))</h2>\n<div class=\"phones\">\n"
            for cell in section.cells {
                page += "<div class=\"cell\" data-role=\"cell\">\n"
                for subject in subjects {
                    let tag = cell.locale + "|" + subject.role
                    let content = try contents[tag] ?? PreviewContent(look: subject.look, localizer: localizer, locale: localizer.negotiate(tag: cell.locale))
                    contents[tag] = content
                    page += PreviewPage(look: subject.look, content: content, panels: [cell.panel]).phone(cell.panel, role: subject.role)
                }
                page += "</div>\n"
            }
            page += "</div>\n</section>\n"
        }
        return page + "</body>\n</html>\n"
    }

    private func stylesheet() throws -> String {
        guard let first = subjects.first else { return "" }
        let content = try PreviewContent(look: first.look, localizer: localizer, locale: .english)
        return PreviewPage(look: first.look, content: content, panels: []).stylesheet
    }
}
