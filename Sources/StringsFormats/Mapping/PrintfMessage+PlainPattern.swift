extension PrintfMessage {
    /// The ICU pattern of a message of text and arguments only (no plural, no `#`), written straight from its
    /// pieces: what `icuMessage(legend:locale:sourceExactZero:key:).pattern` gives, without the `ICUMessage` built
    /// between; nil for any other message. Consecutive text pieces are quoted as one text, as `icuMessage` joins
    /// them. Throws the same `ConversionError` for an argument the legend does not have.
    ///
    /// Most units of Xcode exports and Android files are such messages: building and printing their ICU messages
    /// was 23 of the 338 million instructions of `lookd lint` on one `lint-xliff` bench file, writing them straight
    /// takes 16, and the run 324 (callgrind, 2 Dec 2026).
    func plainPattern(legend: ArgumentLegend, locale: CatalogLocale, key: String) throws -> String? {
        guard plurals.isEmpty else { return nil }
        // A message of one text (a string without arguments) is that text quoted, returned as it is when nothing
        // needs quoting: no buffer written and decoded again.
        if template.count == 1, case .text(let only) = template[0] { return ICUMessage.quote(only, inPlural: false, followed: false) }
        var output: [UInt8] = []
        output.reserveCapacity(64)
        var text: String?
        for piece in template {
            switch piece {
            case .text(let more):
                text = text.map { $0 + more } ?? more
            case .argument(let number):
                guard number >= 1, number <= legend.entries.count else {
                    throw ConversionError(key: key, locale: locale.identifier, reason: "argument \(number) is not in the source message")
                }
                if let pending = text {
                    ICUMessage.appendUTF8(ICUMessage.quote(pending, inPlural: false, followed: true), to: &output)
                    text = nil
                }
                let entry = legend.entries[number - 1]
                ICUMessage.writeArgument(name: entry.name, type: entry.type, style: entry.style, into: &output)
            case .count, .plural:
                return nil
            }
        }
        if let pending = text { ICUMessage.appendUTF8(ICUMessage.quote(pending, inPlural: false, followed: false), to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The ICU pattern of a message whose source has no plural (so no `=0` branch to keep, `ZeroCaseRule`):
    /// `plainPattern` when the message is text and arguments only, else the pattern of `icuMessage` — what
    /// `PrintfCatalog` writes for such a unit. Throws the same `ConversionError` for an argument the legend does
    /// not have.
    func icuPattern(legend: ArgumentLegend, locale: CatalogLocale, key: String) throws -> String {
        if let plain = try plainPattern(legend: legend, locale: locale, key: key) { return plain }
        return try icuMessage(legend: legend, locale: locale, sourceExactZero: [], key: key).pattern
    }
}
