import Dispatch
import Locking
import Testing

@Suite("LazySlot: an object made once and shared by every copy of a value", .timeLimit(.minutes(10)))
struct LazySlotTests {
    final class Made: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    struct Holder: Sendable {
        var name: String
        let slot = LazySlot()

        final class Box: Sendable {}
    }

    @Test func copiesShareTheFirstObjectMade() {
        let original = Holder(name: "a")
        var copy = original
        copy.name = "b"
        let first = original.slot.value { Made(1) }
        let second = copy.slot.value { Made(2) }
        #expect(first === second)
        #expect(second.number == 1)
    }

    @Test func existingMakesNothingAndSeesWhatValueMade() {
        let holder = Holder(name: "a")
        #expect(holder.slot.existing(Made.self) == nil)
        #expect(holder.slot.existing(Made.self) == nil)   // still nothing: the first call made none
        let made = holder.slot.value { Made(7) }
        #expect(holder.slot.existing(Made.self) === made)
        #expect(holder.slot.existing(Holder.Box.self) == nil)   // another type: not what it holds
    }

    @Test func racingFirstCallsAllGetTheStoredObject() {
        let slot = LazySlot()
        let results = LockedValue<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let made = slot.value { Made(index) }
            results.withLock { $0.append(ObjectIdentifier(made)) }
        }
        let seen = results.withLock { $0 }
        #expect(seen.count == 64)
        #expect(Set(seen).count == 1)
    }

    @Test func theObjectIsFreedWithTheLastCopy() {
        weak var kept: Made?
        do {
            let holder = Holder(name: "a")
            let copy = holder
            kept = copy.slot.value { Made(7) }
            #expect(kept != nil)
            _ = holder
        }
        #expect(kept == nil)
    }
}
