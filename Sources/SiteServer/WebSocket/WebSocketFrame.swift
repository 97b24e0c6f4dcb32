import Foundation

/// RFC 6455 as far as a live-reload socket needs it: the handshake, text
/// frames to the page, and reading the page's frames with a size limit taken
/// from the frame's header before its payload is read.
enum WebSocket {
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a request's `Sec-WebSocket-Key`.
    static func accept(key: String) -> String {
        Data(SHA1.digest(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    enum Opcode: UInt8 {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA
    }

    /// One unmasked frame from the server, final.
    static func frame(_ opcode: Opcode, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode.rawValue]
        switch payload.count {
        case 0..<126: bytes.append(UInt8(payload.count))
        case 126...0xFFFF: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(127)
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(56 - $0 * 8)) }
        }
        return bytes + payload
    }

    static func closeFrame(code: UInt16) -> [UInt8] {
        frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])
    }

    enum Parsed: Equatable {
        case needMore
        case frame(opcode: UInt8, payload: [UInt8], length: Int)
        /// The page broke the protocol or the limit; close with this code.
        case fail(code: UInt16)
    }

    /// The first frame at the start of `buffer`, from a page (masked).
    static func parse(_ buffer: ArraySlice<UInt8>, maxPayload: Int) -> Parsed {
        guard buffer.count >= 2 else { return .needMore }
        let start = buffer.startIndex
        let first = buffer[start], second = buffer[start + 1]
        guard first & 0x70 == 0 else { return .fail(code: 1002) }
        guard second & 0x80 != 0 else { return .fail(code: 1002) }
        var length = UInt64(second & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return .needMore }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return .needMore }
            length = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(buffer[start + 2 + $1]) }
            offset = 10
        }
        // Refused on the header's word, before a byte of it is buffered.
        guard length <= UInt64(maxPayload) else { return .fail(code: 1009) }
        let opcode = first & 0x0F
        if opcode >= 0x8 {
            guard first & 0x80 != 0, length <= 125 else { return .fail(code: 1002) }
        }
        let total = offset + 4 + Int(length)
        guard buffer.count >= total else { return .needMore }
        let mask = Array(buffer[(start + offset)..<(start + offset + 4)])
        var payload = Array(buffer[(start + offset + 4)..<(start + total)])
        for index in payload.indices { payload[index] ^= mask[index & 3] }
        return .frame(opcode: opcode, payload: payload, length: total)
    }
}
