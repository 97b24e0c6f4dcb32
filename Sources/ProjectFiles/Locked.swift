import Foundation

/// A value only one thread at a time reads or changes: what a class shared
/// between threads keeps its mutable state in, so that the class itself is
/// plainly `Sendable` and this is the one place that vouches for a lock.
/// Synchronization's `Mutex` has the same `withLock`, but needs macOS 15,
/// and the package's platforms are every product's: ListDiff's apps run on
/// older systems. Swap it in when they do not.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, the lock held.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
