import LookResolver
import StableJSON

/// The accessibility evidence for one look (`GET /v1/apps/{appKey}/look/report`, `lookd report`): the resolved
/// look's ``AccessibilityReport`` and what it is the report of — an app's published version or its draft, or
/// layers resolved locally. Rendered as JSON (``jsonBytes()``) or as a page (``ReportPage``).
public struct LookReport: Sendable {
    /// The app, or nil for layers resolved locally.
    public var appKey: String?
    /// The published version, or the draft's own version (see ``draft``); nil for layers resolved locally.
    public var version: Int?
    /// True when this is the report of the app's unpublished draft.
    public var draft: Bool
    public var look: ResolvedLook
    public var report: AccessibilityReport

    public init(appKey: String?, version: Int?, draft: Bool, look: ResolvedLook) {
        self.appKey = appKey
        self.version = version
        self.draft = draft
        self.look = look
        report = AccessibilityReport(palette: look.palette)
    }

    /// The report's JSON (``AccessibilityReport/jsonValue``) with `appKey`, `version` and `draft` (null where not
    /// known), compact, keys sorted.
    public func jsonBytes() -> [UInt8] {
        guard case .object(let object) = report.jsonValue else { return [] }
        var members = object.dictionary
        members["appKey"] = appKey.map(JSONValue.string) ?? .null
        members["version"] = version.map { .number(JSONNumber($0)) } ?? .null
        members["draft"] = .bool(draft)
        return JSONWriter.bytes(.object(members))
    }
}
