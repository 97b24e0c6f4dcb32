import Diagnostics
@testable import SnapshotFormat
import Testing
import Yams

@Suite("YAML scalar resolution")
struct ScalarResolutionTests {
    /// The first-character shortcut in `YAMLBridge.value(of:)` must give what
    /// the resolver's regular expressions give, for every first character
    /// (`null`, `true` and `false` in each spelling among them).
    @Test func shortcut_agreesWithTheResolver_forEveryPrintableFirstCharacter() {
        let tails = ["", "1", "0", "rue", "RUE", "alse", "ALSE", "ull", "ULL", "0:30", "1:20.5", ".5", "e3", "x1F", "b101", "o17",
                     "inf", "nan", "NaN", "<", "=", "999-12-31", " text", "_1", "es", "o"]
        var checked = 0
        for first in UInt8(0x20)...UInt8(0x7E) {
            for tail in tails {
                let text = String(UnicodeScalar(first)) + tail
                let scalar = Node.Scalar(text)
                let node = Node.scalar(scalar)
                let expected: LocatedValue.Kind?
                switch YAMLBridge.resolver.resolveTag(of: node).rawValue {
                case Tag.Name.int.rawValue where node.int != nil: expected = .integer(node.int!)
                case Tag.Name.int.rawValue where ["-0", "+0"].contains(text): expected = .integer(0)
                case Tag.Name.float.rawValue where node.float.map(\.isFinite) == true: expected = .number(node.float!)
                case Tag.Name.float.rawValue where node.float != nil && text.contains(where: \.isNumber): expected = nil
                case Tag.Name.bool.rawValue where node.bool != nil: expected = .bool(node.bool!)
                case Tag.Name.null.rawValue: expected = .null
                default: expected = .string(text)
                }
                #expect(String(describing: YAMLBridge.value(of: scalar)) == String(describing: expected), "\(text.debugDescription)")
                checked += 1
            }
        }
        #expect(checked == 95 * 26)
        #expect(String(describing: YAMLBridge.value(of: Node.Scalar(""))) == String(describing: LocatedValue.Kind?.some(.null)))
    }
}
