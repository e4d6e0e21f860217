import CICU
import Foundation

/// A MessageFormat pattern parsed once for a locale, ready to format many times.
///
/// The shim runs common shapes (text, `{name}`, integer plural, select) as a compiled program on ICU's immutable
/// pieces, and everything else through ICU's `MessageFormat`; both give the same bytes. Thread-safe: the program
/// needs no lock, and `MessageFormat` (not safe for concurrent `format` calls on one instance) is guarded by a
/// per-message mutex in the shim — measured cheaper than cloning per call (see the `strings` benchmark).
public final class MessageFormatter: @unchecked Sendable {
    // @unchecked: `handle` is only used through the shim's thread-safe format calls and closed in deinit.
    private let handle: OpaquePointer
    /// The pattern as given.
    public let pattern: String
    /// The locale whose conventions format numbers, dates and plural categories.
    public let locale: String
    /// The pattern's structure (arguments, types, keys).
    public let structure: MessageStructure
    /// Argument names in the shim's order.
    let names: [String]
    /// Per name: every type it is used with (for error messages).
    private let useTypes: [[ArgumentType]]
    /// Per argument, in the shim's order: what `format` needs on every call. Kept in memory owned by this
    /// object (freed in deinit) rather than arrays, so the hot path does no reference counting for it.
    private let plan: UnsafeMutableBufferPointer<Slot>

    private struct Slot {
        let name: String
        /// Bit per accepted `Argument` kind (string, integer, double, date).
        let accepted: UInt8
        /// Whether a string for it is wrapped in isolates (only `{name}` uses).
        let isolate: Bool
    }
    private let outputCapacity: Int

    /// Parses `pattern` for `locale` (a BCP 47 tag). Throws `FormatError.invalidPattern` with ICU's error.
    public init(pattern: String, locale: String) throws {
        var error = lookd_parse_error()
        let opened = ICUText.withUTF8(pattern) { patternBytes, patternLength in
            ICUText.withUTF8(locale) { lookd_message_open(patternBytes, patternLength, $0, $1, &error) }
        }
        guard let opened else {
            throw FormatError.invalidPattern(pattern: pattern, error: MessageStructure.errorName(error),
                                             offset: Int(error.code_point_offset))
        }
        handle = opened
        self.pattern = pattern
        self.locale = locale
        structure = try MessageStructure(pattern: pattern)
        let count = lookd_message_argument_count(opened)
        names = (0..<count).map { index in
            ICUText.string(capacity: 32) { lookd_message_argument_name(opened, index, $0, $1) } ?? ""
        }
        let types = structure.argumentTypes
        useTypes = names.map { Array(types[$0] ?? [.string]) }
        let slots = zip(names, useTypes).map { name, used in
            let samples: [Argument] = [.string(""), .integer(0), .double(0), .date(Date(timeIntervalSince1970: 0))]
            var accepted: UInt8 = 0
            for (bit, sample) in samples.enumerated() where used.allSatisfy({ $0.accepts(sample) }) {
                accepted |= 1 << UInt8(bit)
            }
            return Slot(name: name, accepted: accepted, isolate: used.allSatisfy { $0 == .string })
        }
        plan = .allocate(capacity: max(slots.count, 1))
        _ = plan.initialize(from: slots)
        outputCapacity = max(256, pattern.utf8.count * 2)
    }

    deinit {
        lookd_message_close(handle)
        _ = plan.prefix(names.count).deinitialize()
        plan.deallocate()
    }

    /// Formats through the shim into a String; on failure returns nil and the (positive) ICU error code.
    @inline(__always)
    private static func callFormat(_ handle: OpaquePointer, _ slots: UnsafePointer<lookd_argument>?, _ count: Int,
                                   _ text: UnsafePointer<CChar>?, _ capacity: Int, _ engine: Engine) -> (String?, Int32) {
        var failure: Int32 = 0
        let result = ICUText.string(capacity: capacity) { buffer, capacity in
            let written = engine == .fastest
                ? lookd_message_format(handle, slots, Int32(count), text, buffer, capacity)
                : lookd_message_format_with_icu(handle, slots, Int32(count), text, buffer, capacity)
            if written < 0 { failure = -written }
            return written
        }
        return (result, failure)
    }

    /// `arguments[name]`. For the usual handful of arguments a scan is cheaper than hashing: comparing short
    /// (small) strings is a 16-byte comparison, while every hash lookup pays for a full SipHash.
    @inline(__always)
    private static func lookup(_ name: String, in arguments: [String: Argument]) -> Argument? {
        if arguments.count > 4 { return arguments[name] }
        for (candidate, value) in arguments where candidate == name { return value }
        return nil
    }

    /// The distinct argument names the pattern uses.
    public var argumentNames: [String] { names }

    /// Whether the shim runs this message as a compiled program (see `lookd_message_is_compiled`).
    var isCompiled: Bool { lookd_message_is_compiled(handle) != 0 }

    /// Formats with named arguments. Every argument the pattern uses must be supplied with a kind its use
    /// accepts (see `Argument`); extra arguments are ignored. String arguments used as `{name}` are wrapped in
    /// FSI…PDI unless `options.isolateStrings` is false.
    /// - Throws: `FormatError.missingArgument`, `.wrongArgumentType`, or `.icuFailure`; never returns partial text.
    public func format(_ arguments: [String: Argument], options: FormatOptions = .default, key: String? = nil) throws -> String {
        try format(arguments, options: options, key: key, engine: .fastest)
    }

    /// Which formatter runs: the shim's compiled program where it applies (else ICU's MessageFormat), or
    /// MessageFormat always — the reference the tests compare the program with.
    enum Engine {
        case fastest
        case icuMessageFormat
    }

    func format(_ arguments: [String: Argument], options: FormatOptions, key: String?, engine: Engine) throws -> String {
        let plan = self.plan
        let count = names.count
        return try withUnsafeTemporaryAllocation(of: lookd_argument.self, capacity: max(count, 1)) { slots in
            var text: [UInt8]? = nil // only built when a string argument is present (no array traffic otherwise)
            for index in 0..<count {
                let use = plan[index]
                let name = use.name
                guard let value = Self.lookup(name, in: arguments) else { throw FormatError.missingArgument(name: name, key: key) }
                guard use.accepted & (1 << value.kindBit) != 0 else {
                    let type = useTypes[index].first { !$0.accepts(value) } ?? .string
                    throw FormatError.wrongArgumentType(name: name, key: key, expected: type.expectation, got: value.kindName)
                }
                var slot = lookd_argument()
                switch value {
                case .string(let string):
                    let shown = options.isolateStrings && use.isolate ? BidiIsolation.isolate(string) : string
                    slot.kind = Int32(LOOKD_ARG_STRING)
                    var bytes = text ?? []
                    text = nil
                    slot.offset = Int32(bytes.count)
                    slot.length = Int32(shown.utf8.count)
                    bytes.append(contentsOf: shown.utf8)
                    text = bytes
                case .integer(let integer):
                    slot.kind = Int32(LOOKD_ARG_INT64)
                    slot.integer = integer
                case .double(let double):
                    slot.kind = Int32(LOOKD_ARG_DOUBLE)
                    slot.number = double
                case .date(let date):
                    slot.kind = Int32(LOOKD_ARG_DATE)
                    slot.number = (date.timeIntervalSince1970 * 1000).rounded()
                }
                (slots.baseAddress! + index).initialize(to: slot)
            }
            let capacity = outputCapacity + (text?.count ?? 0)
            let (result, failure): (String?, Int32)
            if let text {
                (result, failure) = text.withUnsafeBufferPointer { bytes in
                    Self.callFormat(handle, slots.baseAddress, count, bytes.baseAddress.map {
                        UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)
                    }, capacity, engine)
                }
            } else {
                (result, failure) = Self.callFormat(handle, slots.baseAddress, count, nil, capacity, engine)
            }
            guard let result else { throw FormatError.icuFailure(key: key, error: ICUText.errorName(failure)) }
            return result
        }
    }
}
