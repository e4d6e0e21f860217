import Foundation

/// The signals of `lookd serve`: SIGTERM and SIGINT stop the daemon gracefully; SIGHUP and SIGUSR1 (sent by
/// log rotators and process managers) are logged and ignored, never fatal. SIGPIPE is ignored (a client that
/// hangs up is the engine's business, not a reason to die).
public enum StopSignals {
    /// Blocks the four signals in the calling thread and ignores SIGPIPE. Call it before any thread starts
    /// (threads inherit the mask), so only `waitForStop` receives them.
    public static func block() {
        var set = signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits until SIGTERM or SIGINT arrives and returns it. Each SIGHUP or SIGUSR1 meanwhile is passed to
    /// `log` as one line and otherwise ignored.
    public static func waitForStop(log: (String) -> Void) -> Int32 {
        var set = signals()
        while true {
            var received: Int32 = 0
            guard sigwait(&set, &received) == 0 else { continue }
            if received == SIGTERM || received == SIGINT { return received }
            log("lookd: signal \(received) (\(received == SIGHUP ? "SIGHUP" : "SIGUSR1")) ignored; SIGTERM or SIGINT stops the daemon")
        }
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&set, number) }
        return set
    }
}
