/// Text from an input file made safe for one line of a terminal or a CI log:
/// line breaks, control characters (escape sequences start with one) and the
/// characters that reorder a line (bidirectional overrides) are written as
/// visible escapes, Swift's way (`\n`, `\u{1B}`). What remains cannot start a
/// new log line, such as a forged `::error` workflow command, or drive the
/// terminal.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F: return true // C0, DEL, C1 (CSI is U+009B)
        case 0x2028, 0x2029: return true // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true // bidirectional controls
        default: return false
        }
    }
}
