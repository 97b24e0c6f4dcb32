import Crypto

/// What identifies a file's contents: its SHA-256 (swift-crypto), as hex.
/// A pull request can choose every byte of an input, so a key it cannot
/// make collide is what decides that two inputs are the same (the build
/// cache, the live-reload event's list of what a build read).
public enum Digest {
    public static func sha256<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        hex(SHA256.hash(data: Array(bytes)))
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Many parts hashed as one key, each ended by its length so that
    /// `["ab", "c"]` and `["a", "bc"]` differ.
    /// (Small parts are gathered and hashed 64 KiB at a time: a call into
    /// SHA-256 per part was most of sealing a site of 12,000 files.)
    public struct Hasher {
        private var hash = SHA256()
        private var pending: [UInt8] = []
        private static let batch = 64 << 10

        public init() {}

        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            if pending.count + bytes.count + 8 > Self.batch { flush() }
            if bytes.count >= Self.batch {
                hash.update(bufferPointer: bytes)
            } else {
                if pending.capacity == 0 { pending.reserveCapacity(Self.batch) }
                pending.append(contentsOf: bytes)
            }
            var length = UInt64(bytes.count).littleEndian
            withUnsafeBytes(of: &length) { pending.append(contentsOf: $0) }
        }

        public mutating func add(_ text: String) {
            var text = text
            text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
        }

        private mutating func flush() {
            guard !pending.isEmpty else { return }
            pending.withUnsafeBytes { hash.update(bufferPointer: $0) }
            pending.removeAll(keepingCapacity: true)
        }

        public var key: String {
            var copy = self
            copy.flush()
            return Digest.hex(copy.hash.finalize())
        }
    }
}
