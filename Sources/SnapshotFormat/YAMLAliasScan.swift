// libyaml, which Yams builds from source: its event parser sees an alias
// (`*name`) before Yams' composer copies the anchored node into its place.
import CYaml

/// Finds the first YAML alias in a text without composing it.
///
/// Yams expands every alias into a copy of its anchor's node, and compares
/// mapping keys by value, so a few hundred bytes of nested aliases (the
/// "billion laughs" file) grow into gigabytes before a reader sees a node.
/// Snapshot files refuse aliases; this finds the first one with libyaml's
/// event parser, which keeps nothing but the current event.
enum YAMLAliasScan {
    /// The 1-based line and column of the first alias, or nil when there is
    /// none (or the text does not parse: composing it then reports why).
    static func firstAlias(in text: String) -> (line: Int, column: Int)? {
        // An alias starts with `*`: most files have none and skip the scan.
        guard text.utf8.contains(UInt8(ascii: "*")) else { return nil }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer -> (line: Int, column: Int)? in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_ALIAS_EVENT:
                    return (Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1)
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    continue
                }
            }
        }
    }
}
