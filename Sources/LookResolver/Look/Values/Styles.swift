/// Bubble and card corner style.
public enum Corners: String, Sendable, Codable, CaseIterable, Hashable {
    case round, soft, square

    /// The corner radius in points: round 18, soft 12, square 6.
    public var radius: Int {
        switch self {
        case .round: 18
        case .soft: 12
        case .square: 6
        }
    }
}

/// The chat's type family: the system font, its rounded design, or its serif design.
public enum FontStyle: String, Sendable, Codable, CaseIterable, Hashable {
    case system, rounded, serif
}

/// What the contact header shows: a teammate (`person`), the team, or the app.
public enum HeaderStyle: String, Sendable, Codable, CaseIterable, Hashable {
    case person, team, app
}

/// A style chosen by name in a layer: one of a few raw values.
protocol NamedChoice: RawRepresentable<String>, CaseIterable {
    /// The case whose raw value is `name` exactly, or nil: `init(rawValue:)` as a `switch` on the name's length
    /// (each type's names differ in length) and one comparison (the synthesized one searches a table of names,
    /// and every resolve reads up to three styles per layer).
    init?(name: borrowing String)
}

extension Corners: NamedChoice {
    @inline(__always)
    init?(name: borrowing String) {
        switch name.utf8.count {
        case 5 where name == "round": self = .round
        case 4 where name == "soft": self = .soft
        case 6 where name == "square": self = .square
        default: return nil
        }
    }
}

extension FontStyle: NamedChoice {
    @inline(__always)
    init?(name: borrowing String) {
        switch name.utf8.count {
        case 6 where name == "system": self = .system
        case 7 where name == "rounded": self = .rounded
        case 5 where name == "serif": self = .serif
        default: return nil
        }
    }
}

extension HeaderStyle: NamedChoice {
    @inline(__always)
    init?(name: borrowing String) {
        switch name.utf8.count {
        case 6 where name == "person": self = .person
        case 4 where name == "team": self = .team
        case 3 where name == "app": self = .app
        default: return nil
        }
    }
}
