import Foundation

/// `GET /openapi.json`: an OpenAPI 3.1 description generated from the router's own route table, so
/// every route is described; the integration tests call each described operation and check that the
/// status it answers is one the description lists.
enum OpenAPIRoute {
    static let doc = RouteDoc(summary: "This OpenAPI 3.1 description.", responses: [200: "the description"])

    static func register(into router: inout Router) {
        let selfRoute = Route("GET", "/openapi.json", doc: doc) { _ in Response.json([]) }
        let bytes = document(for: router.routes + [selfRoute])
        router.add(Route("GET", "/openapi.json", doc: doc) { _ in
            Response.json(bytes, headers: [("Cache-Control", "public, max-age=300")])
        })
    }

    static func document(for routes: [Route]) -> [UInt8] {
        var paths: [String: [String: Any]] = [:]
        for route in routes {
            let doc = route.doc
            var operation: [String: Any] = [
                "summary": doc.summary,
                "operationId": operationID(route),
            ]
            var parameters: [[String: Any]] = []
            for segment in route.pattern.split(separator: "/") where segment.hasPrefix("{") {
                let name = String(segment.dropFirst().dropLast())
                parameters.append(["name": name, "in": "path", "required": true, "schema": ["type": "string"] as [String: Any],
                                   "description": name == "appKey" ? "pk_live_… or pk_test_… (41 characters, CRC-32 check characters)" : name])
            }
            for (name, description) in doc.query.sorted(by: { $0.key < $1.key }) {
                parameters.append(["name": name, "in": "query", "required": false, "schema": ["type": "string"] as [String: Any], "description": description])
            }
            if !parameters.isEmpty { operation["parameters"] = parameters }
            if let body = doc.requestBody {
                operation["requestBody"] = ["required": true, "description": body,
                                            "content": ["application/json": ["schema": ["type": "object"]]]] as [String: Any]
            }
            if doc.admin { operation["security"] = [["adminToken": [String]()]] }
            var responses: [String: Any] = [:]
            for (status, description) in doc.responses {
                let media = status < 300 ? doc.contentType : "application/json"
                var response: [String: Any] = ["description": description]
                if status != 304 && status != 204 {
                    let schema: [String: Any] = status >= 400 ? ["$ref": "#/components/schemas/Error"] : (media == "application/json" ? ["type": "object"] : ["type": "string"])
                    response["content"] = [media: ["schema": schema]]
                }
                responses[String(status)] = response
            }
            operation["responses"] = responses
            paths[route.pattern, default: [:]][route.method.lowercased()] = operation
        }
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": ["title": "lookd", "version": lookdVersion,
                     "description": "Look and localization resolution for the pingfront chat. Every error is {\"error\": {\"code\", \"message\"}}."],
            "paths": paths,
            "components": [
                "securitySchemes": ["adminToken": ["type": "http", "scheme": "bearer"]],
                "schemas": ["Error": [
                    "type": "object", "required": ["error"],
                    "properties": ["error": ["type": "object", "required": ["code", "message"],
                                             "properties": ["code": ["type": "string"], "message": ["type": "string"], "details": [:] as [String: Any]]] as [String: Any]],
                ] as [String: Any]],
            ] as [String: Any],
        ]
        // Only plain strings, numbers, arrays and dictionaries above: serialization cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data)
    }

    private static func operationID(_ route: Route) -> String {
        let words = route.pattern.split(whereSeparator: { "/{}.-".contains($0) }).map { word in
            word.prefix(1).uppercased() + word.dropFirst()
        }
        return route.method.lowercased() + words.joined()
    }
}
