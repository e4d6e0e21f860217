import Foundation
import LookdServer
import LookResolver
import StableJSON

/// `lookd report [FILE|-] [--format json|html] [--pretty] [--strict]`: the accessibility report of resolved layers.
enum ReportCommand: Command {
    static let name = "report"
    static let summary = "print a look's accessibility report: WCAG and APCA per pair, colour-vision checks"
    static let usage = """
        Usage: lookd report [FILE|-] [--format json|html] [--pretty] [--strict]
               lookd report --default [...]

        Resolves the layers in FILE ({"dashboard": {...}, "code": {...}, "inferred": {...}}; standard input for '-'
        or no FILE; --default: none) and prints the look's accessibility report, the same as
        GET /v1/apps/{appKey}/look/report: every text/background pair in light, dark and increased contrast with
        its WCAG 2 ratio and level and its APCA Lc, the colour-vision-deficiency distances, and lookd's
        adjustments. --format html prints the report page. --strict exits 1 when the report has a warning
        (a pair under its minimum, or a distinction lost to a colour-vision deficiency). Exit 2 on bad input.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["default", "format", "pretty", "strict"])
        let format = arguments.value("format") ?? "json"
        guard format == "json" || format == "html" else { throw UsageError("--format takes json or html, not '\(format)'") }
        let layers = try ResolveCommand.readLayers(arguments)
        let report = LookReport(appKey: nil, version: nil, draft: false, look: Resolver().resolve(layers))
        var output: [UInt8]
        if format == "html" {
            output = Array(ReportPage(report).html().utf8)
        } else {
            output = report.jsonBytes()
            if arguments.flag("pretty"), let value = try? JSONValue(parsing: String(decoding: output, as: UTF8.self)) {
                output = JSONWriter.bytes(value, pretty: true)
            }
            output += Array("\n".utf8)
        }
        Console.write(Data(output))
        let warnings = !report.report.failingPairs.isEmpty || !report.report.lostDistinctions.isEmpty
        return arguments.flag("strict") && warnings ? 1 : 0
    }
}
