import Foundation

/// Runs `body` repeatedly for about `seconds` (after a short warm-up) and returns operations per second.
func measureRate(seconds: Double = 1.0, batch: Int = 1_000, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    for _ in 0..<batch { body() }
    var operations = 0
    let start = clock.now
    var elapsed: Duration = .zero
    while elapsed < .seconds(seconds) {
        for _ in 0..<batch { body() }
        operations += batch
        elapsed = clock.now - start
    }
    let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(operations) / secondsElapsed
}

/// Formats a rate as e.g. "1,234,567/s".
func formatRate(_ rate: Double) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.maximumFractionDigits = 0
    return (formatter.string(from: NSNumber(value: rate)) ?? "\(Int(rate))") + "/s"
}
