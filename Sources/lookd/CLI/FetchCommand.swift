import Foundation
import LookClient
import LookResolver
import StableJSON

/// `lookd fetch`: what a device would see — LookClient's look for an app, from the server, the cache or built in.
enum FetchCommand: Command {
    static let name = "fetch"
    static let summary = "fetch an app's look as the SDK does (server, disk cache, or built in) and print it"
    static let usage = """
        Usage: lookd fetch --server URL --app KEY --cache DIR [--lang TAG] [--code FILE] [--inferred FILE]
                           [--refresh] [--preview TOKEN] [--json]

        Does what the SDK's LookClient does (docs/client.md): uses the look cached in DIR while it is fresh, else
        asks the server (GET /v1/apps/KEY/look?lang=TAG, revalidating with If-None-Match), stores the answer in DIR,
        and merges the app's code and inferred layers (JSON layer objects, e.g. {"accent": "#3550E6"}) under the
        published dashboard layer. --refresh revalidates with the server even when the cached look is fresh.
        --preview TOKEN shows the app's draft as a device given a preview token (a chat link's ?preview=) sees it:
        fetched with a Lookd-Preview header, never written to DIR; a token the server refuses (403
        preview_token_invalid) prints the published look with the reason on stderr.
        Prints the source (network, cache or builtIn), version, locale, age and the look's main fields; --json
        prints one object: {"age", "draft", "error", "locale", "look" (as POST /v1/looks/resolve returns it for the
        same layers), "source", "texts", "version"} (version, locale, age and texts are null for a built-in look;
        draft is true only for a draft, whose version is then the draft's own).
        Exit 0 whenever a look was produced — an unreachable server is not an error: the cached or built-in look is
        printed and the reason goes to stderr; 2 for a usage problem or an unreadable layer file.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["server", "app", "cache", "lang", "code", "inferred", "refresh", "preview", "json"])
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        guard let serverText = arguments.value("server") else { throw UsageError("--server URL is required") }
        guard let server = URL(string: serverText), let scheme = server.scheme?.lowercased(), scheme == "http" || scheme == "https",
              server.host != nil else {
            throw UsageError("--server takes an http or https URL, e.g. http://127.0.0.1:8080; got '\(serverText)'")
        }
        guard let app = arguments.value("app"), !app.isEmpty else { throw UsageError("--app KEY is required") }
        guard let cache = arguments.value("cache"), !cache.isEmpty else { throw UsageError("--cache DIR is required") }
        let layers = AppLayers(codeJSON: try layer(arguments.value("code")), inferredJSON: try layer(arguments.value("inferred")))
        let client = LookClient(server: server, appKey: app, cache: URL(fileURLWithPath: cache, isDirectory: true), layers: layers)
        let preview = arguments.value("preview")
        if let preview, preview.isEmpty { throw UsageError("--preview takes a preview token (pv1.…), got an empty one") }
        let language = arguments.value("lang")
        let refresh = arguments.flag("refresh")
        let result = waitFor {
            await client.setPreviewToken(preview)
            return refresh ? await client.refresh(language: language) : await client.look(language: language)
        }
        if let discarded = result.discardedCache { Console.error("lookd fetch: the cached look was unusable and discarded: \(discarded)") }
        if let error = result.error { Console.error("lookd fetch: \(error) — showing the \(result.source == .builtIn ? "built-in" : "cached") look") }
        Console.write(Data(arguments.flag("json") ? json(result) : text(result)))
        return 0
    }

    /// A layer file's JSON (strict), or nil without one. Throws a usage error naming the file and the problem.
    private static func layer(_ path: String?) throws -> JSONValue? {
        guard let path else { return nil }
        do {
            return try JSONReader.read([UInt8](try Console.read(path: path)))
        } catch let error as JSONReadError {
            throw UsageError("\(path): not valid JSON: \(error.description)")
        }
    }

    /// Runs `body` to completion from synchronous code.
    private static func waitFor(_ body: @escaping @Sendable () async -> ClientLook) -> ClientLook {
        final class Box: @unchecked Sendable { var value: ClientLook? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    static func json(_ result: ClientLook) -> [UInt8] {
        var writer = JSONWriter(capacity: 8_192)
        writer.beginObject()
        writer.key("age")
        if let age = result.age { writer.number(Int(age.rounded(.down))) } else { writer.null() }
        writer.key("draft")
        writer.bool(result.isDraft)
        writer.key("error")
        if let error = result.error { writer.string(error.description) } else { writer.null() }
        writer.key("locale")
        if let locale = result.locale { writer.string(locale) } else { writer.null() }
        writer.key("look")
        writer.raw(result.look.jsonBytes())
        writer.member("source", result.source.rawValue)
        writer.key("texts")
        if let texts = result.texts { writer.write(texts.jsonValue) } else { writer.null() }
        writer.key("version")
        if let version = result.version { writer.number(version) } else { writer.null() }
        writer.endObject()
        return writer.bytes + Array("\n".utf8)
    }

    static func text(_ result: ClientLook) -> [UInt8] {
        let look = result.look
        var lines = ["source: \(result.source.rawValue)"]
        if result.isDraft { lines.append("draft: yes (a preview; the version is the draft's)") }
        if let version = result.version { lines.append("version: \(version)") }
        if let locale = result.locale { lines.append("locale: \(locale)") }
        if let age = result.age { lines.append("age: \(Int(age)) s") }
        lines.append("accent: \(look.accent.value.light.hex) light, \(look.accent.value.dark.hex) dark (\(look.accent.source.rawValue))")
        lines.append("corners: \(look.corners.value.rawValue), font: \(look.font.value.rawValue), header: \(look.headerStyle.value.rawValue)")
        if let name = look.appName.value { lines.append("app name: \(name) (\(look.appName.source.rawValue))") }
        if let texts = result.texts {
            lines.append("reply expectation: \(texts.replyExpectation)")
            for topic in texts.topics { lines.append("topic \(topic.id): \(topic.label)") }
        } else {
            lines.append("texts: none (built in: the SDK's bundled strings)")
        }
        for diagnostic in look.diagnostics {
            lines.append("\(diagnostic.severity.rawValue): \(diagnostic.layer.rawValue).\(diagnostic.field): \(diagnostic.message) [\(diagnostic.code.rawValue)]")
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }
}
