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

    /// A page for `look`, worded by `content`, showing each of `panels` side by side, each in its palette
    /// (`look.palette` or `look.palette.increasedContrast`).
    public init(look: ResolvedLook, content: PreviewContent, panels: [PreviewPanel]) {
        self.look = look
        self.content = content
        self.panels = panels
    }

    /// The Content-Security-Policy the page is written for: nothing may load, only the inline style applies.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    public func html() -> String {
        let direction = content.rightToLeft ? "rtl" : "ltr"
        var page = """
            <!DOCTYPE html>
            <html lang="\(HTMLText(content.languageTag))" dir="\(direction)">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText(content.headerTitle))</title>
            <style>\(stylesheet)</style>
            </head>
            <body>
            <main class="phones">

            """
        for panel in panels {
            page += phone(panel)
        }
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    // MARK: - One phone

    private func phone(_ panel: PreviewPanel) -> String {
        let colors = look.palette[panel.appearance, panel.contrast]
        let variables = [
            "--bg: \(colors.background.hex)", "--fill: \(colors.bubbleFill.hex)", "--on-fill: \(colors.bubbleText.hex)",
            "--tint: \(colors.tint.hex)", "--text: \(colors.text.hex)", "--muted: \(colors.secondaryText.hex)",
            "--team-fill: \(colors.teamBubbleFill.hex)", "--team-text: \(colors.teamBubbleText.hex)",
            "--radius: \(look.corners.value.radius)px", "--font: \(fontStack)",
        ].joined(separator: "; ")
        var html = """
            <section class="phone" data-role="phone" data-appearance="\(panel.name)" data-contrast="\(panel.contrast.rawValue)" style="\(variables)">
            <p class="appearance-label">\(panel.label)</p>
            \(header)
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

    private var header: String {
        var lines = "<header class=\"contact\" data-role=\"header\" data-style=\"\(look.headerStyle.value.rawValue)\">\n"
        lines += avatar
        lines += "<h1 class=\"title\">\(HTMLText(content.headerTitle))</h1>\n"
        if let status = content.headerStatus {
            lines += "<p class=\"subtitle\">\(HTMLText(status))</p>\n"
        }
        lines += "<p class=\"subtitle\" data-role=\"reply-expectation\">\(HTMLText(content.replyExpectation))</p>\n</header>"
        return lines
    }

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

    private var fontStack: String {
        switch look.font.value {
        case .system: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans CJK JP', sans-serif"
        case .rounded: "ui-rounded, 'SF Pro Rounded', 'Nunito', 'Varela Round', 'Arial Rounded MT Bold', 'Noto Sans', sans-serif"
        case .serif: "ui-serif, 'New York', 'Noto Serif', Georgia, 'Times New Roman', serif"
        }
    }

    private static let chatGlyph = """
        <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true"><path fill="currentColor" d="M12 3C6.5 3 2 6.6 2 11c0 2.4 1.3 4.5 3.4 6l-.9 3.5 4-2.1c1.1.3 2.3.5 3.5.5 5.5 0 10-3.6 10-8s-4.5-8-10-8z"/></svg>
        """

    private var stylesheet: String {
        """
        *{box-sizing:border-box}
        body{margin:0;padding:24px;background:#8E8E93;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,sans-serif}
        .phones{display:flex;flex-wrap:wrap;gap:24px;justify-content:center}
        .phone{width:390px;min-height:780px;display:flex;flex-direction:column;background:var(--bg);color:var(--text);font-family:var(--font);border-radius:44px;padding:20px 16px;box-shadow:0 8px 30px rgba(0,0,0,.35);overflow:hidden}
        .appearance-label{margin:0 0 6px;font-size:11px;text-transform:uppercase;letter-spacing:.08em;color:var(--muted);text-align:center}
        .contact{text-align:center;padding-bottom:10px;border-bottom:1px solid var(--team-fill)}
        .avatar{width:52px;height:52px;margin:0 auto 6px;display:flex;align-items:center;justify-content:center;font-size:24px;font-weight:600}
        .avatar.person{border-radius:50%;background:var(--team-fill);color:var(--team-text)}
        .avatar.icon{border-radius:12px;background:var(--fill);color:var(--on-fill)}
        .title{margin:0;font-size:17px;font-weight:600}
        .subtitle{margin:2px 0 0;font-size:13px;color:var(--muted)}
        .thread{flex:1;display:flex;flex-direction:column;gap:6px;padding:12px 0}
        .welcome{text-align:center;padding:8px 12px 14px}
        .welcome h2{margin:0 0 4px;font-size:22px}
        .welcome p{margin:0 0 8px;font-size:15px}
        .welcome .prompt{color:var(--muted);font-size:13px}
        .topics{display:flex;flex-wrap:wrap;gap:8px;justify-content:center}
        .topic{border:1px solid var(--tint);color:var(--tint);border-radius:999px;padding:6px 12px;font-size:15px}
        .day{text-align:center;font-size:12px;color:var(--muted);margin:8px 0 2px}
        .row{display:flex}
        .bubble{max-width:75%;margin:0;padding:8px 12px;font-size:16px;line-height:1.3;border-radius:var(--radius);overflow-wrap:anywhere}
        .bubble.person{margin-inline-start:auto;background:var(--fill);color:var(--on-fill);border-end-end-radius:4px}
        .bubble.team{margin-inline-end:auto;background:var(--team-fill);color:var(--team-text);border-end-start-radius:4px}
        .bubble.photo{font-style:italic}
        .bubble.held{box-shadow:0 0 0 2px var(--bg),0 0 0 3px var(--muted)}
        .link{color:var(--tint);text-decoration:underline}
        .status{margin:0;font-size:12px;color:var(--muted);text-align:end}
        .card{margin:6px 0;padding:12px;border-radius:var(--radius);background:var(--bg);color:var(--text);border:1px solid var(--team-fill);max-width:75%}
        .link-card{margin-inline-end:auto}
        .card-title{margin:0 0 2px;font-weight:600}
        .card-note{margin:0 0 8px;font-size:13px;color:var(--muted)}
        .card-action{color:var(--tint);font-weight:600}
        .plan-status{margin:6px 0;text-align:center;font-size:13px;color:var(--muted)}
        .banner{margin:0 0 8px;padding:8px 12px;border-radius:var(--radius);background:var(--team-fill);color:var(--team-text);font-size:14px;text-align:center}
        .lockup{margin:0 0 6px;text-align:center;font-size:14px;color:var(--muted);opacity:.9}
        .composer{display:flex;align-items:center;gap:8px}
        .attach{width:34px;height:34px;border-radius:50%;background:var(--team-fill);color:var(--muted);display:flex;align-items:center;justify-content:center;font-size:22px}
        .field{flex:1;border:1px solid var(--team-fill);border-radius:999px;padding:8px 14px;color:var(--muted);font-size:16px}
        .send{width:34px;height:34px;border-radius:50%;background:var(--fill);color:var(--on-fill);display:flex;align-items:center;justify-content:center;font-weight:700}
        """
    }
}
