import Dispatch

/// Work spread over every core through one pool (Dispatch's), handed back
/// as a value: each index's result in its own slot of the array being
/// built, written by exactly one worker, so there is no lock and nothing
/// shared to guard, and the order of results never depends on threads.
public enum Parallel {
    /// `transform(index)` for every index in `0..<count`, in index order.
    public static func map<Result>(_ count: Int, _ transform: @Sendable (Int) -> Result) -> [Result] {
        guard count > 0 else { return [] }
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = Slots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                slots.base.advanced(by: index).initialize(to: transform(index))
            }
            initialized = count
        }
    }

    /// `transform` of each element, in order.
    public static func map<Element: Sendable, Result>(_ elements: [Element], _ transform: @Sendable (Element) -> Result) -> [Result] {
        map(elements.count) { transform(elements[$0]) }
    }

    /// `first()` and `second()` at once (two reads of different folders,
    /// say), both results handed back.
    public static func both<First, Second>(_ first: @Sendable () -> First, _ second: @Sendable () -> Second) -> (First, Second) {
        let results = map(2) { index in index == 0 ? Either<First, Second>.first(first()) : .second(second()) }
        guard case .first(let one) = results[0], case .second(let other) = results[1] else { preconditionFailure("map keeps its indices' order") }
        return (one, other)
    }

    private enum Either<First, Second> {
        case first(First)
        case second(Second)
    }

    /// The array's storage, written one distinct index per worker.
    private struct Slots<Result>: @unchecked Sendable {
        let base: UnsafeMutablePointer<Result>
    }
}
