import Locking

/// A bounded memo of recent negotiation answers: two generations of at most `generationSize` entries each;
/// when the young generation fills, it becomes the old one and the previous old one is dropped. A hit in the
/// old generation is promoted. Memory stays under 2 × `generationSize` entries whatever the input.
/// A `generationSize` of 0 turns the memo off.
final class NegotiationMemo: Sendable {
    struct Key: Hashable, Sendable {
        enum Kind: UInt8, Sendable { case tag, tagList, acceptLanguage }
        let kind: Kind
        let text: String
    }

    /// Inputs longer than this are never memoised (junk headers must not fill memory).
    static let maximumKeyLength = 256
    private let generationSize: Int
    private let state = LockedValue<(young: [Key: LocaleTag], old: [Key: LocaleTag])>(([:], [:]))

    init(generationSize: Int = 512) {
        self.generationSize = generationSize
    }

    func answer(_ key: Key, compute: () -> LocaleTag) -> LocaleTag {
        guard generationSize > 0, key.text.utf8.count <= Self.maximumKeyLength else { return compute() }
        let remembered: LocaleTag? = state.withLock { state in
            if let hit = state.young[key] { return hit }
            if let hit = state.old[key] {
                store(key, hit, in: &state)
                return hit
            }
            return nil
        }
        if let remembered { return remembered }
        let answer = compute()
        state.withLock { store(key, answer, in: &$0) }
        return answer
    }

    private func store(_ key: Key, _ value: LocaleTag, in state: inout (young: [Key: LocaleTag], old: [Key: LocaleTag])) {
        if state.young.count >= generationSize {
            state.old = state.young
            state.young = [:]
            state.young.reserveCapacity(generationSize)
        }
        state.young[key] = value
    }

    /// The number of remembered answers (both generations; may count a key twice).
    var count: Int { state.withLock { $0.young.count + $0.old.count } }
}
