import Foundation
@testable import LookdServer
import TestPrograms
import Testing

/// The CCrypto shim through its Swift wrapper, against published vectors: RFC 4231 §4 (HMAC-SHA256) and
/// FIPS 180-4's examples (SHA-256 of "abc"; the empty message's digest as NIST's example values list it).
@Suite("Crypto: HMAC-SHA256 (RFC 4231), SHA-256, constant-time compare, random bytes", .timeLimit(.minutes(10)))
struct CryptoTests {
    private static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// RFC 4231 §4.2–4.8, the HMAC-SHA-256 lines (test case 5 is truncated to 128 bits by the RFC).
    static let rfc4231: [(key: [UInt8], data: [UInt8], tag: String)] = [
        ([UInt8](repeating: 0x0b, count: 20), ascii("Hi There"),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (ascii("Jefe"), ascii("what do ya want for nothing?"),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0x0c, count: 20), ascii("Test With Truncation"), "a3b6167473100ee06e0c796c2955552b"),
        ([UInt8](repeating: 0xaa, count: 131), ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         ascii("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: 0..<rfc4231.count)
    func hmacSHA256MatchesRFC4231(index: Int) {
        let vector = Self.rfc4231[index]
        let tag = Crypto.hex(Crypto.hmacSHA256(key: vector.key, data: vector.data))
        #expect(tag.hasPrefix(vector.tag), "RFC 4231 test case \(index + 1)")
        #expect(tag.count == 64)
        // The same bytes through a non-contiguous collection take the copying path and agree.
        #expect(Crypto.hex(Crypto.hmacSHA256(key: vector.key.lazy.map { $0 }, data: vector.data.reversed().reversed())) == tag)
    }

    @Test func sha256MatchesFIPSExamples() {
        #expect(Crypto.hex(Crypto.sha256(Self.ascii("abc"))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Crypto.hex(Crypto.sha256([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func constantTimeEqualComparesBytesAndLengths() {
        #expect(Crypto.constantTimeEqual(Self.ascii("secret-token"), Self.ascii("secret-token")))
        #expect(!Crypto.constantTimeEqual(Self.ascii("secret-token"), Self.ascii("secret-tokeN")))
        #expect(!Crypto.constantTimeEqual(Self.ascii("Secret-token"), Self.ascii("secret-token")))
        #expect(!Crypto.constantTimeEqual(Self.ascii("secret"), Self.ascii("secret-token")))
        #expect(Crypto.constantTimeEqual([UInt8](), [UInt8]()))
    }

    @Test func randomBytesHaveTheRequestedLengthAndDiffer() throws {
        #expect(try Crypto.randomBytes(count: 0).isEmpty)
        let a = try Crypto.randomBytes(count: 32)
        let b = try Crypto.randomBytes(count: 32)
        #expect(a.count == 32 && b.count == 32)
        // Two 256-bit draws collide with probability 2^-256: equal draws mean a broken generator.
        #expect(a != b)
    }

    @Test func hexRoundTripsAndRefusesNonHex() {
        #expect(Crypto.hex([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        #expect(Crypto.bytes(hex: "000FA5ff") == [0x00, 0x0f, 0xa5, 0xff])
        #expect(Crypto.bytes(hex: "abc") == nil)
        #expect(Crypto.bytes(hex: "zz") == nil)
        #expect(Crypto.bytes(hex: "") == [])
    }

    /// A process may exit while other threads sign: the daemon exits after a stop while webhook attempts finish on
    /// their own threads. OpenSSL's atexit clean-up used to free its state under them (SIGSEGV in
    /// CRYPTO_THREAD_read_lock, seen in CI); the shim's first initialisation turns that clean-up off. A small C program
    /// built from the shim's source with the toolchain's clang forks 200 children one after another; each hashes on
    /// four threads and calls exit() from main, and every one must exit 0. Before the fix 4 to 10 of the 200 died
    /// (five runs of the program), after it none (14 runs).
    @Test func aProcessCanExitWhileOtherThreadsSign() throws {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"]
        let clang = try #require(path.map { $0 + "/clang" }.first { FileManager.default.isExecutableFile(atPath: $0) }, "no clang on PATH")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shim = root.appendingPathComponent("Sources/CCrypto")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-crypto-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = directory.appendingPathComponent("exit_while_signing.c")
        try Data("""
            #include "lookd_crypto.h"
            #include <pthread.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <sys/wait.h>
            #include <unistd.h>
            static void *sign(void *unused) {
                uint8_t tag[LOOKD_CRYPTO_DIGEST_LENGTH];
                for (;;) lookd_crypto_hmac_sha256("key", 3, "body", 4, tag);
                return unused;
            }
            int main(void) {
                int failed = 0;
                for (int run = 0; run < 200; run++) {
                    pid_t child = fork();
                    if (child == 0) {
                        pthread_t threads[4];
                        for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, sign, NULL);
                        usleep(3000);
                        exit(0);
                    }
                    int status = 0;
                    if (child < 0 || waitpid(child, &status, 0) != child) return 2;
                    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed++;
                }
                printf("%d", failed);
                return 0;
            }
            """.utf8).write(to: program)
        let binary = directory.appendingPathComponent("exit_while_signing").path
        let (built, _, errors) = try runProgram(clang, ["-O1", "-I", shim.appendingPathComponent("include").path, program.path,
                                                       shim.appendingPathComponent("lookd_crypto.c").path, "-o", binary, "-lcrypto", "-lpthread"],
                                               timeout: 120)
        try #require(built == 0, "clang failed: \(errors)")
        let (status, failed, _) = try runProgram(binary, [], timeout: 120)
        #expect(status == 0)
        #expect(failed == "0", "children that did not exit 0, of 200")
    }
}
