/// A JSON object's members: unique keys, kept sorted, in one contiguous array.
///
/// Keys are Swift strings and compare as Swift strings do: two canonically equivalent spellings of one key
/// (`"é"` precomposed and decomposed) are the same key, so an object never holds both. The members are kept in
/// the strings' order (``members``), which for keys in Unicode Normalization Form C, every ASCII key among them,
/// is the order of their UTF-8 bytes; ``JSONWriter`` sorts by UTF-8 bytes only when some key is not ASCII.
///
/// Why an array and not a `[String: JSONValue]`: a reader walks `members[index]` in place, where iterating a
/// dictionary hands out a copy of every member (a reference count taken and dropped for each string, array and
/// object in it); a member is then copied only where the compiler must keep it alive across a call that may
/// release memory. Lookup by key is a binary search: O(log n) comparisons. Objects in
/// JSON are small; the reader builds one in O(n) when its keys arrive sorted (as ``JSONWriter`` writes them) and
/// in O(n log n) otherwise.
///
/// Equal objects have equal members, whatever order they were built in. Thread-safe: a value type.
public struct JSONObject: Sendable, Hashable {
    /// One `"key": value`.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        @inlinable
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, sorted by key, each key once. Walk them by index (`members[i].value`) rather than through the
    /// collection's tuples, which are copies.
    public private(set) var members: [Member]

    /// The dictionary's members, sorted.
    public init(_ dictionary: [String: JSONValue]) {
        members = dictionary.map { Member(key: $0.key, value: $0.value) }
        members.sort { $0.key < $1.key }
    }

    /// The pairs' members; of two pairs with one key (canonically equivalent spellings included), the last
    /// wins.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        var all = pairs.enumerated().map { (order: $0.offset, member: Member(key: $0.element.0, value: $0.element.1)) }
        // By key, then in the pairs' order, so that the last of each key ends its run.
        all.sort { $0.member.key < $1.member.key || ($0.member.key == $1.member.key && $0.order < $1.order) }
        members = []
        members.reserveCapacity(all.count)
        for index in all.indices where index + 1 == all.count || all[index + 1].member.key != all[index].member.key {
            members.append(all[index].member)
        }
    }

    /// Members already sorted by key, each key once (a reader that checked them).
    init(sortedMembers: [Member]) {
        members = sortedMembers
    }

    /// How many members.
    @inlinable public var count: Int { members.count }
    /// Whether there are no members.
    @inlinable public var isEmpty: Bool { members.isEmpty }
    /// The keys, sorted.
    public var keys: [String] { members.map(\.key) }
    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: members.lazy.map { ($0.key, $0.value) })
    }

    /// The position of `key`'s member, or where it would be inserted.
    @usableFromInline
    func search(_ key: String) -> (index: Int, found: Bool) {
        var low = 0, high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return (low, low < members.count && members[low].key == key)
    }

    /// The value of the member named `key`; setting nil removes it. O(log n) to find, O(n) to insert or remove.
    public subscript(key: String) -> JSONValue? {
        get {
            let (index, found) = search(key)
            return found ? members[index].value : nil
        }
        set {
            let (index, found) = search(key)
            switch (found, newValue) {
            case (true, let value?): members[index].value = value
            case (true, nil): members.remove(at: index)
            case (false, let value?): members.insert(Member(key: key, value: value), at: index)
            case (false, nil): break
            }
        }
    }
}

extension JSONObject: RandomAccessCollection {
    public typealias Element = (key: String, value: JSONValue)
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { members.count }
    /// A copy of the member at `position`; ``members`` reads it in place.
    @inlinable public subscript(position: Int) -> Element { (members[position].key, members[position].value) }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Of two elements with one key, the last wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try [String: JSONValue](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try dictionary.encode(to: encoder)
    }
}

/// Builds an object's members as a reader meets them: appended while the keys arrive in order (no hashing);
/// from the first key out of order on, every key is also kept in a set (each duplicate found as it arrives) and
/// the members are sorted once at the end. O(n) for sorted keys, O(n log n) otherwise, whatever the input.
struct JSONObjectBuilder {
    private var members: [JSONObject.Member] = []
    /// The keys so far, once a key came out of order; nil while they are sorted.
    private var keys: Set<String>?

    /// Adds a member; false (and nothing added) when the object already has `key`.
    mutating func add(_ key: String, _ value: JSONValue) -> Bool {
        if keys == nil {
            guard let last = members.last, !(last.key < key) else {
                members.append(JSONObject.Member(key: key, value: value))
                return true
            }
            keys = Set(members.map(\.key))
        }
        guard keys!.insert(key).inserted else { return false }
        members.append(JSONObject.Member(key: key, value: value))
        return true
    }

    /// The object; the builder is consumed.
    consuming func object() -> JSONObject {
        if keys != nil { members.sort { $0.key < $1.key } }
        return JSONObject(sortedMembers: members)
    }
}
