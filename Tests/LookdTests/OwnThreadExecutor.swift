import Dispatch
import Testing

/// A task executor with a serial queue of its own, for tests that block for long (processes, sockets, bounded
/// polling): run under its preference, a test's synchronous body no longer holds one of Swift's few shared concurrency
/// threads (two on a 2-core machine) for its whole run, so the other tests are not left queued until their time limits
/// run out. The body stays in the test's own task, so `#expect` and `#require` still record against the test.
final class OwnThreadExecutor: TaskExecutor {
    private let queue: DispatchQueue
    /// Set on the executor's queue (its label): what code running there reads with `DispatchQueue.getSpecific`.
    static let key = DispatchSpecificKey<String>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// `.ownThread`: each test of the suite (or the test) runs on an `OwnThreadExecutor`. For suites that block for long
/// and run their tests one at a time (`.serialized`), so that no more threads run at once than before.
struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    /// A scope for each test case (never one around a whole suite, which would leave its tests on a shared thread).
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(OwnThreadExecutor(label: "lookd-test \(test.name)")) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs each test on a thread of its own instead of a shared concurrency thread (`OwnThreadTrait`).
    static var ownThread: Self { Self() }
}

@Suite("Test support: .ownThread on a suite runs each test's body on a queue of its own", .ownThread, .timeLimit(.minutes(10)))
struct OwnThreadTests {
    @Test func theBodyRunsOnItsOwnQueue() {
        #expect(DispatchQueue.getSpecific(key: OwnThreadExecutor.key)?.hasPrefix("lookd-test ") == true)
    }

    @Test(arguments: [1, 2]) func soDoesEachCase(_ number: Int) {
        #expect(DispatchQueue.getSpecific(key: OwnThreadExecutor.key)?.hasPrefix("lookd-test ") == true)
    }
}

@Suite("Test support: without .ownThread a test's body runs on a shared thread", .timeLimit(.minutes(10)))
struct SharedThreadTests {
    @Test func theBodyRunsOnASharedThread() {
        #expect(DispatchQueue.getSpecific(key: OwnThreadExecutor.key) == nil)
    }
}
