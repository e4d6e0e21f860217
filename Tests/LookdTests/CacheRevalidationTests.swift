@testable import LookdServer
import Locking
import Foundation
import Strings
import Synchronization
import Testing

@Suite("Look cache through a lost change feed: served stale, then revalidated by version", .timeLimit(.minutes(10)))
struct CacheRevalidationTests {
    @Test func cachedLooksAreServedWhileTheStoreIsGoneAndALookPublishedInTheGapIsServedOnceTheFeedIsBack() throws {
        let directory = try TemporaryDirectory()
        let store = try FeedControlledStore(directory: directory.path + "/data")
        defer { store.close() }   // drops the service's change handler, which holds the store (a cycle otherwise)
        let metrics = Metrics()
        let service = LookService(store: store, metrics: metrics, limits: Limits(), localizer: InProcessApp.localizer)
        let (changed, unchanged) = (newKey(), newKey())
        for key in [changed, unchanged] { _ = try service.publish(appKey: key, body: Array(#"{"appName":"v1"}"#.utf8), precondition: .newApp) }
        let de = try #require(LocaleTag.all.first { $0.identifier == "de" })
        for key in [changed, unchanged] { #expect(try service.fetch(appKey: key, locale: de).version == 1) }

        // The feed is lost and the primary with it: cached looks are still served; another replica's publish (straight
        // into the store, so this service hears nothing) happens in the gap.
        store.feed(.lost)
        store.failing.store(true, ordering: .relaxed)
        for key in [changed, unchanged] { #expect(try service.fetch(appKey: key, locale: de).version == 1) }
        #expect(throws: StoreUnavailableError.self) { try service.fetch(appKey: newKey(), locale: de) }
        store.failing.store(false, ordering: .relaxed)
        _ = try store.inner.publish(appKey: changed, layer: #"{"appName":"v2"}"#, expected: .version(1), rolledBackFrom: nil)
        #expect(try service.fetch(appKey: changed, locale: de).version == 1, "stale until the feed is back: nothing told this replica")

        // The feed is back: the changed app is dropped and read again, the unchanged one kept.
        store.feed(.all)
        #expect(try service.fetch(appKey: changed, locale: de).version == 2)
        #expect(service.cached(appKey: unchanged, locale: de)?.version == 1, "kept: its version did not change")
        #expect(metrics.revalidationKept.load(ordering: .relaxed) == 1)
        #expect(metrics.revalidationDropped.load(ordering: .relaxed) == 1)
        #expect(!service.cache.isStale)
    }

    /// The race of issue 29: a replica publishes v1, a fetch caches v1, and only then does the replica's own publish
    /// notification (v1) arrive; the store fails next. The notification must not drop what was already cached of v1,
    /// or every fetch of the app answers 503 while the store is gone. A notification of a newer version (another
    /// replica's publish) does drop it; one of an older version (late) does not; one of no known version does.
    @Test func aPublishNotificationDropsOnlyCachedLooksOlderThanItsVersion() throws {
        let directory = try TemporaryDirectory()
        let store = try FeedControlledStore(directory: directory.path + "/data")
        defer { store.close() }   // drops the service's change handler, which holds the store (a cycle otherwise)
        let service = LookService(store: store, metrics: Metrics(), limits: Limits(), localizer: InProcessApp.localizer)
        let key = newKey()
        let de = try #require(LocaleTag.all.first { $0.identifier == "de" })
        _ = try service.publish(appKey: key, body: Array(#"{"appName":"v1"}"#.utf8), precondition: .newApp)
        #expect(try service.fetch(appKey: key, locale: de).version == 1)

        // Its own notification, late: v1 stays cached and is served with the store gone.
        store.feed(.app(key, version: 1))
        store.failing.store(true, ordering: .relaxed)
        #expect(service.cached(appKey: key, locale: de)?.version == 1, "the replica's own late notification dropped the look it had just cached")
        #expect(try service.fetch(appKey: key, locale: de).version == 1)
        store.failing.store(false, ordering: .relaxed)

        // Another replica publishes v2: its notification drops v1, and the next fetch reads v2.
        _ = try store.inner.publish(appKey: key, layer: #"{"appName":"v2"}"#, expected: .version(1), rolledBackFrom: nil)
        store.feed(.app(key, version: 2))
        #expect(service.cached(appKey: key, locale: de) == nil)
        #expect(try service.fetch(appKey: key, locale: de).version == 2)

        // A notification of v1 arriving now (older than what is cached) keeps v2; one without a version drops it.
        store.feed(.app(key, version: 1))
        #expect(service.cached(appKey: key, locale: de)?.version == 2)
        store.feed(.app(key, version: nil))
        #expect(service.cached(appKey: key, locale: de) == nil)
    }

    /// The notification's payload as PostgreSQL carries it: `<appKey> <version>`; the app key alone (a draft's change,
    /// or an older lookd) means no known version.
    @Test func aNotificationPayloadCarriesTheAppKeyAndTheVersion() {
        let key = "pk_live_540dxxtmh32jjac1btdv5rs11r3kjn166"
        #expect(PostgresListener.payload(appKey: key, version: 12) == "pk_live_540dxxtmh32jjac1btdv5rs11r3kjn166 12")
        #expect(PostgresListener.change(payload: "pk_live_540dxxtmh32jjac1btdv5rs11r3kjn166 12") == .app(key, version: 12))
        #expect(PostgresListener.change(payload: key) == .app(key, version: nil))
        #expect(PostgresListener.change(payload: PostgresListener.payload(appKey: key, version: nil)) == .app(key, version: nil))
    }
}
