import StableJSON

/// `GET /openapi.json`: an OpenAPI 3.1 description generated from the router's own route table, so
/// every route is described; the integration tests call each described operation and check that the
/// status it answers is one the description lists.
enum OpenAPIRoute {
    static let doc = RouteDoc(summary: "This OpenAPI 3.1 description.", responses: [200: "the description"])

    static func register(into router: inout Router, limits: Limits) {
        let selfRoute = Route("GET", "/openapi.json", doc: doc) { _ in Response.json([]) }
        let bytes = document(for: router.routes + [selfRoute], limits: limits)
        router.add(Route("GET", "/openapi.json", doc: doc) { _ in
            Response.json(bytes, headers: [("Cache-Control", "public, max-age=300")])
        })
    }

    static func document(for routes: [Route], limits: Limits) -> [UInt8] {
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
                parameters.append(["name": name, "in": "path", "required": true,
                                   "schema": name == "appKey" ? OpenAPISchemas.appKey : ["type": "string"] as [String: Any],
                                   "description": name == "appKey" ? "pk_live_… or pk_test_… (41 characters; the last 7 are CRC-32 check characters: a key that fails the check is 400 key_invalid)" : name])
            }
            for (name, description) in doc.query.sorted(by: { $0.key < $1.key }) {
                parameters.append(["name": name, "in": "query", "required": OpenAPISchemas.requiredQuery.contains(name),
                                   "schema": OpenAPISchemas.query(name, pattern: route.pattern), "description": description])
            }
            for header in OpenAPISchemas.headers(method: route.method, pattern: route.pattern) {
                parameters.append(["name": header.name, "in": "header", "required": false, "schema": header.schema, "description": header.description])
            }
            if !parameters.isEmpty { operation["parameters"] = parameters }
            if let body = doc.requestBody {
                let schema = OpenAPISchemas.body(method: route.method, pattern: route.pattern, limits: limits) ?? ["type": "object"]
                operation["requestBody"] = ["required": true, "description": body,
                                            "content": ["application/json": ["schema": schema]]] as [String: Any]
            }
            if doc.admin { operation["security"] = [["adminToken": [String]()]] }
            if doc.feedToken { operation["security"] = [["feedToken": [String]()]] }
            var responses: [String: Any] = [:]
            for (status, description) in doc.responses {
                let media = status < 300 ? doc.contentType : "application/json"
                var response: [String: Any] = ["description": description]
                if let content = OpenAPISchemas.responseContent(method: route.method, pattern: route.pattern, status: status) {
                    response["content"] = content
                } else if status != 304 && status != 204 {
                    var content: [String: Any] = [:]
                    for type in [media] + (status < 300 ? doc.alternateContentTypes : []) {
                        let schema: [String: Any] = status >= 400 ? ["$ref": "#/components/schemas/Error"] : (type == "application/json" ? ["type": "object"] : ["type": "string"])
                        content[type] = ["schema": schema]
                    }
                    response["content"] = content
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
            "webhooks": OpenAPISchemas.webhooks,
            "components": [
                "securitySchemes": ["adminToken": ["type": "http", "scheme": "bearer"], "feedToken": ["type": "http", "scheme": "bearer"]],
                "schemas": ["ChangeEvent": OpenAPISchemas.changeEvent, "Error": [
                    "type": "object", "required": ["error"],
                    "properties": ["error": ["type": "object", "required": ["code", "message"],
                                             "properties": ["code": ["type": "string"], "message": ["type": "string"], "details": [:] as [String: Any]]] as [String: Any]],
                ] as [String: Any]],
            ] as [String: Any],
        ]
        return JSONWriter.bytes(jsonValue(document))
    }

    private static func operationID(_ route: Route) -> String {
        let words = route.pattern.split(whereSeparator: { "/{}.-".contains($0) }).map { word in
            word.prefix(1).uppercased() + word.dropFirst()
        }
        return route.method.lowercased() + words.joined()
    }
}

/// The description's literal tree (strings, integers, booleans, arrays and dictionaries, as written above and in
/// `OpenAPISchemas`) as a JSON value for the writer.
private func jsonValue(_ value: Any) -> JSONValue {
    switch value {
    case let text as String: .string(text)
    case let flag as Bool: .bool(flag)
    case let number as Int: .number(JSONNumber(number))
    case let list as [Any]: .array(list.map(jsonValue))
    case let object as [String: Any]: .object(object.mapValues(jsonValue))
    default: .null
    }
}
