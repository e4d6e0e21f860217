import Foundation
import StableJSON

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
    /// The bytes are read by StableJSON's strict ``JSONReader`` (RFC 8259 exactly: UTF-8 without a byte order
    /// mark, no trailing commas or comments, no duplicate key in any object; numbers kept as written).
    /// Throws ``LookInputError`` when the bytes are not such JSON (its message names the problem and its line
    /// and column, its ``LookInputError/readError`` carries the reader's stable code), the top level is not an
    /// object, or it has a key other than the three layers. Problems *inside* a layer are not errors here: they
    /// become diagnostics.
    public init(json data: some Collection<UInt8>, limits: JSONReader.Limits = .default) throws {
        let value: JSONValue
        do {
            value = try JSONReader.read(data, limits: limits)
        } catch let error as JSONReadError {
            throw LookInputError(message: "the input is not valid JSON: \(error.description)", readError: error)
        }
        guard case .object(let members) = value else {
            throw LookInputError(message: "the input must be a JSON object with the keys dashboard, code and inferred; got a \(value.typeName)")
        }
        // The keys come sorted: the first unknown one named is the same whatever the input's order.
        for key in members.keys where LookLayer(rawValue: key).map({ LookLayer.inputs.contains($0) }) != true {
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
    /// The JSON reader's error (code, line, column, offset) when the bytes were not JSON; nil otherwise.
    public var readError: JSONReadError?
    public init(message: String, readError: JSONReadError? = nil) {
        self.message = message
        self.readError = readError
    }
    public var description: String { message }
}
