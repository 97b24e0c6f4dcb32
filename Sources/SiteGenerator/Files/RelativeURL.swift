/// Relative URLs made from file names, which anyone may choose.
enum RelativeURL {
    /// `path` as a link that can only be read as a path: a first segment
    /// with a colon (`javascript:x.svg`, from an example named
    /// `javascript:x.json`) would be read as a scheme, so it gets `./`
    /// before it. Paths with a `/` or nothing before the colon are left as
    /// they are.
    ///
    /// By bytes, as a browser reads a URL's scheme: a colon with a
    /// combining mark on it (`javascript:\u{301}x`) is one character to
    /// Swift but still ends the scheme for the browser.
    static func safe(_ path: String) -> String {
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") { return path }
            if byte == UInt8(ascii: ":") { return "./" + path }
        }
        return path
    }
}
