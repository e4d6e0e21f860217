/// `lookd store copy`: every app and every version from one store to another (e.g. `sqlite:DIR` to
/// `postgresql://…`), version numbers and timestamps kept. Idempotent: versions already in the destination are
/// checked equal and skipped, so a copy that was interrupted is simply run again. Verified at the end: every
/// source version is in the destination, and each app's latest version there is the source's.
public enum StoreCopy {
    /// What a copy did.
    public struct Summary: Sendable, CustomStringConvertible {
        /// Apps in the source.
        public var apps = 0
        /// Versions written to the destination by this run.
        public var copied = 0
        /// Versions that were already there (equal).
        public var alreadyPresent = 0
        /// Apps and versions in the destination afterwards (it may hold other apps too).
        public var destinationApps = 0
        public var destinationVersions = 0

        public var description: String {
            "copied \(copied) version(s) of \(apps) app(s) (\(alreadyPresent) already present); verified: every app's latest version matches; "
                + "the destination holds \(destinationApps) app(s), \(destinationVersions) version(s)"
        }
    }

    /// The copy does not verify: the destination differs from the source after copying.
    public struct VerificationFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Copies `from` into `to` (store URLs, as `--store`). Throws ConfigurationError when a store cannot be
    /// opened, VerificationFailure when the result does not verify, and any store failure (passwords
    /// redacted) — after which running it again is safe.
    public static func run(from: String, to: String, options: StoreLocation.Options = StoreLocation.Options()) throws -> Summary {
        let source = try StoreLocation.parse(from).open(options, statistics: StoreStatistics())
        defer { source.close() }
        let destination = try StoreLocation.parse(to).open(options, statistics: StoreStatistics())
        defer { destination.close() }
        var summary = Summary()
        var keys: [String] = []
        while true {
            let page = try source.appKeys(after: keys.last, limit: 500)
            keys += page
            if page.count < 500 { break }
        }
        for key in keys {
            let versions = Array(try source.history(appKey: key, limit: Int(Int32.max)).reversed())
            let added = try destination.importVersions(appKey: key, versions)
            summary.copied += added
            summary.alreadyPresent += versions.count - added
            let latest = versions.last
            guard try destination.current(appKey: key) == latest else {
                throw VerificationFailure(description: "\(key): the destination's latest version is not the source's v\(latest?.version ?? 0)")
            }
        }
        summary.apps = keys.count
        let sourceVersions = try source.versionCount()
        guard summary.copied + summary.alreadyPresent == sourceVersions else {
            throw VerificationFailure(description: "the source holds \(sourceVersions) versions but \(summary.copied + summary.alreadyPresent) were copied or present (was it written to during the copy?)")
        }
        summary.destinationApps = try destination.appCount()
        summary.destinationVersions = try destination.versionCount()
        guard summary.destinationApps >= keys.count, summary.destinationVersions >= sourceVersions else {
            throw VerificationFailure(description: "the destination holds fewer apps or versions than the source")
        }
        return summary
    }
}
