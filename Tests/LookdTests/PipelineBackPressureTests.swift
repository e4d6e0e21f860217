import Foundation
import Testing
@testable import LookdServer

/// Issue 27, row 4: pipelined requests sent in one send are all answered, in order, however much output they make.
/// Past 1 MiB of unwritten output the engine stops taking requests (back-pressure); it must take them up again as
/// the client reads, not leave the rest unanswered until the idle timeout.
@Suite("HTTP engine: pipelining past the output high-water mark", .timeLimit(.minutes(10)))
struct PipelineBackPressureTests {
    @Test("44 pipelined requests of 200,000 bytes each (8.8 MB, far past 1 MiB of output): 44 answers in order")
    func everyPipelinedRequestIsAnswered() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        connection.setReadTimeout(milliseconds: 10_000)
        let count = 44
        let requests = (0..<count).map { index in
            // Sizes differ by request, so the order of the answers is visible in their lengths.
            "GET /large?bytes=\(200_000 + index) HTTP/1.1\r\nHost: x\r\n\r\n"
        }.joined()
        try connection.send(requests)
        let read = connection.responses(count)
        #expect(read.responses.count == count)
        #expect(read.responses.map(\.status) == Array(repeating: 200, count: read.responses.count))
        #expect(read.responses.map(\.body.count) == (0..<read.responses.count).map { 200_000 + $0 })
    }

    @Test("answers made on the loop and on the workers, mixed past the mark, stay in order")
    func loopAnswersArePipelinedToo() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        connection.setReadTimeout(milliseconds: 10_000)
        // /prepared is answered on the loop; mixed with /large (workers) the order must still hold.
        let requests = (0..<44).map { index in
            index % 2 == 0 ? "GET /large?bytes=\(100_000 + index) HTTP/1.1\r\nHost: x\r\n\r\n" : "GET /prepared HTTP/1.1\r\nHost: x\r\n\r\n"
        }.joined()
        try connection.send(requests)
        let read = connection.responses(44)
        #expect(read.responses.count == 44)
        #expect(read.responses.map(\.body.count) == (0..<read.responses.count).map { $0 % 2 == 0 ? 100_000 + $0 : 17 })
    }
}
