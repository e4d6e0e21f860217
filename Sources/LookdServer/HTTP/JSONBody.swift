import Foundation

/// Checks a JSON body against the depth and string-length limits before any decoder sees it, so a
/// deeply nested or huge-string body is refused in one linear pass over its bytes.
/// Throws 400 `limit_exceeded` naming the limit; malformed JSON is left to the decoder.
func checkJSONLimits(_ body: [UInt8], limits: Limits, maxStringBytes: Int? = nil) throws {
    let maxString = maxStringBytes ?? limits.maxStringBytes
    var depth = 0
    var inString = false
    var escaped = false
    var stringBytes = 0
    for byte in body {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                continue
            }
            stringBytes += 1
            if stringBytes > maxString {
                throw HTTPError.limitExceeded("a JSON string is longer than \(maxString) bytes")
            }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            stringBytes = 0
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            if depth > limits.maxJSONDepth {
                throw HTTPError.limitExceeded("the JSON body is nested deeper than \(limits.maxJSONDepth) levels")
            }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
        default:
            break
        }
    }
}

/// Refuses a body whose declared media type is not JSON (a missing Content-Type is accepted).
/// Throws 415 `unsupported_media_type`.
func requireJSONContentType(_ request: Request) throws {
    guard let type = request.header("content-type") else { return }
    let essence = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    guard essence == "application/json" || essence.hasSuffix("+json") else {
        throw HTTPError.unsupportedMediaType("send the body as application/json")
    }
}
