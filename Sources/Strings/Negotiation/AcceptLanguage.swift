/// An HTTP `Accept-Language` header (RFC 9110 §12.5.4), parsed leniently.
public enum AcceptLanguage {
    /// At most this many entries of a header are read; the rest are ignored.
    public static let maximumEntries = 32
    /// Entries whose tag is longer than this many UTF-8 bytes are ignored (no real tag comes close).
    public static let maximumTagLength = 80

    /// The language tags of a header, most preferred first: sorted by quality (`q`, 0…1, default 1),
    /// ties kept in header order. Never throws. Skipped: `*`, empty entries, `q=0`, entries whose `q` is not
    /// a number in 0…1 (`garbage;;q=x`), over-long tags, and everything after the first
    /// `maximumEntries` entries. `_` is read as `-`. The tags are not validated here (the matcher does that).
    public static func parse(_ header: String) -> [String] {
        var entries: [(tag: String, quality: Double, position: Int)] = []
        var position = 0
        for rawEntry in header.split(separator: ",", omittingEmptySubsequences: true) {
            if position >= maximumEntries { break }
            position += 1
            let parts = rawEntry.split(separator: ";", omittingEmptySubsequences: false)
            guard let rawTag = parts.first else { continue }
            let tag = LanguageTag.normalizeSeparators(rawTag)
            if tag.isEmpty || tag == "*" || tag.utf8.count > maximumTagLength { continue }
            var quality = 1.0
            var valid = true
            for parameter in parts.dropFirst() {
                let text = LanguageTag.normalizeSeparators(parameter)
                if text.isEmpty { continue }
                guard text.hasPrefix("q=") || text.hasPrefix("Q=") else { continue }
                guard let value = Double(text.dropFirst(2)), value >= 0, value <= 1 else {
                    valid = false
                    break
                }
                quality = value
            }
            if !valid || quality <= 0 { continue }
            entries.append((tag, quality, position))
        }
        entries.sort { $0.quality != $1.quality ? $0.quality > $1.quality : $0.position < $1.position }
        return entries.map(\.tag)
    }
}
