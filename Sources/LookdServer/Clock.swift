import Foundation

// The clocks every layer reads (the access log, the stores' timestamps, preview tokens, durations): here, not in HTTP/,
// so that stores know nothing of HTTP.

/// The current time as `2026-11-30T10:16:43.123Z`.
func utcTimestamp(_ now: timespec = currentRealtime()) -> String {
    var seconds = now.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                  Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                  Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
}

func currentRealtime() -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return now
}

/// Seconds on the monotonic clock, for durations.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
