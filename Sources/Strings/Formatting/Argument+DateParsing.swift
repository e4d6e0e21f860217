import Foundation

extension Argument {
    /// Reads a date argument as people and JSON send it: `YYYY-MM-DD` as noon UTC (the same calendar day in every
    /// zone within ±11 h), or an ISO 8601 date-time. Returns nil for anything else, including impossible days (2026-02-30).
    public static func date(parsing text: String) -> Date? {
        let day = text.split(separator: "-", omittingEmptySubsequences: false)
        if day.count == 3, day[0].count == 4, day[1].count == 2, day[2].count == 2,
           let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let components = DateComponents(year: year, month: month, day: dayOfMonth, hour: 12)
            guard (1...12).contains(month), (1...31).contains(dayOfMonth), let date = calendar.date(from: components),
                  calendar.component(.day, from: date) == dayOfMonth else { return nil }
            return date
        }
        return ISO8601DateFormatter().date(from: text)
    }
}
