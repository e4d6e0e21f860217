import Foundation
import Strings

/// Why a pattern is not a MessageFormat pattern lookd can convert. `offset` is in Unicode scalars.
public struct ICUMessageSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public let offset: Int

    public var description: String { "\(reason) at offset \(offset)" }
}

extension ICUMessage {
    /// Parses `pattern` with ICU's rules for apostrophes (`''` is an apostrophe; `'` before `{`, `}` or, in
    /// a plural branch, `#` starts quoted text up to the next lone `'`; any other `'` is literal).
    /// Throws `ICUMessageSyntaxError` for unbalanced braces, a missing argument name or branch, an unknown
    /// complex type, or branches nested deeper than `MessageNestingLimit.levels`. Pure; safe from any thread.
    public init(parsing pattern: String) throws {
        var parser = ICUMessageParser(scalars: Array(pattern.unicodeScalars))
        let message = try parser.message(inPlural: false)
        guard parser.index == parser.scalars.count else { throw parser.failure("unmatched '}'") }
        self = message
    }
}

/// A recursive-descent reader over the pattern's scalars.
struct ICUMessageParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    /// The nesting level of the message being read (ICU's: a top-level branch is 1).
    private var depth = 0

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    func failure(_ reason: String) -> ICUMessageSyntaxError { ICUMessageSyntaxError(reason: reason, offset: index) }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    /// Reads text and arguments up to an unquoted `}` (left unread) or the end.
    mutating func message(inPlural: Bool) throws -> ICUMessage {
        var nodes: [ICUMessage.Node] = []
        var text = String.UnicodeScalarView()
        func flush() {
            if !text.isEmpty { nodes.append(.text(String(text))) }
            text = String.UnicodeScalarView()
        }
        while let scalar = current {
            switch scalar {
            case "'":
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                if next == "'" {
                    text.append("'")
                    index += 2
                } else if let next, next == "{" || next == "}" || (inPlural && next == "#") {
                    index += 1
                    while true {
                        guard let quoted = current else { throw failure("unterminated quoted text") }
                        index += 1
                        if quoted == "'" {
                            if current == "'" { text.append("'"); index += 1 } else { break }
                        } else {
                            text.append(quoted)
                        }
                    }
                } else {
                    text.append("'")
                    index += 1
                }
            case "{":
                flush()
                index += 1
                nodes.append(try argument(inPlural: inPlural))
            case "}":
                flush()
                return ICUMessage(nodes)
            case "#" where inPlural:
                flush()
                nodes.append(.pound)
                index += 1
            default:
                text.append(scalar)
                index += 1
            }
        }
        flush()
        return ICUMessage(nodes)
    }

    private mutating func skipWhitespace() {
        while let scalar = current, scalar.properties.isPatternWhitespace { index += 1 }
    }

    private mutating func identifier() -> String {
        var name = String.UnicodeScalarView()
        while let scalar = current, !scalar.properties.isPatternWhitespace, !scalar.properties.isPatternSyntax {
            name.append(scalar)
            index += 1
        }
        return String(name)
    }

    /// After `{`: `name}`, `name, type}`, `name, type, style}` or a choice; consumes the closing `}`.
    private mutating func argument(inPlural: Bool) throws -> ICUMessage.Node {
        skipWhitespace()
        let name = identifier()
        guard !name.isEmpty else { throw failure("argument without a name") }
        skipWhitespace()
        if current == "}" {
            index += 1
            return .argument(name: name, type: nil, style: nil)
        }
        guard current == "," else { throw failure("expected ',' or '}' after argument '\(name)'") }
        index += 1
        skipWhitespace()
        let type = identifier()
        guard !type.isEmpty else { throw failure("argument '\(name)' without a type") }
        skipWhitespace()
        if let kind = ICUMessage.Choice.Kind(rawValue: type) {
            guard current == "," else { throw failure("\(type) argument '\(name)' without branches") }
            index += 1
            return .choice(try choice(name: name, kind: kind, inPlural: inPlural))
        }
        if current == "}" {
            index += 1
            return .argument(name: name, type: type, style: nil)
        }
        guard current == "," else { throw failure("expected ',' or '}' after the type of '\(name)'") }
        index += 1
        var style = String.UnicodeScalarView()
        var depth = 0
        while let scalar = current {
            if scalar == "{" { depth += 1 }
            if scalar == "}" {
                if depth == 0 { break }
                depth -= 1
            }
            style.append(scalar)
            index += 1
        }
        guard current == "}" else { throw failure("unterminated argument '\(name)'") }
        index += 1
        let trimmed = String(style).trimmingCharacters(in: .whitespaces)
        return .argument(name: name, type: type, style: trimmed)
    }

    private mutating func choice(name: String, kind: ICUMessage.Choice.Kind, inPlural: Bool) throws -> ICUMessage.Choice {
        var offset: Int?
        var cases: [ICUMessage.Case] = []
        while true {
            skipWhitespace()
            guard let scalar = current else { throw failure("unterminated \(kind.rawValue) argument '\(name)'") }
            if scalar == "}" {
                index += 1
                break
            }
            var key = String.UnicodeScalarView()
            if scalar == "=" {
                key.append(scalar)
                index += 1
            }
            key.append(contentsOf: identifier().unicodeScalars)
            if kind != .select, cases.isEmpty, offset == nil, String(key) == "offset", current == ":" {
                index += 1
                skipWhitespace()
                let digits = identifier()
                guard let value = Int(digits) else { throw failure("offset of '\(name)' is not a number") }
                offset = value
                continue
            }
            guard key.count > (key.first == "=" ? 1 : 0) else { throw failure("expected a branch key in '\(name)'") }
            skipWhitespace()
            guard current == "{" else { throw failure("branch '\(String(key))' of '\(name)' without a message") }
            index += 1
            guard depth < MessageNestingLimit.levels else {
                throw failure("branches nested deeper than \(MessageNestingLimit.levels) levels")
            }
            depth += 1
            let message = try message(inPlural: inPlural || kind != .select)
            depth -= 1
            guard current == "}" else { throw failure("unterminated branch '\(String(key))' of '\(name)'") }
            index += 1
            cases.append(ICUMessage.Case(key: String(key), message: message))
        }
        guard cases.contains(where: { $0.key == "other" }) else { throw failure("\(kind.rawValue) argument '\(name)' has no 'other' branch") }
        return ICUMessage.Choice(name: name, kind: kind, offset: offset, cases: cases)
    }
}
