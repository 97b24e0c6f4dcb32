import ProjectFiles

/// What a rule reads through while it derives a value: each value asked
/// for is made to hold first, and recorded, in order, as what this value
/// was derived from.
public final class Derivation: @unchecked Sendable {
    let graph: Graph
    /// What every rule of the build may read besides the graph, constant
    /// for a build (the options, where outputs go).
    public let environment: any Sendable
    /// What was read, by the thread deriving (a rule reads on its own
    /// thread; `values` reads many at once from it).
    private var reads: [Int32] = []

    init(graph: Graph, environment: any Sendable) {
        (self.graph, self.environment) = (graph, environment)
    }

    /// The nodes read, in the order they were first asked for.
    var recorded: [Int32] { reads }

    /// The value of `rule(argument)`, recorded as read.
    public func value<R: Rule>(_ rule: R.Type, _ argument: String) throws(BuildStopped) -> R.Value {
        let node = graph.node(graph.number(of: rule), argument)
        reads.append(node)
        return try graph.fetch(node, environment: environment) as! R.Value
    }

    /// The value of `rule(argument)`, not recorded as read: for a value
    /// whose every part the caller reads is covered by what it does record
    /// (the compiled templates of a theme whose texts' key it read).
    public func untracked<R: Rule>(_ rule: R.Type, _ argument: String) throws(BuildStopped) -> R.Value {
        let node = graph.node(graph.number(of: rule), argument)
        return try graph.fetch(node, environment: environment) as! R.Value
    }

    /// The values of `rule` for each of `arguments`, on every core, in
    /// their order; each recorded as read, in that order.
    public func values<R: Rule>(_ rule: R.Type, _ arguments: [String]) throws(BuildStopped) -> [R.Value] {
        let nodes = graph.nodes(graph.number(of: rule), arguments)
        reads.append(contentsOf: nodes)
        let (graph, environment) = (self.graph, self.environment)
        let results = Parallel.map(nodes.count) { index -> Result<R.Value, BuildStopped> in
            do throws(BuildStopped) {
                return .success(try graph.fetch(nodes[index], environment: environment) as! R.Value)
            } catch {
                return .failure(error)
            }
        }
        var values: [R.Value] = []
        values.reserveCapacity(results.count)
        for result in results {
            switch result {
            case .success(let value): values.append(value)
            case .failure(let stop): throw stop
            }
        }
        return values
    }
}
