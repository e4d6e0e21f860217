import Foundation

/// The comment an exported string carries: the source description for translators, then lookd's own lines
/// (`[lookd] maxLength: 48`, `[lookd] arguments: 1 product; 2 date, date, ::dMMM`) — the length limit and
/// what each numbered argument is (a date's skeleton for the app to format it). Import reads them back, so
/// the description and limit survive the round trip. A value type.
public struct EntryComment: Sendable, Hashable {
    public var description: String?
    public var maxLength: Int?
    public var legend: ArgumentLegend?
    /// Set by the Android export when the source's plural has text around it, which Android resources carry
    /// inside each item (`PrintfMessage.textMovedIntoPlural`); import moves it back out.
    public var textAroundPlural = false

    static let maxLengthPrefix = "[lookd] maxLength: "
    static let argumentsPrefix = "[lookd] arguments: "
    static let textAroundPluralLine = "[lookd] text around the plural"

    public init(description: String?, maxLength: Int?, legend: ArgumentLegend?) {
        self.description = description
        self.maxLength = maxLength
        self.legend = legend?.entries.isEmpty == true ? nil : legend
    }

    /// The comment text; nil when there is nothing to say.
    public var text: String? {
        var lines: [String] = []
        if let description { lines.append(description) }
        if let maxLength { lines.append(Self.maxLengthPrefix + String(maxLength)) }
        if let legend { lines.append(Self.argumentsPrefix + legend.line) }
        if textAroundPlural { lines.append(Self.textAroundPluralLine) }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Reads a comment: trailing `[lookd] …` lines are lookd's, the rest is the description.
    public init(text: String?) {
        guard let text else { return }
        // Every line of lookd's starts "[lookd] ": without a `[`, the whole text is the description (splitting
        // every note into lines was 4.6% of the `lint-xliff` bench's lint time).
        guard text.containsUTF8(UInt8(ascii: "[")) else {
            description = text
            return
        }
        var lines = text.components(separatedBy: "\n")
        while let last = lines.last {
            if last == Self.textAroundPluralLine, legend == nil, maxLength == nil, !textAroundPlural {
                textAroundPlural = true
            } else if last.hasPrefix(Self.argumentsPrefix), legend == nil, maxLength == nil,
               let parsed = ArgumentLegend(line: String(last.dropFirst(Self.argumentsPrefix.count))) {
                legend = parsed
            } else if last.hasPrefix(Self.maxLengthPrefix), maxLength == nil, let limit = Int(last.dropFirst(Self.maxLengthPrefix.count)) {
                maxLength = limit
            } else {
                break
            }
            lines.removeLast()
        }
        description = lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
