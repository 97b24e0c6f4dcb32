import CYaml
import Diagnostics
import Yams

/// The located tree read straight from libyaml's events, for the documents
/// the bridge would read exactly so: Yams' composer makes a node, a tag
/// object and an event object for every scalar and hashes every mapping's
/// keys through its resolver's regular expressions, which was nine tenths
/// of the time spent reading a snapshot file.
///
/// Anything that is not plain is declined (nil), and `YAMLBridge.parse`
/// reads it through Yams as before, with Yams' errors: any error libyaml
/// reports, an alias, an anchor, a tag, a key that is not a scalar, a key
/// written twice in one mapping (Yams decides whether the two are the same
/// key), a number no value can hold, an empty stream and a second document.
enum YAMLEvents {
    /// `text`'s one document, located in `file` as Yams locates it (libyaml's
    /// marks plus one: lines and columns count from 1), or nil when Yams
    /// must read it.
    static func compose(_ text: String, file: String) -> LocatedValue? {
        var text = text
        return text.withUTF8 { bytes in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var composer = Composer(file: file)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                let step = composer.take(event)
                yaml_event_delete(&event)
                switch step {
                case .next: continue
                case .decline: return nil
                case .done: return composer.root
                }
            }
        }
    }

    /// Builds the tree event by event with a stack of open collections.
    private struct Composer {
        enum Step { case next, decline, done }

        /// A sequence or mapping whose end has not come yet.
        struct Open {
            var location: SourceLocation
            var isMapping: Bool
            var elements: [LocatedValue] = []
            var members: [LocatedValue.Member] = []
            /// A mapping's key read, waiting for its value.
            var key: (text: String, location: SourceLocation)?
            var keys: Set<String> = []
        }

        let file: String
        var open: [Open] = []
        var root: LocatedValue?
        var documents = 0

        init(file: String) { self.file = file }

        func location(_ mark: yaml_mark_t) -> SourceLocation {
            SourceLocation(file: file, line: max(Int(mark.line) + 1, 1), column: max(Int(mark.column) + 1, 1))
        }

        mutating func take(_ event: yaml_event_t) -> Step {
            switch event.type {
            case YAML_STREAM_START_EVENT, YAML_DOCUMENT_END_EVENT:
                return .next
            case YAML_DOCUMENT_START_EVENT:
                // Yams takes one document; it reports a second.
                documents += 1
                return documents == 1 ? .next : .decline
            case YAML_STREAM_END_EVENT:
                return root == nil ? .decline : .done
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                guard scalar.anchor == nil, scalar.tag == nil else { return .decline }
                let text = scalar.length == 0 ? "" : String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let here = location(event.start_mark)
                // A mapping's key: the bridge keeps its text.
                // (Read through the index, not a copy of the level: a copy
                // would share the keys' storage, and every insert copy it
                // whole, quadratic in a mapping's keys in a debug build.)
                if let last = open.indices.last, open[last].isMapping, open[last].key == nil {
                    guard open[last].keys.insert(text).inserted else { return .decline }
                    open[last].key = (text, here)
                    return .next
                }
                // Quoted, literal and folded scalars are strings; plain ones
                // resolve as the bridge resolves them.
                let kind: LocatedValue.Kind?
                if scalar.quoted_implicit == 1 {
                    kind = .string(text)
                } else {
                    kind = YAMLBridge.value(ofPlain: text)
                }
                guard let kind else { return .decline }
                return add(LocatedValue(kind: kind, location: here))
            case YAML_SEQUENCE_START_EVENT:
                let start = event.data.sequence_start
                guard start.anchor == nil, start.tag == nil, !isAwaitingKey else { return .decline }
                open.append(Open(location: location(event.start_mark), isMapping: false))
                return .next
            case YAML_MAPPING_START_EVENT:
                let start = event.data.mapping_start
                guard start.anchor == nil, start.tag == nil, !isAwaitingKey else { return .decline }
                open.append(Open(location: location(event.start_mark), isMapping: true))
                return .next
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let closed = open.popLast() else { return .decline }
                return add(LocatedValue(kind: closed.isMapping ? .object(closed.members) : .array(closed.elements), location: closed.location))
            default:
                // An alias, or an event libyaml does not make.
                return .decline
            }
        }

        /// Whether the next node is a mapping's key (a collection as a key
        /// is an error the bridge words).
        var isAwaitingKey: Bool {
            guard let last = open.last else { return false }
            return last.isMapping && last.key == nil
        }

        mutating func add(_ value: LocatedValue) -> Step {
            guard !open.isEmpty else {
                guard root == nil else { return .decline }
                root = value
                return .next
            }
            let last = open.count - 1
            if open[last].isMapping {
                guard let key = open[last].key else { return .decline }
                open[last].members.append(LocatedValue.Member(key: key.text, keyLocation: key.location, value: value))
                open[last].key = nil
            } else {
                open[last].elements.append(value)
            }
            return .next
        }
    }
}
