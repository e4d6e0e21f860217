/// ``JSONWriter``'s growing output and layout state, behind one pointer. Reached through `state.pointee`,
/// which the compiler neither copies on write nor checks for exclusive access, so a small write is a capacity
/// check and a store. Owned by one writer (and its copies); not thread-safe.
@usableFromInline
final class OutputBuffer {
    @usableFromInline
    struct State {
        @usableFromInline var start: UnsafeMutablePointer<UInt8>
        @usableFromInline var count = 0
        @usableFromInline var capacity: Int
        @usableFromInline var depth = 0
        @usableFromInline var first = true
        @usableFromInline var afterKey = false
        /// Compact layout: the next value or key needs a comma before it (a value ended in its container).
        @usableFromInline var comma = false
        /// An empty line is due before the next member or element (``JSONWriter/blankLine()``).
        @usableFromInline var blankLine = false

        @usableFromInline
        init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
            self.start = start
            self.capacity = capacity
        }
    }

    @usableFromInline let state: UnsafeMutablePointer<State>

    /// - Parameter capacity: bytes to allocate up front (at least 16).
    @usableFromInline
    init(capacity: Int) {
        let capacity = max(capacity, 16)
        state = .allocate(capacity: 1)
        state.initialize(to: State(start: .allocate(capacity: capacity), capacity: capacity))
    }

    deinit {
        state.pointee.start.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    @inlinable
    func append(_ byte: UInt8) {
        let state = self.state
        if state.pointee.count == state.pointee.capacity { grow(toAtLeast: state.pointee.count + 1) }
        state.pointee.start[state.pointee.count] = byte
        state.pointee.count += 1
    }

    @inlinable
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let state = self.state
        if state.pointee.count + bytes.count > state.pointee.capacity { grow(toAtLeast: state.pointee.count + bytes.count) }
        (state.pointee.start + state.pointee.count).update(from: source, count: bytes.count)
        state.pointee.count += bytes.count
    }

    /// Lets `body` write at most `count` bytes at the end of the output, in space reserved once; `body` returns
    /// how many it wrote. The one capacity check of a call that writes several pieces.
    @inlinable
    func write(reserving count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let state = self.state
        if state.pointee.capacity - state.pointee.count < count { grow(toAtLeast: state.pointee.count + count) }
        state.pointee.count += body(state.pointee.start + state.pointee.count)
    }


    /// At least doubles the capacity, so appending n bytes one at a time costs O(n).
    @usableFromInline
    func grow(toAtLeast minimum: Int) {
        let newCapacity = max(minimum, state.pointee.capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.initialize(from: state.pointee.start, count: state.pointee.count)
        state.pointee.start.deallocate()
        state.pointee.start = newStart
        state.pointee.capacity = newCapacity
    }
}
