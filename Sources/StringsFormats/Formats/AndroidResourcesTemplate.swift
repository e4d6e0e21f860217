import Strings

/// An Android export shaped by the `strings.xml` files an import read (the *original*, kept beside the
/// catalogs): each file keeps its bytes — XML declaration, `<resources>` attributes (`xmlns:tools`,
/// `tools:ignore`), comments, `translatable="false"` strings, `string-array`s, strings with markup, `<xliff:g>`
/// spans, `@string/…` references, the spelling of specifiers and escapes — and only the resources the catalogs
/// changed since the import are touched: a changed `<string>`/`<plurals>` is replaced by lookd's rendering of
/// it (`AndroidResourcesFormat`), one removed from the catalogs is removed with its line, a new one is added
/// before `</resources>`. A locale the original has no file for gets lookd's whole file. Pure.
enum AndroidResourcesTemplate {
    static func merge(original: FormatFiles, imported: CatalogContent, content: CatalogContent, fresh: FormatFiles) -> FormatFiles {
        let before = StringCatalogTemplate.states(imported)
        let now = StringCatalogTemplate.states(content)
        var output: [String: [UInt8]] = [:]
        var covered: Set<CatalogLocale> = []
        for (path, bytes) in original.files {
            let parts = path.split(separator: "/")
            guard parts.count >= 2, let (locale, _) = AndroidQualifier.locale(ofDirectory: String(parts[parts.count - 2])) else {
                output[path] = bytes
                continue
            }
            covered.insert(locale)
            let freshFile = fresh.files[AndroidQualifier.directories(for: locale)[0] + "/" + AndroidResourcesFormat.fileName]
            output[path] = file(bytes, locale: locale, fresh: freshFile, before: before, now: now)
        }
        for (path, bytes) in fresh.files {
            let parts = path.split(separator: "/")
            guard parts.count >= 2, let (locale, _) = AndroidQualifier.locale(ofDirectory: String(parts[parts.count - 2])), !covered.contains(locale) else { continue }
            output[path] = bytes
        }
        return FormatFiles(output)
    }

    private static func value(_ state: StringCatalogTemplate.KeyState?, locale: CatalogLocale) -> String? {
        locale == .english ? state?.source?.message : state?.patterns[locale]
    }

    /// Where the line holding `index` starts, when only spaces or tabs come before it on that line; else `index`.
    private static func lineStart(_ bytes: [UInt8], _ index: Int) -> Int {
        var start = index
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        return start == 0 || bytes[start - 1] == 0x0A ? start : index
    }

    private static func file(_ bytes: [UInt8], locale: CatalogLocale, fresh: [UInt8]?, before: [String: StringCatalogTemplate.KeyState],
                             now: [String: StringCatalogTemplate.KeyState]) -> [UInt8] {
        let spans = XMLTopLevelSpans(bytes)
        let freshBytes = fresh ?? []
        let freshSpans = XMLTopLevelSpans(freshBytes).spans.filter { $0.name != nil }
        let freshByName = Dictionary(freshSpans.map { ($0.name!, $0) }, uniquingKeysWith: { first, _ in first })
        func freshText(_ span: XMLTopLevelSpans.Span, withComment: Bool) -> [UInt8] {
            guard withComment, let comment = span.comment else { return Array(freshBytes[span.range]) }
            return Array(freshBytes[comment]) + Array("\n    ".utf8) + Array(freshBytes[span.range])
        }
        var output: [UInt8] = []
        var cursor = 0
        var present: Set<String> = []
        for span in spans.spans {
            guard let name = span.name, span.element == "string" || span.element == "plurals" else { continue }
            present.insert(name)
            let key = SelectCase.parse(androidName: name)?.name ?? name
            let (old, new) = (before[key], now[key])
            let metadataChanged = locale == .english && (old?.source?.description != new?.source?.description || old?.source?.maxLength != new?.source?.maxLength)
            guard value(old, locale: locale) != value(new, locale: locale) || metadataChanged else { continue }
            if let replacement = freshByName[name] {
                let start = metadataChanged ? (span.comment?.lowerBound ?? span.range.lowerBound) : span.range.lowerBound
                output += bytes[cursor..<start]
                output += freshText(replacement, withComment: metadataChanged)
                cursor = span.range.upperBound
            } else if value(old, locale: locale) != nil {
                // Imported, then removed from the catalogs: the element and its line go.
                let start = lineStart(bytes, span.range.lowerBound)
                output += bytes[cursor..<start]
                cursor = span.range.upperBound
                if start != span.range.lowerBound, cursor < bytes.count, bytes[cursor] == 0x0A { cursor += 1 }
            }
        }
        let end = lineStart(bytes, spans.rootEnd)
        output += bytes[cursor..<end]
        for span in freshSpans where !present.contains(span.name!) {
            output += Array("    ".utf8) + freshText(span, withComment: locale == .english) + [0x0A]
        }
        output += bytes[end...]
        return output
    }
}
