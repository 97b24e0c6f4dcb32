import Foundation

/// The few POSIX socket calls the server makes, the same on Linux and macOS.
/// Every descriptor is non-blocking; a call that would block says so by
/// returning nil instead of waiting.
enum Socket {
    /// A listening socket's descriptor and the port it got.
    struct Listener {
        var descriptor: Int32
        var port: UInt16
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String

        init(_ what: String, errno code: Int32 = errno) {
            switch code {
            case EADDRINUSE: description = "\(what): the address is already in use (choose another --port)"
            case EADDRNOTAVAIL: description = "\(what): this machine has no such address"
            case EACCES: description = "\(what): permission denied (ports below 1024 need privileges)"
            case 0: description = what
            default: description = "\(what): \(String(cString: strerror(code)))"
            }
        }
    }

    #if os(Linux)
    static let stream = Int32(SOCK_STREAM.rawValue)
    #else
    static let stream = SOCK_STREAM
    #endif

    /// Listens on `host` (an IPv4 or IPv6 address) and `port` (0: any free one).
    static func listen(host: String, port: UInt16) throws(Failure) -> Listener {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, stream, 0)
        guard descriptor >= 0 else { throw Failure("cannot open a socket") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        // The address in its family's form; nil when `host` is not one.
        let bound: Int32?
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            bound = inet_pton(AF_INET6, host, &address.sin6_addr) == 1 ? bind(descriptor, address) : nil
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            bound = inet_pton(AF_INET, host, &address.sin_addr) == 1 ? bind(descriptor, address) : nil
        }
        guard let bound else {
            close(descriptor)
            throw Failure("'\(host)' is not an IP address to listen on (try 127.0.0.1 or ::1)", errno: 0)
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw Failure("cannot listen on \(host):\(port)", errno: code)
        }
        guard Foundation.listen(descriptor, 512) == 0, setNonBlocking(descriptor) else {
            let code = errno
            close(descriptor)
            throw Failure("cannot listen on \(host):\(port)", errno: code)
        }
        return Listener(descriptor: descriptor, port: boundPort(descriptor) ?? port)
    }

    /// `bind(2)` with an address of either family.
    private static func bind<Address>(_ descriptor: Int32, _ address: Address) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }

    static func boundPort(_ descriptor: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer -> UInt16 in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    static func setNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL, 0)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    enum Accepted {
        case connection(Int32)
        /// Nothing waiting.
        case none
        /// The process (or the system) has no descriptor left.
        case outOfDescriptors
        case failed
    }

    static func accept(_ listener: Int32) -> Accepted {
        let descriptor = Foundation.accept(listener, nil, nil)
        if descriptor >= 0 {
            guard setNonBlocking(descriptor) else {
                close(descriptor)
                return .failed
            }
            return .connection(descriptor)
        }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR: return .none
        case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors
        default: return .failed
        }
    }

    enum Transfer: Equatable {
        case bytes(Int)
        case wouldBlock
        /// The peer closed, or the socket failed.
        case closed
    }

    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        let count = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
        if count > 0 { return .bytes(count) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        return .closed
    }

    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        let count = Foundation.write(descriptor, bytes.baseAddress, bytes.count)
        if count >= 0 { return .bytes(count) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        return .closed
    }

    /// The soft limit on open descriptors.
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// Whether `host` is an address only this machine can reach.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
