#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Locking

/// How a child program ended.
public enum ProgramExit: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)

    /// The exit code, or the signal that ended it (as Foundation's `terminationStatus`).
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): signal
        }
    }
}

/// The error a test helper throws: what went wrong, in words.
public struct ProgramError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A program started with `posix_spawn` and waited for with `waitpid` on its own pid, every wait bounded: the tests'
/// way to run other programs instead of Foundation's `Process`, whose `waitUntilExit()` once never returned under
/// ThreadSanitizer (the child had exited and been reaped; its termination was never delivered) and held CI until its
/// deadline. Standard output and error go to files or /dev/null, never to pipes read to end-of-file (a process
/// another test spawns at the same moment could inherit a pipe's write end, and the read would wait for it too);
/// standard input is /dev/null or, with `input: true`, a pipe whose write end is close-on-exec. A child still running
/// when the value is released is killed and reaped. Thread-safe.
public final class ChildProgram: @unchecked Sendable {
    public let pid: pid_t
    public let executable: String
    private let lock = Lock()
    private var ended: ProgramExit?
    private var inputFD: Int32

    /// Starts `executable` (an absolute path) with `arguments`. `environment` replaces the test process's (nil: the
    /// same); `stdout` and `stderr` are files to write (created or truncated; nil: /dev/null); `input`: give it a pipe
    /// on standard input (`write`, `closeInput`). Throws `ProgramError` when it cannot be started.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Bool = false,
                stdout: String? = nil, stderr: String? = nil) throws {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if input {
            // pipe2 is not imported: close-on-exec set right after (a spawn by another thread in between could
            // inherit the ends; tests spawn rarely enough).
            guard pipe(&pipeEnds) == 0 else { throw ProgramError("pipe failed: errno \(errno)") }
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)   // dup2 clears close-on-exec on fd 0
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = envp.map { posix_spawn(&pid, executable, &actions, nil, argv, $0) } ?? posix_spawn(&pid, executable, &actions, nil, argv, environ)
        if input { close(pipeEnds[0]) }
        guard spawned == 0 else {
            if input { close(pipeEnds[1]) }
            throw ProgramError("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        inputFD = input ? pipeEnds[1] : -1
    }

    deinit {
        if inputFD >= 0 { close(inputFD) }
        if ended == nil { killAndReap(within: 30) }
    }

    /// Reaps the child if it has ended (never waits). Call with `lock` held.
    private func poll() -> ProgramExit? {
        if let ended { return ended }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return nil }
        // WIFEXITED/WEXITSTATUS/WTERMSIG are macros Swift does not import: the low 7 bits are the signal that ended the
        // program (0 if it exited), the next byte its exit code.
        let signal = status & 0x7f
        ended = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        return ended
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { lock.withLock { poll() == nil } }

    /// Sends `signal` (no effect once it has ended and been reaped).
    public func send(_ signal: Int32) {
        lock.withLock {
            if poll() == nil { _ = kill(pid, signal) }
        }
    }

    /// Waits at most `seconds` for the child to end; nil if it is still running then.
    public func wait(within seconds: Double) -> ProgramExit? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let ended = lock.withLock({ poll() }) { return ended }
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Sends SIGKILL unless it has ended, and waits at most `seconds` for it to be reaped.
    @discardableResult
    public func killAndReap(within seconds: Double = 30) -> ProgramExit? {
        send(SIGKILL)
        return wait(within: seconds)
    }

    /// Writes `text` to the child's standard input (started with `input: true`). Throws when the pipe is closed.
    public func writeInput(_ text: String) throws {
        let fd = lock.withLock { inputFD }
        guard fd >= 0 else { throw ProgramError("\(executable) has no open standard input") }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ProgramError("writing to \(executable) failed: errno \(errno)")
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Closes the child's standard input (it reads end-of-file).
    public func closeInput() {
        lock.withLock {
            if inputFD >= 0 { close(inputFD) }
            inputFD = -1
        }
    }
}

/// Runs `executable` with `arguments` to its end and returns its exit status (the code, or the signal that ended
/// it), standard output and standard error (read from files once it has exited). A program still running after
/// `timeout` seconds is killed and `ProgramError` thrown; also thrown when it cannot be started.
public func runProgram(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                       timeout: Double = 300) throws -> (Int32, String, String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-program-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let outPath = directory + "/stdout", errPath = directory + "/stderr"
    let child = try ChildProgram(executable, arguments, environment: environment, stdout: outPath, stderr: errPath)
    guard let ended = child.wait(within: timeout) else {
        child.killAndReap()
        throw ProgramError("\(executable) \(arguments.joined(separator: " ")) still running after \(timeout) s: killed")
    }
    let output = (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data()
    let error = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
    return (ended.status, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}
