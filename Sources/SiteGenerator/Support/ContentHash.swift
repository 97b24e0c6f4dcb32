/// A 128-bit content hash (two FNV-1a passes with different seeds) of
/// parts added one by one, each ended by a separator so `["ab", "c"]` and
/// `["a", "bc"]` differ.
struct ContentHash {
    private var a: UInt64 = 0xCBF2_9CE4_8422_2325, b: UInt64 = 0x8422_2325_CBF2_9CE4

    /// Eight bytes at a time (little-endian), each lane multiplied and
    /// folded, then the rest byte by byte, then the length: a byte at a
    /// time was 1 % of a build and most of checking an unchanged project.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var (a, b) = (self.a, self.b)
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            a = (a ^ word) &* 0x9E37_79B9_7F4A_7C15
            a ^= a >> 29
            b = (b ^ word) &* 0xC2B2_AE3D_27D4_EB4F
            b ^= b >> 32
            index += 8
        }
        while index < bytes.count {
            a = (a ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3 &+ 0x9E37_79B9
            index += 1
        }
        self.a = (a ^ UInt64(bytes.count)) &* 0x0000_0100_0000_01B3
        self.b = (b ^ UInt64(bytes.count) ^ 0xFF) &* 0x0000_0100_0000_01B3 &+ 0x9E37_79B9
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
