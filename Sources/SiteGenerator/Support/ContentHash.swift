import ProjectFiles

/// A content key (SHA-256, from swift-crypto) of parts added one by one,
/// each ended by its length so `["ab", "c"]` and `["a", "bc"]` differ: what
/// the build cache and the review key outputs by. Every byte of a page or
/// an example is a pull request's to choose, so the key is one it cannot
/// make collide (a hash made for speed could be, and a collision would
/// serve another input's page from the cache).
struct ContentHash {
    private var hasher = Digest.Hasher()

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        hasher.add(bytes)
    }

    mutating func add(_ text: String) {
        hasher.add(text)
    }

    var key: String { hasher.key }

    /// The content key of `parts`.
    static func key(_ parts: [String]) -> String {
        var hash = ContentHash()
        for part in parts { hash.add(part) }
        return hash.key
    }
}
