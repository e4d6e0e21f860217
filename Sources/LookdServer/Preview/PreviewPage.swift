import LookResolver

/// The dashboard's look preview: a self-contained HTML page (inline CSS, no script, no outside request) of the chat
/// as apps will show it, for one locale and one or more panels (an appearance at a contrast level, see ``PreviewPanel``). Every colour, the corner radius and the
/// font family come from the resolved look; every word from ``PreviewContent``; all text is HTML-escaped.
///
/// The tint is only ever drawn on the background (chips, the link and offer cards are outlined, not filled), because
/// the palette guarantees its 4.5:1 there; bubble text sits on its own bubble fill.
///
/// Elements carry `data-role` attributes (`phone`, `bubble-person`, `bubble-team`, `tint-link`, `composer`, …) so
/// tests and the dashboard can find them.
public struct PreviewPage {
    var look: ResolvedLook
    var content: PreviewContent
    var panels: [PreviewPanel]
    var chatLink: String?

    /// A page for `look`, worded by `content`, showing each of `panels` side by side, each in its palette
    /// (`look.palette` or `look.palette.increasedContrast`). With `chatLink` (`?pingfront=chat&preview=TOKEN`) the
    /// look is a draft: its phones are marked `data-look="draft"` and the link is shown above them, for the team
    /// to open the draft on a phone.
    public init(look: ResolvedLook, content: PreviewContent, panels: [PreviewPanel], chatLink: String? = nil) {
        self.look = look
        self.content = content
        self.panels = panels
        self.chatLink = chatLink
    }

    /// The Content-Security-Policy the page is written for: nothing may load, only the inline style applies.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    /// The start of every page lookd serves, up to and including `<body>`: the doctype, `lang` and `dir`, the CSP
    /// (`policy`, the page's own, also sent as a header) as a meta element, the (escaped) title and the inline style.
    static func documentStart(lang: String, direction: String, title: String, style: String, policy: String = contentSecurityPolicy) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(HTMLText(lang))" dir="\(direction)">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(policy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText(title))</title>
        <style>\(style)</style>
        </head>
        <body>

        """
    }

    public func html() -> String {
        let direction = content.rightToLeft ? "rtl" : "ltr"
        var page = Self.documentStart(lang: content.languageTag, direction: direction, title: content.headerTitle, style: stylesheet)
        if let chatLink {
            page += Self.chatLinkParagraph(chatLink)
        }
        page += "<main class=\"phones\">\n"
        for panel in panels {
            page += phone(panel, role: chatLink == nil ? nil : "draft")
        }
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    /// The chat link above a draft's phones (`chatLink` escaped), in English like the rest of the page's chrome;
    /// styled by `.chat-link` in ``stylesheet``.
    static func chatLinkParagraph(_ chatLink: String) -> String {
        "<p class=\"chat-link\" data-role=\"chat-link\" dir=\"ltr\" lang=\"en\">Open the draft on a phone: <code>\(HTMLText(chatLink))</code></p>\n"
    }

    // MARK: - One phone

    /// One phone for `panel`; `role` becomes its `data-look`, and `header` (HTML) replaces the look's contact header
    /// (the editor draws one per header style).
    func phone(_ panel: PreviewPanel, role: String? = nil, header: String? = nil) -> String {
        var colors = look.palette[panel.appearance, panel.contrast]
        if let deficiency = panel.deficiency {
            for path in [\AppearancePalette.background, \.bubbleFill, \.bubbleText, \.tint, \.text, \.secondaryText, \.teamBubbleFill, \.teamBubbleText] {
                colors[keyPath: path] = deficiency.simulate(colors[keyPath: path])
            }
        }
        let variables = [
            "--bg: \(colors.background.hex)", "--fill: \(colors.bubbleFill.hex)", "--on-fill: \(colors.bubbleText.hex)",
            "--tint: \(colors.tint.hex)", "--text: \(colors.text.hex)", "--muted: \(colors.secondaryText.hex)",
            "--team-fill: \(colors.teamBubbleFill.hex)", "--team-text: \(colors.teamBubbleText.hex)",
            "--radius: \(look.corners.value.radius)px", "--font: \(Self.fontStack(look.font.value))", "--scale: \(panel.textSize.scale)",
        ].joined(separator: "; ")
        let extra = (role.map { " data-look=\"\($0)\"" } ?? "") + (panel.deficiency.map { " data-cvd=\"\($0.rawValue)\"" } ?? "")
        var html = """
            <section class="phone" data-role="phone" data-appearance="\(panel.name)" data-contrast="\(panel.contrast.rawValue)" \
            data-text-size="\(panel.textSize.rawValue)"\(extra) lang="\(HTMLText(content.languageTag))" dir="\(content.rightToLeft ? "rtl" : "ltr")" style="\(variables)">
            <p class="appearance-label">\(panel.label)</p>
            \(header ?? self.header)
            <div class="thread" data-role="thread">
            \(welcome)
            <p class="day" data-role="day">\(HTMLText(content.dayHeader))</p>
            <div class="row person"><p class="bubble person" data-role="bubble-person">\(HTMLText(content.personMessage))</p></div>
            <div class="row team"><p class="bubble team" data-role="bubble-team">\(HTMLText(content.teamGreeting))</p></div>
            <div class="row team"><p class="card link-card" data-role="link-card"><a class="link" data-role="tint-link" href="#help">\(HTMLText(content.linkText))</a></p></div>
            <div class="row person"><p class="bubble person photo" data-role="bubble-person-photo">\(HTMLText(content.photoRemoved))</p></div>
            <p class="status" data-role="delivery">\(HTMLText(content.read))</p>
            \(offerCard)
            <p class="plan-status" data-role="plan-status">\(HTMLText(content.planStatus))</p>
            <div class="row person"><p class="bubble person held" data-role="bubble-person-held">\(HTMLText(content.heldMessage))</p></div>
            <p class="status held-note" data-role="held-note">\(HTMLText(content.heldNote))</p>
            </div>
            <p class="banner" data-role="banner" role="status">\(HTMLText(content.banner))</p>

            """
        if look.branding.value {
            html += "<p class=\"lockup\" data-role=\"lockup\" aria-label=\"\(HTMLText(content.lockupLabel))\">\(HTMLText(content.lockupLabel))</p>\n"
        }
        html += """
            <div class="composer" data-role="composer">
            <span class="attach" aria-label="\(HTMLText(content.attachLabel))">+</span>
            <span class="field" data-role="composer-placeholder">\(HTMLText(content.composerPlaceholder))</span>
            <span class="send" data-role="send" aria-label="\(HTMLText(content.sendLabel))">↑</span>
            </div>
            </section>

            """
        return html
    }

    /// The contact header in the look's style; `hidden` for the editor's headers of the other styles.
    func contactHeader(hidden: Bool) -> String {
        var lines = "<header class=\"contact\" data-role=\"header\" data-style=\"\(look.headerStyle.value.rawValue)\"\(hidden ? " hidden" : "")>\n"
        lines += avatar
        lines += "<h1 class=\"title\">\(HTMLText(content.headerTitle))</h1>\n"
        if let status = content.headerStatus {
            lines += "<p class=\"subtitle\">\(HTMLText(status))</p>\n"
        }
        lines += "<p class=\"subtitle\" data-role=\"reply-expectation\">\(HTMLText(content.replyExpectation))</p>\n</header>"
        return lines
    }

    private var header: String { contactHeader(hidden: false) }

    /// The person header shows the teammate's initial in a circle; team and app headers show the app icon.
    private var avatar: String {
        if look.headerStyle.value == .person {
            let initial = AppIcon.monogram(of: content.teammateName) ?? "?"
            return "<div class=\"avatar person\" data-role=\"avatar\">\(HTMLText(initial))</div>\n"
        }
        switch look.appIcon.value {
        case .bundle:
            return "<div class=\"avatar icon\" data-role=\"avatar\" data-icon=\"bundle\" title=\"App icon (from the app bundle)\">\(HTMLText(monogramOrGlyph))</div>\n"
        case .url(let url):
            // The page loads nothing from outside: name the listing icon instead of fetching it.
            return "<div class=\"avatar icon\" data-role=\"avatar\" data-icon=\"url\" title=\"App icon: \(HTMLText(url))\">\(HTMLText(monogramOrGlyph))</div>\n"
        case .monogram(let letter):
            return "<div class=\"avatar icon monogram\" data-role=\"avatar\" data-icon=\"monogram\">\(HTMLText(letter))</div>\n"
        case .glyph:
            return "<div class=\"avatar icon\" data-role=\"avatar\" data-icon=\"glyph\">\(Self.chatGlyph)</div>\n"
        }
    }

    private var monogramOrGlyph: String {
        look.appName.value.flatMap(AppIcon.monogram(of:)) ?? "•"
    }

    private var welcome: String {
        var html = """
            <div class="welcome" data-role="welcome">
            <h2>\(HTMLText(content.welcomeTitle))</h2>
            <p>\(HTMLText(content.welcomeBody))</p>

            """
        if !content.topics.isEmpty {
            html += "<p class=\"prompt\">\(HTMLText(content.topicsPrompt))</p>\n<div class=\"topics\">\n"
            for topic in content.topics {
                html += "<span class=\"topic\" data-role=\"topic\" data-symbol=\"\(HTMLText(topic.symbol))\">\(HTMLText(topic.label))</span>\n"
            }
            html += "</div>\n"
        }
        return html + "</div>"
    }

    private var offerCard: String {
        """
        <div class="card" data-role="offer-card">
        <p class="card-title">\(HTMLText(content.offerTitle))</p>
        <p class="card-note">\(HTMLText(content.currentPlan))</p>
        <span class="card-action" data-role="tint-action">\(HTMLText(content.offerAction))</span>
        </div>
        """
    }

    /// The CSS font stack drawn for `font` (the nearest web fonts to iOS's system, rounded and serif designs).
    static func fontStack(_ font: FontStyle) -> String {
        switch font {
        case .system: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans CJK JP', sans-serif"
        case .rounded: "ui-rounded, 'SF Pro Rounded', 'Nunito', 'Varela Round', 'Arial Rounded MT Bold', 'Noto Sans', sans-serif"
        case .serif: "ui-serif, 'New York', 'Noto Serif', Georgia, 'Times New Roman', serif"
        }
    }

    private static let chatGlyph = """
        <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true"><path fill="currentColor" d="M12 3C6.5 3 2 6.6 2 11c0 2.4 1.3 4.5 3.4 6l-.9 3.5 4-2.1c1.1.3 2.3.5 3.5.5 5.5 0 10-3.6 10-8s-4.5-8-10-8z"/></svg>
        """

    var stylesheet: String {
        """
        *{box-sizing:border-box}
        body{margin:0;padding:24px;background:#8E8E93;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,sans-serif}
        .phones{display:flex;flex-wrap:wrap;gap:24px;justify-content:center}
        .phone{width:390px;min-height:780px;display:flex;flex-direction:column;font-size:calc(16px * var(--scale, 1));overflow-wrap:anywhere;background:var(--bg);color:var(--text);font-family:var(--font);border-radius:44px;padding:20px 16px;box-shadow:0 8px 30px rgba(0,0,0,.35);overflow:hidden}
        .appearance-label{margin:0 0 6px;font-size:11px;text-transform:uppercase;letter-spacing:.08em;color:var(--muted);text-align:center}
        .contact{text-align:center;padding-bottom:10px;border-bottom:1px solid var(--team-fill)}
        .avatar{width:52px;height:52px;margin:0 auto 6px;display:flex;align-items:center;justify-content:center;font-size:24px;font-weight:600}
        .avatar.person{border-radius:50%;background:var(--team-fill);color:var(--team-text)}
        .avatar.icon{border-radius:12px;background:var(--fill);color:var(--on-fill)}
        .title{margin:0;font-size:calc(17px * var(--scale, 1));font-weight:600}
        .subtitle{margin:2px 0 0;font-size:calc(13px * var(--scale, 1));color:var(--muted)}
        .thread{flex:1;display:flex;flex-direction:column;gap:6px;padding:12px 0}
        .welcome{text-align:center;padding:8px 12px 14px}
        .welcome h2{margin:0 0 4px;font-size:calc(22px * var(--scale, 1))}
        .welcome p{margin:0 0 8px;font-size:calc(15px * var(--scale, 1))}
        .welcome .prompt{color:var(--muted);font-size:calc(13px * var(--scale, 1))}
        .topics{display:flex;flex-wrap:wrap;gap:8px;justify-content:center}
        .topic{border:1px solid var(--tint);color:var(--tint);border-radius:999px;padding:6px 12px;font-size:calc(15px * var(--scale, 1))}
        .day{text-align:center;font-size:calc(12px * var(--scale, 1));color:var(--muted);margin:8px 0 2px}
        .row{display:flex}
        .bubble{max-width:75%;margin:0;padding:8px 12px;font-size:calc(16px * var(--scale, 1));line-height:1.3;border-radius:var(--radius);overflow-wrap:anywhere}
        .bubble.person{margin-inline-start:auto;background:var(--fill);color:var(--on-fill);border-end-end-radius:4px}
        .bubble.team{margin-inline-end:auto;background:var(--team-fill);color:var(--team-text);border-end-start-radius:4px}
        .bubble.photo{font-style:italic}
        .bubble.held{box-shadow:0 0 0 2px var(--bg),0 0 0 3px var(--muted)}
        .link{color:var(--tint);text-decoration:underline}
        .status{margin:0;font-size:calc(12px * var(--scale, 1));color:var(--muted);text-align:end}
        .card{margin:6px 0;padding:12px;border-radius:var(--radius);background:var(--bg);color:var(--text);border:1px solid var(--team-fill);max-width:75%}
        .link-card{margin-inline-end:auto}
        .card-title{margin:0 0 2px;font-weight:600}
        .card-note{margin:0 0 8px;font-size:calc(13px * var(--scale, 1));color:var(--muted)}
        .card-action{color:var(--tint);font-weight:600}
        .plan-status{margin:6px 0;text-align:center;font-size:calc(13px * var(--scale, 1));color:var(--muted)}
        .banner{margin:0 0 8px;padding:8px 12px;border-radius:var(--radius);background:var(--team-fill);color:var(--team-text);font-size:calc(14px * var(--scale, 1));text-align:center}
        .lockup{margin:0 0 6px;text-align:center;font-size:calc(14px * var(--scale, 1));color:var(--muted)}
        .composer{display:flex;align-items:center;gap:8px}
        .field{min-width:0}
        .attach,.send{flex:none}
        .attach{width:34px;height:34px;border-radius:50%;background:var(--team-fill);color:var(--muted);display:flex;align-items:center;justify-content:center;font-size:22px}
        .field{flex:1;border:1px solid var(--team-fill);border-radius:999px;padding:8px 14px;color:var(--muted);font-size:calc(16px * var(--scale, 1))}
        .send{width:34px;height:34px;border-radius:50%;background:var(--fill);color:var(--on-fill);display:flex;align-items:center;justify-content:center;font-weight:700;font-size:18px}
        .chat-link{max-width:1200px;margin:0 auto 16px;background:#fff;color:#000;padding:8px 12px;border-radius:8px;overflow-wrap:anywhere}
        """
    }
}
