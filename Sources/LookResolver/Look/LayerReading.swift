import StableJSON

/// One layer read field by field: the values that are valid, and a diagnostic for everything ignored.
struct LayerReading {
    var accent: AccentColor?
    var corners: Corners?
    var font: FontStyle?
    var headerStyle: HeaderStyle?
    var replyExpectation: LocalizedText?
    var topics: [Topic]?
    var appName: String?
    var appIconUrl: String?
    var hasBundleIcon: Bool?
    var branding: Bool?
    var diagnostics: [Diagnostic] = []

    /// Reads `json` as `layer`. A missing layer reads as empty; a layer that is not an object is ignored whole
    /// (`invalid_layer`). JSON `null` for a field means "not set". Diagnostics are ordered by field name (and,
    /// within a field, as found), so their order never depends on the order of the JSON members.
    init(_ json: borrowing JSONValue?, as layer: LookLayer) {
        switch json {
        case nil:
            return
        case .object(let object)?:
            // By index, in place (no iterator's copy of each member); the key is only compared.
            for index in object.members.indices {
                guard let field = LookField.byName[object.members[index].key] else {
                    unknown(object.members[index].key, layer)
                    continue
                }
                // `isNull`, not `if case .null = value`: a pattern match would copy the value first.
                guard !object.members[index].value.isNull else { continue }
                guard field.isAllowed(in: layer) else {
                    notAllowed(field, layer)
                    continue
                }
                read(field, object.members[index].value, layer)
            }
            sortDiagnostics()
        case let other?:
            diagnostics.append(Diagnostic(layer: layer, field: "", code: .invalidLayer, message: "a layer must be a JSON object of look fields, got a \(other.typeName)"))
        }
    }

    /// A member whose name is no look field.
    private mutating func unknown(_ name: String, _ layer: LookLayer) {
        diagnostics.append(Diagnostic(layer: layer, field: name, code: .unknownField, message: "'\(FieldReader.clip(name))' is not a look field this version knows; ignored"))
    }

    /// A field set in a layer that may not set it.
    private mutating func notAllowed(_ field: LookField, _ layer: LookLayer) {
        let allowed = field.allowedLayers.map(\.rawValue).joined(separator: " or ")
        diagnostics.append(Diagnostic(layer: layer, field: field.rawValue, code: .fieldNotAllowed, message: "\(field.rawValue) can only come from the \(allowed) layer; ignored"))
    }

    /// One field's value, read by the field's reader. Out of line: the member's key is then not copied for it
    /// (its value is, once, as the readers may release memory).
    @inline(never)
    private mutating func read(_ field: LookField, _ value: JSONValue, _ layer: LookLayer) {
        switch field {
        case .accent: accent = take(FieldReader.accent(value), layer)
        case .corners: corners = take(FieldReader.choice(value, field: field, as: Corners.self), layer)
        case .font: font = take(FieldReader.choice(value, field: field, as: FontStyle.self), layer)
        case .headerStyle: headerStyle = take(FieldReader.choice(value, field: field, as: HeaderStyle.self), layer)
        case .replyExpectation:
            replyExpectation = take(FieldReader.localizedText(value, field: field.rawValue, limit: LookLimits.replyExpectation), layer)
        case .topics: topics = take(FieldReader.topics(value), layer)
        case .appName: appName = take(FieldReader.appName(value), layer)
        case .appIconUrl: appIconUrl = take(FieldReader.appIconUrl(value), layer)
        case .hasBundleIcon: hasBundleIcon = take(FieldReader.bool(value, field: field), layer)
        case .branding: branding = take(FieldReader.bool(value, field: field), layer)
        }
    }

    /// The diagnostics, moved out; the reading is consumed (no empty array is made to take their place).
    consuming func takeDiagnostics() -> [Diagnostic] {
        diagnostics
    }

    /// Stable order: by the top-level field the diagnostic is about, then as found within that field.
    private mutating func sortDiagnostics() {
        guard diagnostics.count > 1 else { return }
        func topField(_ path: String) -> Substring { path.prefix { $0 != "." && $0 != "[" } }
        diagnostics = diagnostics.enumerated()
            .sorted { (topField($0.element.field), $0.offset) < (topField($1.element.field), $1.offset) }
            .map(\.element)
    }

    /// The reading's value, moved out (the reading is consumed), its problems as diagnostics.
    @inline(__always)
    private mutating func take<Value>(_ reading: consuming FieldReading<Value>, _ layer: LookLayer) -> Value? {
        if let problems = reading.problemList {
            for problem in problems {
                diagnostics.append(Diagnostic(layer: layer, field: problem.field, code: problem.code, message: problem.message))
            }
        }
        return reading.value.take()
    }
}

/// Validates one layer on its own: the diagnostics a resolution would report for it. A dashboard publish is
/// refused when any has severity `.error`; warnings (unknown fields and values) are accepted.
public func validateLayer(_ value: JSONValue, as layer: LookLayer) -> [Diagnostic] {
    LayerReading(value, as: layer).diagnostics
}
