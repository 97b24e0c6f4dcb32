import Foundation

/// Reads a whole input file, refusing one larger than a limit before reading
/// it, and saying why a file cannot be read in words a user can act on.
public enum FileContents {
    /// Why a file could not be read.
    public struct Failure: Error, Sendable {
        public var message: String
        /// Whether the file was refused for its size (it could be read).
        public var tooLarge = false

        public init(message: String, tooLarge: Bool = false) { (self.message, self.tooLarge) = (message, tooLarge) }
    }

    /// The bytes of the file at `path`, at most `limit` of them (any number
    /// when nil). Unless `followingLink`, a file that is a symbolic link
    /// itself is refused, never opened.
    public static func read(_ path: String, limit: Int?, followingLink: Bool = true) throws(Failure) -> [UInt8] {
        // The common case in five system calls: open (not waiting for a
        // FIFO's writer), what the descriptor is, read its size and one byte
        // more (so a file that grew is seen), close.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW))
        if descriptor < 0, !followingLink, errno == ELOOP {
            throw Failure(message: "cannot read the file: it is a symbolic link, which a build never follows")
        }
        if descriptor >= 0 {
            defer { close(descriptor) }
            var status = stat()
            if fstat(descriptor, &status) == 0 {
                try refuseIfNotAFile(status.st_mode)
                let size = Int(status.st_size)
                if status.st_mode & S_IFMT == S_IFREG, size <= limit ?? Int(Int32.max), let bytes = readUpTo(descriptor, size + 1) {
                    if let limit, bytes.count > limit {
                        throw Failure(message: "the file is larger than \(ByteCount.describe(Int64(limit))), the limit for files", tooLarge: true)
                    }
                    if bytes.count <= size { return bytes }
                    // It grew since it was measured: read it the careful way.
                }
            }
            return try readExplaining(path, limit: limit)
        }
        var entry = stat()
        if !followingLink, lstat(path, &entry) == 0, entry.st_mode & S_IFMT == S_IFLNK {
            throw Failure(message: "cannot read the file: it is a symbolic link, which a build never follows")
        }
        // It could not be opened (a socket cannot be): what it is, then the
        // checks below say why, in the order a user would fix them.
        var status = stat()
        if stat(path, &status) == 0 { try refuseIfNotAFile(status.st_mode) }
        return try readExplaining(path, limit: limit)
    }

    /// The first `lines` lines of the regular file at `path` (line feeds
    /// kept; fewer at its end), read in blocks and never through a link:
    /// what a file's header says without reading the megabytes after it.
    /// Nil when it cannot be read or the lines pass `limit` bytes.
    public static func firstLines(_ path: String, _ lines: Int, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var found = 0
        while found < lines {
            guard bytes.count < limit, let block = readUpTo(descriptor, 64 * 1024) else { return nil }
            let start = bytes.count
            bytes += block
            var index = start
            while found < lines, index < bytes.count, let next = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
                found += 1
                index = next + 1
                if found == lines { bytes.removeSubrange(index...) }
            }
            if block.count < 64 * 1024 { break }
        }
        return bytes.count <= limit ? bytes : nil
    }

    /// The size of the file at `path` (through a link), if it can be read.
    public static func size(of path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// The size of the entry at `path` itself (a link's own, not its target's).
    public static func size(ofEntry path: String) -> Int64? {
        var status = stat()
        return lstat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// A FIFO, a socket or a device is not an input file.
    static func refuseIfNotAFile(_ mode: mode_t) throws(Failure) {
        switch mode & S_IFMT {
        case S_IFREG, S_IFDIR: return
        case S_IFIFO: throw Failure(message: "cannot read the file: it is a named pipe (FIFO), not a regular file")
        case S_IFSOCK: throw Failure(message: "cannot read the file: it is a socket, not a regular file")
        default: throw Failure(message: "cannot read the file: it is a device, not a regular file")
        }
    }

    static func tooLarge(_ size: Int64, limit: Int) -> Failure {
        Failure(message: "the file is \(ByteCount.exactly(size)); files are limited to \(ByteCount.exactly(Int64(limit)))", tooLarge: true)
    }

    /// Reads with every check first, to say why a file cannot be read.
    static func readExplaining(_ path: String, limit: Int?) throws(Failure) -> [UInt8] {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
            // A dangling symbolic link exists but leads nowhere.
            if (try? manager.destinationOfSymbolicLink(atPath: path)) != nil {
                throw Failure(message: "cannot read the file: it is a symbolic link to a file that does not exist")
            }
            throw Failure(message: "cannot read the file: it does not exist")
        }
        if isFolder.boolValue { throw Failure(message: "cannot read the file: it is a folder") }
        guard manager.isReadableFile(atPath: path) else {
            throw Failure(message: "cannot read the file: permission denied")
        }
        if let limit, let size = (try? manager.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.int64Value > Int64(limit) {
            throw tooLarge(size.int64Value, limit: limit)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure(message: "cannot read the file: it could not be opened")
        }
        defer { try? handle.close() }
        // Read one byte past the limit: a file that grew since it was
        // measured is refused too.
        let data: Data
        do {
            data = try (limit.map { try handle.read(upToCount: $0 + 1) } ?? handle.readToEnd()) ?? Data()
        } catch {
            throw Failure(message: "cannot read the file: \((error as NSError).localizedFailureReason ?? "a read failed")")
        }
        if let limit, data.count > limit {
            throw Failure(message: "the file is larger than \(ByteCount.describe(Int64(limit))), the limit for files", tooLarge: true)
        }
        return [UInt8](data)
    }
}

/// Byte counts as people read them: `64 MiB`, `1.5 KiB`, `12 bytes`.
public enum ByteCount {
    /// `describe` with the exact count beside it past 1 KiB ("64 MiB
    /// (67,108,865 bytes)"): a file one byte over a limit reads as over it.
    /// (Grouped by hand: Foundation's formatters follow the locale, and a
    /// diagnostic reads the same on every machine.)
    public static func exactly(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return describe(bytes) }
        var digits = Array(String(bytes))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return "\(describe(bytes)) (\(String(digits)) bytes)"
    }

    public static func describe(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(text) \(units[unit])"
    }
}

/// Why a file operation failed, in the words of the system's own error
/// (`Is a directory`, `Permission denied`) rather than Foundation's wrapper.
public enum FileError {
    public static func reason(_ error: any Error, path: String) -> String {
        let nsError = error as NSError
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "it is a folder"
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))).lowercased() }
        switch nsError.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file or folder"
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
        case NSFileWriteFileExistsError: return "it already exists"
        case NSFileWriteOutOfSpaceError: return "the disk is full"
        case NSFileWriteVolumeReadOnlyError: return "the disk is read-only"
        default: return nsError.localizedFailureReason ?? nsError.localizedDescription
        }
    }
}

/// Up to `count` bytes of an open file, nil when reading fails; outside
/// `FileContents`, whose own `read` would shadow `read(2)`.
private func readUpTo(_ descriptor: Int32, _ count: Int) -> [UInt8]? {
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
        filled = 0
        while filled < buffer.count {
            let got = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                failed = got < 0
                return
            }
            filled += got
        }
    }
    return failed ? nil : bytes
}
