/// A 128-bit content hash (two FNV-1a passes with different seeds) of
/// parts added one by one, each ended by a separator so `["ab", "c"]` and
/// `["a", "bc"]` differ.
struct ContentHash {
    private var a: UInt64 = 0xCBF2_9CE4_8422_2325, b: UInt64 = 0x8422_2325_CBF2_9CE4

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var (a, b) = (self.a, self.b)
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ 0x9E37_79B9
        }
        self.a = (a ^ 0xFF) &* 0x0000_0100_0000_01B3
        self.b = (b ^ 0xFF) &* 0x0000_0100_0000_01B3 &+ 0x9E37_79B9
    }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    var key: String { String(a, radix: 16) + String(b, radix: 16) }

    /// A 128-bit content key of `parts`.
    static func key(_ parts: [String]) -> String {
        var hash = ContentHash()
        for part in parts { hash.add(part) }
        return hash.key
    }
}
