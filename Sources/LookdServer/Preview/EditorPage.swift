import LookResolver
import StableJSON

/// The live look editor for designers: one self-contained page (inline CSS and one inline script, nothing loaded
/// from anywhere) with controls for the accent (one, or light and dark), corners, font and header style beside the
/// chat's phones. Every change is resolved by lookd through `POST /v1/looks/resolve` from the page's script
/// (``EditorScript``) and drawn without a reload, with each adjustment lookd made and why, the values it ignored,
/// and the layer to save as a draft.
///
/// The server draws the first state: the phones for the starting layer (each with a contact header per style, the
/// look's shown and the others `hidden`, so the script never builds markup) and the controls set from the layer.
/// The layer itself travels in the editor element's `data-layer` attribute, escaped like every team text.
struct EditorPage {
    /// The dashboard layer the editor starts from (`{}` for the defaults). Fields the editor has no control for
    /// (app name, topics, …) are kept as they are in every layer it sends.
    var layer: JSONValue
    /// The starting layer resolved (as `POST /v1/looks/resolve` would).
    var look: ResolvedLook
    /// The phones' words, one per header style (the title and status line depend on it), in one locale.
    var contents: [HeaderStyle: PreviewContent]
    var panels: [PreviewPanel]
    /// Set when the layer is an app's draft opened with a preview token: shown above the controls.
    var chatLink: String?

    /// The page. `contents` must hold a value for every header style.
    func html() -> String {
        guard let content = contents[look.headerStyle.value] else { preconditionFailure("the editor needs the words for every header style") }
        var page = PreviewPage.documentStart(lang: "en", direction: "ltr", title: "Look editor",
                                             style: PreviewPage(look: look, content: content, panels: []).stylesheet + Self.style,
                                             policy: EditorScript.contentSecurityPolicy)
        if let chatLink { page += PreviewPage.chatLinkParagraph(chatLink) }
        page += """
            <main class="editor" id="editor" data-role="editor" data-revision="0" data-resolve="../looks/resolve" \
            data-layer="\(HTMLText(JSONWriter.string(layer)))" data-fonts="\(HTMLText(JSONWriter.string(Self.fonts)))">
            \(controls)
            <div class="phones" data-role="phones">

            """
        for panel in panels {
            var headers = ""
            for style in HeaderStyle.allCases {
                guard let words = contents[style] else { continue }
                var variant = look
                variant.headerStyle.value = style
                headers += PreviewPage(look: variant, content: words, panels: []).contactHeader(hidden: style != look.headerStyle.value) + "\n"
            }
            page += PreviewPage(look: look, content: content, panels: [panel]).phone(panel, header: headers)
        }
        return page + "</div>\n</main>\n<script>" + EditorScript.source + "</script>\n</body>\n</html>\n"
    }

    /// Font value → the CSS stack the phones draw it with, for the script.
    private static var fonts: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: FontStyle.allCases.map { ($0.rawValue, JSONValue.string(PreviewPage.fontStack($0))) }))
    }

    private var controls: String {
        let accent = layer["accent"]
        let light = accent?.stringValue ?? accent?["light"]?.stringValue ?? ""
        let dark = accent?["dark"]?.stringValue ?? ""
        let split = accent?.objectValue != nil
        return """
            <section class="controls" data-role="controls">
            <h1>Look editor</h1>
            <p class="hint">Every change is resolved by lookd as you make it. Nothing is saved: put the layer below in the \
            app's draft (<code>PUT /v1/apps/{appKey}/look/draft</code>) to keep it.</p>
            <div class="control"><label for="accent-hex">Accent</label>
            <input type="color" id="accent" data-role="accent" value="\(Self.pickerValue(light, or: look.accent.value.light))" aria-label="Accent colour">
            <input type="text" id="accent-hex" data-role="accent-hex" value="\(HTMLText(light))" placeholder="\(look.accent.value.light.hex)" \
            spellcheck="false" autocomplete="off" maxlength="64"></div>
            <div class="control"><label><input type="checkbox" data-role="accent-dark-on"\(split ? " checked" : "")> A different accent in dark</label></div>
            <div class="control"><label for="accent-dark-hex">Dark accent</label>
            <input type="color" id="accent-dark" data-role="accent-dark" value="\(Self.pickerValue(dark, or: look.accent.value.dark))" aria-label="Dark accent colour">
            <input type="text" id="accent-dark-hex" data-role="accent-dark-hex" value="\(HTMLText(dark))" placeholder="\(look.accent.value.dark.hex)" \
            spellcheck="false" autocomplete="off" maxlength="64"></div>
            \(Self.select("corners", "Corners", layer["corners"]?.stringValue, Corners.allCases.map { ($0.rawValue, "\($0.rawValue) (\($0.radius) pt)") }))
            \(Self.select("font", "Font", layer["font"]?.stringValue, FontStyle.allCases.map { ($0.rawValue, $0.rawValue) }))
            \(Self.select("header-style", "Header style", layer["headerStyle"]?.stringValue, HeaderStyle.allCases.map { ($0.rawValue, $0.rawValue) }))
            <p class="editor-status" data-role="status" role="status" data-state="loading">Resolving…</p>
            <h2>What lookd adjusted, and why</h2>
            <ol class="adjustments" data-role="adjustments"></ol>
            <h2>Values lookd ignored</h2>
            <ul class="diagnostics" data-role="diagnostics"></ul>
            <h2>The resolved fields</h2>
            <dl class="fields" data-role="fields"></dl>
            <h2>The layer</h2>
            <pre class="layer" data-role="layer"></pre>
            </section>
            """
    }

    /// A `<select>` with "not set" (the field is left out of the layer) and `options` (value, label); `current`
    /// selected when it is one of them.
    private static func select(_ role: String, _ label: String, _ current: String?, _ options: [(String, String)]) -> String {
        var html = "<div class=\"control\"><label for=\"\(role)\">\(label)</label> <select id=\"\(role)\" data-role=\"\(role)\">\n"
        html += "<option value=\"\"\(options.contains { $0.0 == current } ? "" : " selected")>not set</option>\n"
        for (value, text) in options {
            html += "<option value=\"\(value)\"\(value == current ? " selected" : "")>\(HTMLText(text))</option>\n"
        }
        return html + "</select></div>"
    }

    /// A colour input's value (`#rrggbb`, lowercase, as HTML requires): `text` when it is a colour, else `fallback`.
    private static func pickerValue(_ text: String, or fallback: RGBColor) -> String {
        (RGBColor(hex: text) ?? fallback).hex.lowercased()
    }

    private static let style = """

        .editor{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}
        .controls{flex:0 0 360px;background:#fff;color:#000;border-radius:12px;padding:16px 18px;font-size:15px;line-height:1.4}
        .controls h1{margin:0 0 6px;font-size:22px}
        .controls h2{margin:16px 0 6px;font-size:16px}
        .controls .hint{margin:0 0 12px;color:#3C3C43}
        .controls .control{margin:0 0 10px;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
        .controls .control>label:first-child{min-width:96px;font-weight:600}
        .controls input[type=text]{font:inherit;font-family:ui-monospace,Menlo,Consolas,monospace;width:9em;padding:4px 6px}
        .controls select{font:inherit;padding:3px 4px}
        .editor-status{margin:12px 0 0;font-weight:600}
        .editor-status[data-state=error]{color:#B00020}
        .controls .adjustments,.controls .diagnostics{margin:0;padding-inline-start:20px}
        .controls li{margin:0 0 8px}
        .controls li p{margin:0 0 2px}
        .controls .swatch{display:inline-block;width:14px;height:14px;border-radius:3px;border:1px solid #6C6C70;vertical-align:middle;margin:0 4px}
        .controls .fields{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:0}
        .controls dt{font-weight:600}
        .controls dd{margin:0}
        .controls .layer{background:#F2F2F7;color:#000;padding:8px;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px;margin:0}
        .editor>.phones{flex:1 1 400px}
        """
}
