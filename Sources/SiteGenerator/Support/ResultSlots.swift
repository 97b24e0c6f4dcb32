import Foundation

/// Slots that parallel workers fill, one each, read once all have finished.
final class ResultSlots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    subscript(index: Int) -> Value? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }

    var values: [Value] { lock.withLock { slots.map { $0! } } }

    /// Adds one to an integer slot and returns the new value.
    func increment(_ index: Int) -> Int where Value == Int {
        lock.withLock {
            slots[index] = (slots[index] ?? 0) + 1
            return slots[index]!
        }
    }
}
