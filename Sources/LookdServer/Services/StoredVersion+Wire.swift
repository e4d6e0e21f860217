import StableJSON

extension StoredVersion {
    /// Writes this version's members into an open object, keys sorted: `etag` (`"v<version>"`), `layer` (when given:
    /// the stored layer as JSON), `publishedAt`, `rolledBackFrom` (null unless a rollback), `version` — one shape for
    /// a publish's answer and the history's versions. The caller writes any members that sort before `etag` first.
    func writeMembers(into writer: inout JSONWriter, layer: JSONValue? = nil) {
        writer.member("etag", "\"v\(version)\"")
        if let layer {
            writer.key("layer")
            writer.write(layer)
        }
        writer.member("publishedAt", publishedAt)
        writer.key("rolledBackFrom")
        if let from = rolledBackFrom { writer.number(from) } else { writer.null() }
        writer.key("version")
        writer.number(version)
    }
}
