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
