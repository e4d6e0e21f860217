import Foundation
@testable import LookdServer
import Testing
import TestPrograms

/// The brotli and gzip wrappers round-trip through decoders that are not theirs: the `brotli` and `gzip` programs
/// (Debian's brotli and gzip packages), and back through the libraries' own decoders.
@Suite("Compression: brotli and gzip through their libraries", .timeLimit(.minutes(10)))
struct CompressionTests {
    /// Inputs: empty, one byte, text that compresses well, bytes that do not, and a body like the SDK fetch's.
    static let inputs: [[UInt8]] = [
        [],
        [0x41],
        Array(String(repeating: "{\"accent\":\"#0072F0\",\"corners\":\"soft\"},", count: 200).utf8),
        (0..<5000).map { UInt8(truncatingIfNeeded: ($0 &* 2654435761) >> 13) },
        Array("{\"appKey\":\"pk_live_x\",\"direction\":\"rtl\",\"locale\":\"ar\",\"texts\":{\"replyExpectation\":\"يرد عادة خلال يوم\"}}".utf8),
    ]

    /// Runs `program` with `arguments`, `input` on its standard input; returns its standard output (throws on failure).
    static func filter(_ program: String, _ arguments: [String], _ input: [UInt8]) throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        let inPath = directory.path + "/in"
        try Data(input).write(to: URL(fileURLWithPath: inPath))
        let (status, output, error) = try runProgram("/bin/sh", ["-c", "\(program) \(arguments.joined(separator: " ")) < \(inPath) > \(directory.path)/out"])
        guard status == 0 else { throw HarnessError("\(program) failed: \(output) \(error)") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/out")))
    }

    @Test(arguments: inputs.indices)
    func brotliRoundTrips(_ index: Int) throws {
        let input = Self.inputs[index]
        let compressed = Brotli.compress(input)
        #expect(try Self.filter("brotli", ["-d", "-c"], compressed) == input)
        #expect(try Brotli.decompress(compressed) == input)
        #expect(try Brotli.decompress(try Self.filter("brotli", ["-c", "-q", "5"], input)) == input)
        #expect(Brotli.compress(input) == compressed, "the same input gives the same bytes")
    }

    @Test(arguments: inputs.indices)
    func gzipRoundTrips(_ index: Int) throws {
        let input = Self.inputs[index]
        let compressed = Gzip.compress(input)
        #expect(Array(compressed.prefix(2)) == [0x1f, 0x8b], "a gzip member (RFC 1952 §2.3.1)")
        #expect(try Self.filter("gzip", ["-d", "-c"], compressed) == input)
        #expect(try Gzip.decompress(compressed) == input)
        #expect(try Gzip.decompress(try Self.filter("gzip", ["-c", "-1"], input)) == input)
        #expect(Gzip.compress(input) == compressed)
    }

    /// The gzip coding is made at least as small as the gzip program's best (`gzip -9 -n`, the nginx anchor's
    /// `gzip_static` files in the http bench): its bytes on the wire must not exceed nginx's.
    @Test(arguments: inputs.indices)
    func gzipIsNoLargerThanGzip9(_ index: Int) throws {
        let input = Self.inputs[index]
        guard input.count > 64 else { return }
        #expect(Gzip.compress(input).count <= (try Self.filter("gzip", ["-9", "-n", "-c"], input)).count)
    }

    @Test func textGetsSmaller() {
        let text = Self.inputs[2]
        #expect(Brotli.compress(text).count < text.count / 10)
        #expect(Gzip.compress(text).count < text.count / 10)
    }

    @Test func badStreamsAreRefusedWithAReason() throws {
        let text = Self.inputs[2]
        let br = Brotli.compress(text), gz = Gzip.compress(text)
        #expect(throws: CompressionError.self) { try Brotli.decompress(Array(br.dropLast(3))) }
        #expect(throws: CompressionError.self) { try Brotli.decompress([0xff, 0xff, 0xff, 0xff]) }
        #expect(throws: CompressionError.self) { try Gzip.decompress(Array(gz.dropLast(3))) }
        #expect(throws: CompressionError.self) { try Gzip.decompress(gz + [0]) }
        var corrupt = gz
        corrupt[corrupt.count - 6] ^= 0xff   // the CRC-32
        #expect(throws: CompressionError.self) { try Gzip.decompress(corrupt) }
        #expect(throws: CompressionError.tooLarge(limit: 100)) { try Gzip.decompress(gz, limit: 100) }
        #expect(throws: CompressionError.tooLarge(limit: 100)) { try Brotli.decompress(br, limit: 100) }
    }
}
