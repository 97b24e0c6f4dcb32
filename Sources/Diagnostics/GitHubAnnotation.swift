/// Diagnostics as GitHub Actions workflow commands
/// (`::error file=…,line=…,col=…::message`), escaped as the runner expects.
public enum GitHubAnnotation {
    public static func line(_ diagnostic: Diagnostic) -> String {
        let location = diagnostic.location
        let kind = diagnostic.severity == .error ? "error" : "warning"
        // Control characters from input are shown escaped; the line breaks
        // between the message and its notes are the only real ones.
        var message = TerminalText.escaped(diagnostic.message)
        for note in diagnostic.notes { message += "\n\(TerminalText.escaped(note.location.description)): note: \(TerminalText.escaped(note.message))" }
        return "::\(kind) file=\(property(TerminalText.escaped(location.file))),line=\(location.line),col=\(location.column)::\(data(message))"
    }

    /// The message part: `%`, CR and LF are percent-encoded, scalar by
    /// scalar (as Characters, `\r\n` is one and would slip through).
    static func data(_ text: String) -> String {
        percentEncoded(text, ["%", "\r", "\n"])
    }

    /// A property value: also `:` and `,`.
    static func property(_ text: String) -> String {
        percentEncoded(text, ["%", "\r", "\n", ":", ","])
    }

    static func percentEncoded(_ text: String, _ characters: Set<Unicode.Scalar>) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if characters.contains(scalar) {
                out += "%" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
