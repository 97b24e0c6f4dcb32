import Foundation

/// Which `Host` and `Origin` headers the dev server answers: only names of
/// the address it is bound to, and `localhost`. A page on another site that
/// reaches the port by DNS rebinding sends its own name as `Host` and is
/// refused; a page on another origin cannot open the live-reload stream.
struct HostPolicy: Sendable {
    /// The address listened on, as given (`127.0.0.1`, `::1`, `0.0.0.0`).
    var boundHost: String
    var port: UInt16

    /// Whether the server is bound to every address (any IP literal then
    /// names it; host names still do not, being what rebinding uses).
    var isWildcard: Bool { boundHost == "0.0.0.0" || boundHost == "::" }

    /// Whether a request with this `Host` header is for this server.
    func allows(host header: String) -> Bool {
        guard let (name, port) = Self.split(header.lowercased()) else { return false }
        guard (port ?? 80) == self.port else { return false }
        if name == "localhost" { return true }
        let bound = boundHost.lowercased()
        if name == bound || (bound == "localhost" && name == "127.0.0.1") { return true }
        return isWildcard && Self.isIPLiteral(name)
    }

    /// Whether a request for the live-reload stream comes from a page this
    /// server served. A browser names the origin of a cross-origin request
    /// (`Origin`, and `Sec-Fetch-Site: cross-site`); a same-origin
    /// `EventSource` sends no `Origin`. So: a `Host` of this server, and an
    /// `Origin`, when there is one, of `http://` and that host, and no
    /// `Sec-Fetch-Site` other than `same-origin` or `none`.
    func allowsLiveStream(origin: String?, fetchSite: String?, host header: String) -> Bool {
        guard allows(host: header) else { return false }
        if let origin, origin.lowercased() != "http://" + header.lowercased() { return false }
        if let fetchSite, !["same-origin", "none"].contains(fetchSite.lowercased()) { return false }
        return true
    }

    /// `name` and port of a Host header: `a:1`, `[::1]:2`, `a`.
    static func split(_ header: String) -> (name: String, port: UInt16?)? {
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return nil }
            let name = String(header[header.index(after: header.startIndex)..<close])
            let rest = header[header.index(after: close)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":"), let port = UInt16(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        let parts = header.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return parts[0].isEmpty ? nil : (String(parts[0]), nil)
        case 2:
            guard !parts[0].isEmpty, let port = UInt16(parts[1]) else { return nil }
            return (String(parts[0]), port)
        default: return nil
        }
    }

    static func isIPLiteral(_ name: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }
}
