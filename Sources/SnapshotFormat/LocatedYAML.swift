import Diagnostics


/// YAML read into a located tree, for YAML embedded in other files.
public enum LocatedYAML {
    /// Parses `text`, which starts on line `lineOffset + 1` of `file`.
    public static func parse(_ text: String, file: String, lineOffset: Int = 0) -> Result<LocatedValue, Diagnostic> {
        YAMLBridge.parse(text, file: file, lineOffset: lineOffset).map { $0.shifted(by: lineOffset) }
    }
}
