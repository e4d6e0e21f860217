import Strings

/// An Android export shaped by the `strings.xml` files an import read (the *original*, kept beside the
/// catalogs): each file keeps its bytes — XML declaration, `<resources>` attributes (`xmlns:tools`,
/// `tools:ignore`), comments, `translatable="false"` strings, `string-array`s, strings with markup, `<xliff:g>`
/// spans, `@string/…` references, the spelling of specifiers and escapes — and only the resources the catalogs
/// changed since the import are touched: a changed `<string>`/`<plurals>` is replaced by lookd's rendering of
/// it (`AndroidResourcesFormat`) with its specifiers spelled as the file spelled that resource (else as the
/// English file spells it) where the meaning stays (`PrintfSpecifierSpelling`: `%s %d` stays sequential, `%1$s`
/// stays positional), one removed from the catalogs is removed with its line, a new one is added before
/// `</resources>`. A locale the original has no file for gets lookd's whole file, spelled as the English file
/// spells each resource. Pure.
enum AndroidResourcesTemplate {
    static func merge(original: FormatFiles, imported: CatalogContent, content: CatalogContent, fresh: FormatFiles) -> FormatFiles {
        let before = StringCatalogTemplate.states(imported)
        let now = StringCatalogTemplate.states(content)
        var output: [String: [UInt8]] = [:]
        var covered: Set<CatalogLocale> = []
        let englishSpelling = original.files[AndroidQualifier.directories(for: .english)[0] + "/" + AndroidResourcesFormat.fileName]
            .map(spellings(of:)) ?? [:]
        for (path, bytes) in original.files {
            let parts = path.split(separator: "/")
            guard parts.count >= 2, let (locale, _) = AndroidQualifier.locale(ofDirectory: String(parts[parts.count - 2])) else {
                output[path] = bytes
                continue
            }
            covered.insert(locale)
            let freshFile = fresh.files[AndroidQualifier.directories(for: locale)[0] + "/" + AndroidResourcesFormat.fileName]
            output[path] = file(bytes, locale: locale, fresh: freshFile, before: before, now: now, englishSpelling: englishSpelling)
        }
        for (path, bytes) in fresh.files {
            let parts = path.split(separator: "/")
            guard parts.count >= 2, let (locale, _) = AndroidQualifier.locale(ofDirectory: String(parts[parts.count - 2])), !covered.contains(locale) else { continue }
            // lookd's whole file, each resource spelled as the English file spells it.
            var file: [UInt8] = []
            var cursor = 0
            for span in XMLTopLevelSpans(bytes).spans where span.element == "string" || span.element == "plurals" {
                file += bytes[cursor..<span.range.lowerBound]
                file += respelled(Array(bytes[span.range]), span.name.flatMap { englishSpelling[$0] })
                cursor = span.range.upperBound
            }
            output[path] = file + bytes[cursor...]
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

    /// The text between an element's tags (a `<string>`'s text, each `<item>`'s), where specifiers are.
    private static func texts(_ element: ArraySlice<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for index in element.indices {
            switch element[index] {
            case UInt8(ascii: ">"): start = index + 1
            case UInt8(ascii: "<"):
                if let open = start, open < index { ranges.append(open..<index) }
                start = nil
            default: break
            }
        }
        return ranges
    }

    /// How each `<string>` and `<plurals>` of a `strings.xml` spells its specifiers, by resource name.
    private static func spellings(of bytes: [UInt8]) -> [String: PrintfSpecifierSpelling] {
        var result: [String: PrintfSpecifierSpelling] = [:]
        for span in XMLTopLevelSpans(bytes).spans where span.element == "string" || span.element == "plurals" {
            guard let name = span.name, result[name] == nil else { continue }
            let values = texts(bytes[span.range]).map { String(decoding: bytes[$0], as: UTF8.self) }
            result[name] = PrintfSpecifierSpelling(values: values)
        }
        return result
    }

    /// `element` (lookd's rendering of a changed resource) with each text respelled by `spelling`.
    private static func respelled(_ element: [UInt8], _ spelling: PrintfSpecifierSpelling?) -> [UInt8] {
        guard let spelling else { return element }
        var output: [UInt8] = []
        var cursor = 0
        for range in texts(element[...]) {
            output += element[cursor..<range.lowerBound]
            output += Array(spelling.respelling(String(decoding: element[range], as: UTF8.self)).utf8)
            cursor = range.upperBound
        }
        return output + element[cursor...]
    }

    private static func file(_ bytes: [UInt8], locale: CatalogLocale, fresh: [UInt8]?, before: [String: StringCatalogTemplate.KeyState],
                             now: [String: StringCatalogTemplate.KeyState], englishSpelling: [String: PrintfSpecifierSpelling]) -> [UInt8] {
        let spans = XMLTopLevelSpans(bytes)
        let freshBytes = fresh ?? []
        let freshSpans = XMLTopLevelSpans(freshBytes).spans.filter { $0.name != nil }
        let freshByName = Dictionary(freshSpans.map { ($0.name!, $0) }, uniquingKeysWith: { first, _ in first })
        let ownSpelling = spellings(of: bytes)
        func freshText(_ span: XMLTopLevelSpans.Span, withComment: Bool) -> [UInt8] {
            let element = respelled(Array(freshBytes[span.range]), span.name.flatMap { ownSpelling[$0] ?? englishSpelling[$0] })
            guard withComment, let comment = span.comment else { return element }
            return Array(freshBytes[comment]) + Array("\n    ".utf8) + element
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
