import Foundation
import Testing
@testable import LookdServer

/// Issue 27, row 3: bodies being read share one global budget (`Limits.bodyBudgetBytes`); beyond it a new body is
/// refused with 503 + Retry-After at once instead of growing the daemon's memory, and the budget comes back when a
/// request is answered.
@Suite("HTTP engine: the global budget for request bodies", .timeLimit(.minutes(10)))
struct BodyBudgetTests {
    @Test("a body that would pass the budget is 503 overloaded with Retry-After; once the first is answered one fits again")
    func bodiesShareOneBudget() throws {
        let wire = try WireServer { $0.bodyBudgetBytes = 1_000_000 }
        let length = 600_000
        let head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\nExpect: 100-continue\r\n\r\n"
        // The first body's head is read (its 100 Continue says so): 600,000 of the 1,000,000 bytes are reserved.
        let first = try WireConnection(port: wire.port)
        first.setReadTimeout(milliseconds: 10_000)
        try first.send(head)
        let interim = first.responses(1)
        #expect(interim.responses.first?.status == 100)
        // A second one of the same size does not fit.
        let second = try WireConnection(port: wire.port)
        second.setReadTimeout(milliseconds: 10_000)
        try second.send(head)
        let refused = second.responses(1).responses.first
        #expect(refused?.status == 503)
        #expect(refused?.errorCode == "overloaded")
        #expect(refused?.header("Retry-After") != nil)
        #expect(second.readToEnd().closed)
        // The first body arrives and is answered; its reservation is returned.
        try first.send([UInt8](repeating: UInt8(ascii: " "), count: length))
        #expect(first.responses(1, after: interim.rest).responses.first?.status == 200)
        let third = try WireConnection(port: wire.port)
        third.setReadTimeout(milliseconds: 10_000)
        try third.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n")
        try third.send([UInt8](repeating: UInt8(ascii: " "), count: length))
        #expect(third.responses(1).responses.first?.status == 200)
    }
}
