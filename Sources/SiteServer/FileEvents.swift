import Foundation
import ProjectFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the kernel says changed under the watched folders, as it happens:
/// inotify on Linux, one watch per folder (a folder made later is watched
/// as it appears). Elsewhere there is none yet (`make()` is nil) and
/// `serve` scans every file on a timer, as it always could.
///
/// An event only says where to look: `serve` stamps the files it names
/// (`SourceWatcher.stamp`) and builds when a stamp changed. Anything an
/// event cannot name exactly (a folder made, moved or removed, the kernel's
/// queue overflowing) asks for a scan of every file instead. The folder
/// that holds each watched one is watched too, for that one alone: a
/// watched folder made after `serve` started (`templates/`), or removed
/// and made again (a checkout), is watched as it appears.
public final class FileEvents: Sendable {
    /// What one wait saw: the paths named (as the watcher's folders name
    /// them: `site/guide/a.md`), and whether only a full scan can tell.
    public struct Batch: Sendable {
        public var paths: Set<String> = []
        public var needsScan = false
        public var isEmpty: Bool { paths.isEmpty && !needsScan }
    }

    #if os(Linux)
    private let descriptor: Int32
    /// Each watch's folder, as the watcher's folders name it.
    private let folders = Locked<[Int32: String]>([:])
    /// The watched folders by the watch on the folder that holds them.
    private let roots = Locked<[Int32: [String]]>([:])
    #endif

    /// A watcher of `folders` and every folder under them (hidden ones
    /// left out), or nil where the platform has none or it cannot start.
    public static func make(folders: [String]) -> FileEvents? {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let events = FileEvents(descriptor: descriptor)
        for folder in folders {
            events.watchTree(folder)
            events.watchHolder(of: folder)
        }
        return events
        #else
        return nil
        #endif
    }

    #if os(Linux)
    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)

    /// Watches `folder` and the folders under it (never through a link).
    private func watchTree(_ folder: String) {
        watch(folder)
        for entry in FolderWalk.entries(under: folder, enteringHidden: false) where entry.isFolder {
            watch((folder as NSString).appendingPathComponent(entry.path))
        }
    }

    /// Watches the folder that holds `root` for `root` being made or removed
    /// (added to whatever watch that folder already has).
    private func watchHolder(of root: String) {
        let holder = (root as NSString).deletingLastPathComponent
        let watch = inotify_add_watch(descriptor, holder.isEmpty ? "." : holder,
                                      UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR | IN_DONT_FOLLOW | IN_MASK_ADD))
        if watch >= 0 { roots.withLock { $0[watch, default: []].append(root) } }
    }

    private func watch(_ folder: String) {
        let watch = inotify_add_watch(descriptor, folder, Self.mask)
        if watch >= 0 { folders.withLock { $0[watch] = folder } }
    }
    #endif

    /// Waits up to `timeout` seconds for a first event, then gathers what
    /// follows it closely (an editor's save is a burst: a new file written,
    /// renamed over the old one): until `quiet` seconds pass with none, and
    /// at most `longest` seconds in all. Empty when nothing happened.
    public func next(timeout: Double, quiet: Double = 0.01, longest: Double = 0.1) -> Batch {
        var batch = Batch()
        #if os(Linux)
        guard wait(timeout) else { return batch }
        let start = DispatchTime.now().uptimeNanoseconds
        repeat {
            read(into: &batch)
        } while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < longest && wait(quiet)
        #endif
        return batch
    }

    #if os(Linux)
    /// Whether events are waiting within `seconds`.
    private func wait(_ seconds: Double) -> Bool {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let result = poll(&ready, 1, Int32(max(0, seconds * 1_000)))
        return result > 0
    }

    /// Everything queued now, as paths (or a request for a scan).
    private func read(into batch: inout Batch) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    batch.needsScan = true
                    continue
                }
                let name = String(decoding: nameBytes, as: UTF8.self)
                // A watched folder made (again) or gone: watched anew, and every file scanned.
                if let root = roots.withLock({ $0[watch] })?.first(where: { ($0 as NSString).lastPathComponent == name }) {
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watchTree(root) }
                    batch.needsScan = true
                }
                guard let folder = folders.withLock({ $0[watch] }) else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    folders.withLock { $0[watch] = nil }
                    continue
                }
                if mask & UInt32(IN_ISDIR) != 0 || mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    // A folder made, moved or removed: watched as it now is, and every file scanned.
                    if !name.isEmpty, !name.hasPrefix("."), mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                        watchTree((folder as NSString).appendingPathComponent(name))
                    }
                    batch.needsScan = true
                    continue
                }
                // Hidden files are never inputs.
                guard !name.isEmpty, !name.hasPrefix(".") else { continue }
                batch.paths.insert((folder as NSString).appendingPathComponent(name))
            }
        }
    }
    #endif
}
