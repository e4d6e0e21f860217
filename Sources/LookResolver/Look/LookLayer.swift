import Foundation

/// Where a look field's value came from, highest precedence first.
public enum LookLayer: String, Sendable, Codable, CaseIterable, Hashable {
    /// Published in the dashboard; carries only the fields the team set.
    case dashboard
    /// Set in the app's code (`config.appearance`).
    case code
    /// Inferred from the app: AccentColor asset, bundle name, bundle icon.
    case inferred
    /// The SDK's default.
    case `default`

    /// The layers that carry input, in precedence order.
    public static let inputs: [LookLayer] = [.dashboard, .code, .inferred]
}

/// The input of a resolution: one JSON object per layer, any of them absent.
public struct LookLayers: Sendable, Hashable {
    public var dashboard: JSONValue?
    public var code: JSONValue?
    public var inferred: JSONValue?

    public init(dashboard: JSONValue? = nil, code: JSONValue? = nil, inferred: JSONValue? = nil) {
        self.dashboard = dashboard
        self.code = code
        self.inferred = inferred
    }

    /// Reads `{"dashboard": {...}, "code": {...}, "inferred": {...}}`; any layer may be absent or null.
    /// Throws ``LookInputError`` when the bytes are not JSON, the top level is not an object, or it has a key
    /// other than the three layers. Problems *inside* a layer are not errors here: they become diagnostics.
    public init(json data: Data) throws {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw LookInputError(message: "the input is not valid JSON")
        }
        guard case .object(let members) = value else {
            throw LookInputError(message: "the input must be a JSON object with the keys dashboard, code and inferred; got a \(value.typeName)")
        }
        for key in members.keys.sorted() where LookLayer(rawValue: key).map({ LookLayer.inputs.contains($0) }) != true {
            throw LookInputError(message: "unknown layer '\(key)': the input's keys are dashboard, code and inferred")
        }
        func layer(_ name: String) -> JSONValue? {
            guard let value = members[name], value != .null else { return nil }
            return value
        }
        self.init(dashboard: layer("dashboard"), code: layer("code"), inferred: layer("inferred"))
    }

    public subscript(layer: LookLayer) -> JSONValue? {
        switch layer {
        case .dashboard: dashboard
        case .code: code
        case .inferred: inferred
        case .default: nil
        }
    }
}

/// The resolver's input could not be read at all (as opposed to a bad value inside a layer, which is a ``Diagnostic``).
public struct LookInputError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
