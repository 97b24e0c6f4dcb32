/// Diagnostics as GitHub Actions workflow commands
/// (`::error file=…,line=…,col=…::message`), escaped as the runner expects.
public enum GitHubAnnotation {
    public static func line(_ diagnostic: Diagnostic) -> String {
        let location = diagnostic.location
        let kind = diagnostic.severity == .error ? "error" : "warning"
        var message = diagnostic.message
        for note in diagnostic.notes { message += "\n\(note.location): note: \(note.message)" }
        return "::\(kind) file=\(property(location.file)),line=\(location.line),col=\(location.column)::\(data(message))"
    }

    /// The message part: `%`, CR and LF are percent-encoded.
    static func data(_ text: String) -> String {
        text.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }

    /// A property value: also `:` and `,`.
    static func property(_ text: String) -> String {
        data(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
