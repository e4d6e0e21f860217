/// Counts as people read them in English notices ("and 69,990 more findings", "and 1,204 more diagnostics"): the lint
/// reports and the look answers. Pure; no Foundation.
public enum CountText {
    /// A count with a comma every three digits: 69990 → "69,990", 999 → "999". `count` is never negative.
    public static func grouped(_ count: Int) -> String {
        let digits = Array(String(count))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
