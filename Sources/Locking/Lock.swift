#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock on a `pthread_mutex_t`: the one lock lookd uses wherever threads meet.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with raw futex system calls that ThreadSanitizer does not
/// see, so every access it guards looks like a race; a pthread mutex is intercepted, so TSan checks the code
/// instead of being told to ignore it. (It also needs macOS 15 / iOS 18; this needs nothing newer than the
/// package's platforms.) Debug builds make the mutex error-checking: locking it twice on one thread, or unlocking
/// it from a thread that does not hold it, stops the process at once instead of deadlocking.
///
/// Not recursive. Thread-safe: that is its job. Prefer ``withLock(_:)``; ``LockedValue`` ties a value to its lock.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if DEBUG
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        #endif
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        let result = pthread_mutex_destroy(mutex)
        assert(result == 0, "pthread_mutex_destroy failed (the lock is held?): \(result)")
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it. Pair with ``unlock()`` on the same thread.
    public func lock() {
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "pthread_mutex_lock failed (locked twice on one thread?): \(result)")
    }

    /// Releases the lock taken by ``lock()`` on this thread.
    public func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "pthread_mutex_unlock failed (not held by this thread?): \(result)")
    }

    /// Runs `body` holding the lock and returns what it returns (or throws what it throws).
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value reachable only while its ``Lock`` is held (the shape of NIO's `NIOLockedValueBox` and of
/// `Synchronization.Mutex`): `state.withLock { $0.count += 1 }`.
///
/// Sendable for any value, as `Mutex` is: the value is reached only inside ``withLock(_:)``. What the closure
/// returns leaves the lock, so return copies of values, not references to shared mutable objects.
public final class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock, and returns what it returns (or throws what it throws).
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
