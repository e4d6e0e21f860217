/// A silent config push (`kind: config`): the dashboard published a new look.
public struct ConfigPush: Sendable, Hashable {
    /// The app the push is for; nil when the payload does not say (then it is taken as this app's).
    public var appKey: String?
    /// The published version the push announces; nil when the payload does not say (then the client revalidates).
    public var version: Int?

    public init(appKey: String? = nil, version: Int? = nil) {
        self.appKey = appKey
        self.version = version
    }

    /// The push in a notification's `userInfo`: `{"pingfront": {"kind": "config", "appKey": …, "version": N}}`, or
    /// the same keys at the top level. nil for any other payload (another kind, not pingfront's).
    public init?(userInfo: [AnyHashable: Any]) {
        let payload = (userInfo["pingfront"] as? [AnyHashable: Any]) ?? userInfo
        guard payload["kind"] as? String == "config" else { return nil }
        appKey = payload["appKey"] as? String
        version = (payload["version"] as? Int) ?? (payload["version"] as? String).flatMap { Int($0) }
    }
}

/// What ``LookClient/handleConfigPush(_:)`` did, as `UIBackgroundFetchResult` wants it.
public enum ConfigPushResult: String, Sendable, Hashable {
    /// A newer look was fetched and stored (``LookClient/changes`` yielded).
    case newData
    /// Nothing new: the pushed version is not newer than the cached one (no request made), or the server had nothing newer.
    case noData
    /// The fetch failed; the cached look stays.
    case failed
}

/// The `lookChanged` event: a newer look for `language` was stored (a publish reached the device).
public struct LookChange: Sendable, Hashable {
    /// The language asked for (nil: the system's).
    public var language: String?
    /// The version now stored, and the one it replaced (nil: the built-in look was showing).
    public var version: Int
    public var previousVersion: Int?

    public init(language: String?, version: Int, previousVersion: Int?) {
        self.language = language
        self.version = version
        self.previousVersion = previousVersion
    }
}
