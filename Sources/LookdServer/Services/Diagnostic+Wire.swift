import LookResolver
import StableJSON

extension Diagnostic {
    /// `{"code", "field", "layer", "message", "severity"}`, as the resolved look writes its diagnostics, for the
    /// daemon's answers (a refused publish's details, a publish's warnings). Written with `JSONWriter`.
    var wireValue: JSONValue {
        .object(["code": .string(code.rawValue), "field": .string(field), "layer": .string(layer.rawValue),
                 "message": .string(message), "severity": .string(severity.rawValue)])
    }
}
